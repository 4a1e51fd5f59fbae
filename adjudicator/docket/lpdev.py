"""A printer behind a character device that is not a terminal (/dev/usb/lp0, Linux's usblp).

Most cheap ESC/POS printers are USB printer-class devices, not serial ports: pyserial cannot
configure them (no termios). The device is opened O_RDWR|O_NONBLOCK|O_NOCTTY; every write waits
for room with poll(POLLOUT) up to the write timeout (usblp would block for ever without one);
what the printer sent before is read and dropped after open; status is asked with DLE EOT n and
its reply awaited with poll(POLLIN). A unidirectional printer (read() gives EINVAL) is asked
through the LPGETSTATUS ioctl instead: paper out, selected, error. The system calls go through
DeviceOps, so a test gives a fake device with the same file-descriptor interface.

Only Linux has such devices to print to: on macOS and Windows a path to one is refused with a
line that names what to use there instead (a serial port, COM3 or /dev/cu.*, through pyserial;
a network printer), and nothing here but that refusal runs (PLATFORM, which a test sets).
"""

from __future__ import annotations

import errno
import os
import select
import stat
import sys
import time

from adjudicator.errors import PrinterError
from adjudicator.docket.encoder import status_request
from adjudicator.docket.status import NO_ANSWER, NOT_TAKING_DATA, PrinterStatus

LPGETSTATUS = 0x060B  # linux/lp.h: the printer port's status byte (usblp: GET_PORT_STATUS)
DRAIN_MAX = 64 * 1024  # bytes read and dropped at most after open
CHUNK = 4096  # bytes a write() at most
PLATFORM = sys.platform  # where a printer device may be used ("linux"): a test sets another
if sys.platform != "win32":
    POLLIN, POLLOUT = select.POLLIN, select.POLLOUT
    _ERRORS = select.POLLERR | select.POLLHUP | select.POLLNVAL
else:  # Windows has no poll(): no device is ever opened there (open_device refuses one)
    POLLIN, POLLOUT, _ERRORS = 0x1, 0x4, 0x8 | 0x10 | 0x20


class DeviceOps:
    """The system calls the transport makes on a device; a test replaces them with a fake."""

    def stat(self, path: str) -> os.stat_result:
        return os.stat(path)

    def open(self, path: str) -> int:
        if sys.platform == "win32":
            raise OSError(errno.ENOSYS, "no printer devices on Windows")
        return os.open(path, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY)

    def isatty(self, fd: int) -> bool:
        return os.isatty(fd)

    def read(self, fd: int, size: int) -> bytes:
        return os.read(fd, size)

    def write(self, fd: int, data) -> int:
        return os.write(fd, data)

    def poll(self, fd: int, events: int, timeout: float) -> int:
        """The events that happened on FD within TIMEOUT seconds (0: none)."""
        if sys.platform == "win32":
            raise OSError(errno.ENOSYS, "no poll() on Windows")
        poller = select.poll()
        poller.register(fd, events)
        found = poller.poll(max(0, int(timeout * 1000 + 0.999)))
        return found[0][1] if found else 0

    def port_status(self, fd: int) -> int:
        if sys.platform == "win32":
            raise OSError(errno.ENOSYS, "no ioctl() on Windows")
        import array
        import fcntl

        value = array.array("i", [0])
        fcntl.ioctl(fd, LPGETSTATUS, value, True)
        return value[0]

    def close(self, fd: int) -> None:
        os.close(fd)


OPS = DeviceOps()


class DeviceError(PrinterError):
    """The device cannot be used, in words (WHAT), with what to do about it (ADVICE)."""

    def __init__(self, what: str, advice: str):
        super().__init__(f"{what}. {advice}.")
        self.what, self.advice = what, advice


def device_error(url: str, e: OSError) -> DeviceError:
    """Why URL could not be opened, in words a runner can act on."""
    code = e.errno
    cannot = f"{NO_ANSWER}: cannot open {url}"
    if code == errno.EBUSY:
        return DeviceError(f"{cannot}: another program holds it (a print service such as CUPS)",
                           "Stop that program or take the printer out of it (for CUPS: "
                           "lpadmin -x PRINTER), then try again")
    if code in (errno.ENODEV, errno.ENXIO):
        return DeviceError(f"{cannot}: the printer is unplugged or switched off",
                           "Check it is switched on and its USB cable is plugged in")
    if code in (errno.EACCES, errno.EPERM):
        return DeviceError(f"{cannot}: this user may not use it",
                           "Add the user to the lp group (sudo adduser $USER lp; not dialout, "
                           "which is for serial ports), then log in again")
    if code == errno.ENOENT:
        return DeviceError(f"{cannot}: there is no such device",
                           "Check it is switched on and its cable is plugged in")
    return DeviceError(f"{cannot}: {os.strerror(code) if code else e}",
                       "Check it is switched on and its cable is plugged in")


