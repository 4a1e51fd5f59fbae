"""Test helper: a USB printer-class device (/dev/usb/lp0, usblp) behind the transport's system
calls (lpdev.DeviceOps): its bytes travel over a socketpair, so poll() works on it as on the
device, and the printer at the far end is fake_printer's (answers DLE EOT n for its state, or
stays silent, stalls, vanishes). Scripted: a unidirectional printer (read() gives EINVAL, status
only through LPGETSTATUS), an errno at open, an errno at a write, a path that is a tty."""

from __future__ import annotations

import errno
import os
import select
import socket
import stat

from fake_printer import FakePrinter

from adjudicator.docket import lpdev

PATH = "/dev/usb/lp7"  # never looked at: stat() and open() are the fake's
# LPGETSTATUS byte for each state: bit 5 paper empty, bit 4 selected, bit 3 no error
PORT_STATUS = {"ok": 0x18, "near end": 0x18, "paper out": 0x38, "cover open": 0x08,
               "cutter error": 0x10, "offline": 0x08, "garbled": 0x18}


class FakeLpDevice(lpdev.DeviceOps):
    def __init__(self, state: str | None = "ok", *, unidirectional: bool = False,
                 open_errno: int | None = None, write_errno: int | None = None,
                 write_errno_after: int = 0, stall_after: int | None = None,
                 tty: bool = False, kind: int = stat.S_IFCHR, unread: bytes = b"",
                 printer_class=FakePrinter):
        near, far = (s.detach() for s in socket.socketpair())  # the printer closes both
        self.printer = printer_class(state, fds=(far, near))
        self.near = near
        self.unidirectional, self.open_errno, self.tty, self.kind = (
            unidirectional, open_errno, tty, kind)
        self.write_errno, self.write_errno_after = write_errno, write_errno_after
        self.stall_after = stall_after  # bytes taken before it takes no more (poll: no room)
        self.written = 0
        self.opened: list[int] = []  # fds handed out, closed or not
        self.closed: list[int] = []
        self._open: set[int] = set()  # handed out and not closed (a number may come again)
        if unread:  # what the printer sent before this program opened it
            os.write(far, unread)

    @property
    def state(self):
        return self.printer.state

    @state.setter
    def state(self, value):
        self.printer.state = value

    # -- the system calls ----------------------------------------------------------------------
    def stat(self, path):
        if path != PATH:
            return super().stat(path)
        return os.stat_result((self.kind | 0o660, 0, 0, 1, 0, 0, 0, 0, 0, 0))

    def open(self, path):
        if path != PATH:
            return super().open(path)
        if self.open_errno is not None:
            raise OSError(self.open_errno, os.strerror(self.open_errno), path)
        fd = os.dup(self.near)
        os.set_blocking(fd, False)  # O_NONBLOCK
        self.opened.append(fd)
        self._open.add(fd)
        return fd

    def _ours(self, fd) -> bool:
        return fd in self._open

    def isatty(self, fd):
        return self.tty if self._ours(fd) else super().isatty(fd)

    def read(self, fd, size):
        if self._ours(fd):
            if self.printer.gone:
                raise OSError(errno.ENODEV, "No such device")
            if self.unidirectional:
                raise OSError(errno.EINVAL, "Invalid argument")
        return super().read(fd, size)

    def write(self, fd, data):
        if self._ours(fd):
            if self.printer.gone:
                raise OSError(errno.ENODEV, "No such device")
            if self.write_errno is not None and self.written >= self.write_errno_after:
                raise OSError(self.write_errno, os.strerror(self.write_errno))
            if self.stall_after is not None:
                room = self.stall_after - self.written
                if room <= 0:
                    raise BlockingIOError(errno.EAGAIN, "no room")
                data = data[:room]
        n = super().write(fd, data)
        self.written += n
        return n

    def poll(self, fd, events, timeout):
        if self._ours(fd) and events & select.POLLOUT and self.stall_after is not None \
                and self.written >= self.stall_after:
            return super().poll(fd, 0, timeout)  # no room: nothing but the wait
        if self._ours(fd) and events & select.POLLIN and self.unidirectional:
            return super().poll(fd, 0, timeout)  # usblp: never readable
        return super().poll(fd, events, timeout)

    def port_status(self, fd):
        if not self._ours(fd):
            return super().port_status(fd)
        if self.printer.gone:
            raise OSError(errno.ENODEV, "No such device")
        return PORT_STATUS[self.state] if self.state else 0

    def close(self, fd):
        if self._ours(fd):
            self.closed.append(fd)
            self._open.discard(fd)
        os.close(fd)

    def shut(self) -> None:
        self.printer.close()