def example_urls(platform: str = "") -> str:
    """Printer URLs to give as examples on PLATFORM (this one by default)."""
    platform = platform or PLATFORM
    if platform == "win32":
        return "COM3 or socket://10.0.0.9:9100"
    if platform.startswith("linux"):
        return "/dev/usb/lp0, /dev/ttyUSB0 or socket://10.0.0.9:9100"
    return "/dev/cu.usbserial-10 or socket://10.0.0.9:9100"


class NotHere(DeviceError):
    """A printer device given where only a serial port or a network printer can be used."""


def not_here(url: str, platform: str) -> DeviceError:
    """URL, a printer device, refused on PLATFORM (not Linux), naming what to use there."""
    if platform == "win32":
        return NotHere(f"{NO_ANSWER}: {url} is a Linux printer device path, not one Windows "
                           "has", "Give the printer's COM port (COM3; Device Manager lists it "
                           "under Ports) or a network printer, socket://HOST:9100")
    return NotHere(f"{NO_ANSWER}: {url} is a printer device, which only Linux prints to",
                       "Give the printer's serial port (/dev/cu.usbserial-...: ls /dev/cu.*) "
                       "or a network printer, socket://HOST:9100")


def open_device(url: str, ops: DeviceOps | None = None, platform: str = "") -> int | None:
    """The file descriptor of URL opened as a printer device when it is a character device that
    is not a terminal; None when it is something else pyserial should open (a URL, a serial
    port). Chosen by what the path is, never by its name. DeviceError for a path not there, a
    device that cannot be opened, or a path that can be no printer (a file, a folder, a pipe).

    Only on Linux (PLATFORM): elsewhere such a device is refused (not_here), and so is Linux's
    own path for one (/dev/usb/lp0: on Windows any path under /dev/); anything else (COM3,
    /dev/cu.*) is pyserial's."""
    ops = ops or OPS
    platform = platform or PLATFORM
    if "://" in url:
        return None
    if platform == "win32":
        if url.replace("\\", "/").startswith("/dev/"):
            raise not_here(url, platform)
        return None
    if not platform.startswith("linux") and url.startswith("/dev/usb/"):
        raise not_here(url, platform)
    try:
        mode = ops.stat(url).st_mode
    except FileNotFoundError as e:
        raise device_error(url, e) from None  # unplugged, most often: said in words
    except OSError:
        return None  # not ours to look at: pyserial says what it can
    if not stat.S_ISCHR(mode):
        kind = ("a file" if stat.S_ISREG(mode) else "a folder" if stat.S_ISDIR(mode)
                else "a pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "not a character device")
        raise DeviceError(f"{NO_ANSWER}: {url} is {kind}, not a printer",
                          "Give the printer's device (/dev/usb/lp0, /dev/ttyUSB0) or "
                          "socket://HOST:9100")
    try:
        fd = ops.open(url)
    except OSError as e:
        raise device_error(url, e) from None
    try:
        if ops.isatty(fd):
            ops.close(fd)
            return None  # a serial port: pyserial's
    except OSError as e:
        ops.close(fd)
        raise device_error(url, e) from None
    if not platform.startswith("linux"):
        ops.close(fd)
        raise not_here(url, platform)
    return fd


def path_kind(url: str, ops: DeviceOps | None = None) -> str:
    """What URL is, in words, when it is no serial port: "a printer device, not a serial port"
    or "no such device"; "" for a serial port, a URL or anything else (anything on Windows)."""
    if "://" in url:
        return ""
    if not PLATFORM.startswith("linux"):
        try:
            open_device(url, ops)  # never opened here: None (pyserial's), or refused
        except NotHere:
            return "a printer device: Linux only"
        except PrinterError:
            pass
        if PLATFORM == "win32":
            return ""
    try:
        (ops or OPS).stat(url)
    except FileNotFoundError:
        return "no such device"
    except OSError:
        return ""
    return "a printer device, not a serial port: no baud rate" if is_printer_device(url, ops) \
        else ""


def is_printer_device(url: str, ops: DeviceOps | None = None) -> bool:
    """True when URL is a character device that is not a terminal (looked at, then closed)."""
    try:
        fd = open_device(url, ops)
    except PrinterError:
        return False
    if fd is None:
        return False
    (ops or OPS).close(fd)
    return True


class _Stalled(Exception):
    """The device took no more data before the deadline."""


class LpPrinter:
    """An open printer device: status and jobs with bounded waits (the Printer interface)."""

    def __init__(self, fd: int, connection, ops: DeviceOps | None = None):
        self.fd, self.connection, self.ops = fd, connection, ops or OPS
        self.bidirectional = True  # until a read() says EINVAL
        try:
            self._drain()
        except OSError:
            pass  # the status request says what is wrong

    # -- the wire ------------------------------------------------------------------------------
    def _drain(self) -> None:
        """Read and drop what the printer sent before (an old reply would be taken for a new)."""
        dropped = 0
        while dropped < DRAIN_MAX:
            try:
                got = self.ops.read(self.fd, CHUNK)
            except BlockingIOError:
                return
            except OSError as e:
                if e.errno == errno.EINVAL:
                    self.bidirectional = False  # usblp on a printer that never answers
                    return
                raise
            if not got:
                return
            dropped += len(got)

    def _write(self, data: bytes, seconds: float) -> None:
        """Write DATA whole within SECONDS, waiting for room with poll; _Stalled past it."""
        deadline = time.monotonic() + seconds
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Stalled
            events = self.ops.poll(self.fd, POLLOUT, left)
            if not events:
                raise _Stalled
            if events & _ERRORS and not events & POLLOUT:
                raise OSError(errno.EIO, "the device reported an error")
            try:
                view = view[self.ops.write(self.fd, view[:CHUNK]):]
            except BlockingIOError:
                continue

    def _read_one(self, seconds: float) -> bytes | None:
        """One byte the printer sends within SECONDS; b"" for none; None when this device
        cannot be read (EINVAL: a unidirectional printer)."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not self.ops.poll(self.fd, POLLIN, left):
                return b""
            try:
                return self.ops.read(self.fd, 1)  # b"" at end of file: no answer
            except BlockingIOError:
                continue
            except OSError as e:
                if e.errno == errno.EINVAL:
                    self.bidirectional = False
                    return None
                raise

    # -- what a Printer does ------------------------------------------------------------------
    def status(self, extra_wait: float = 0.0) -> PrinterStatus:
        """DLE EOT 1-4 as on a serial port; the port status (LPGETSTATUS) when the printer
        cannot answer on this device."""
        if not self.bidirectional:
            return self._port_status()
        replies: dict[int, bytes] = {}
        try:
            self._drain()
            for n in (1, 2, 3, 4):
                self._write(status_request(n), self.connection.write_timeout)
                wait = self.connection.status_timeout + (extra_wait if n == 1 else 0)
                reply = self._read_one(wait)
                if reply is None:
                    return self._port_status()
                if not reply:
                    if n == 1:
                        return PrinterStatus.silent()
                    continue
                replies[n] = reply
        except _Stalled:
            return PrinterStatus.blocked()
        except OSError:
            return PrinterStatus.silent()
        return PrinterStatus.from_replies(replies)

    def _port_status(self) -> PrinterStatus:
        try:
            return PrinterStatus.from_port_status(self.ops.port_status(self.fd))
        except OSError:
            return PrinterStatus.silent()

    def send(self, data: bytes) -> None:
        """Write the job; PrinterError naming the problem when the printer stalls or vanishes."""
        try:
            self._write(data, self.connection.write_timeout)
        except _Stalled:
            raise PrinterError(NOT_TAKING_DATA) from None
        except OSError as e:
            raise PrinterError(NO_ANSWER) from e

    def transmit_time(self, size: int) -> float:
        return 0.0  # USB: the write returns once the data is on its way

    def close(self) -> None:
        try:
            self.ops.close(self.fd)
        except OSError:
            pass

    def __enter__(self) -> LpPrinter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
