"""Test helper: an Epson-like receipt printer on a pseudo-terminal pair (os.openpty())."""

from __future__ import annotations

import errno
import os
import select
import threading
import tty

# DLE EOT 1..4 replies (fixed bits 0x12) for each state the printer can be in.
STATES: dict[str, tuple[int, int, int, int]] = {
    "ok": (0x12, 0x12, 0x12, 0x12),
    "near end": (0x12, 0x12, 0x12, 0x1E),        # n=4 bits 2-3
    "paper out": (0x1A, 0x32, 0x12, 0x7E),       # n=1 offline, n=2 bit 5, n=4 bits 5-6 (+2-3)
    "cover open": (0x1A, 0x16, 0x12, 0x12),      # n=1 offline, n=2 bit 2
    "cutter error": (0x1A, 0x52, 0x1A, 0x12),    # n=1 offline, n=2 bit 6, n=3 bit 3
    "offline": (0x1A, 0x12, 0x12, 0x12),         # n=1 bit 3, no cause given
    "garbled": (0xFF, 0xFF, 0xFF, 0xFF),         # wrong baud rate: bytes without the fixed bits
}
XON, XOFF = b"\x11", b"\x13"


class FakePrinter:
    """Records what it is sent and answers DLE EOT n for its `state` (None: switched off).

    Triggers, each armed with a byte count of print data (status requests not counted):
    `vanish_after` closes the pty (cable pulled), `xoff_after` sends XOFF and stops reading,
    `stall_after` stops reading without a word (a jammed printer on a line without flow control),
    `state_after = (n, state)` changes state mid-job (paper runs out while printing).
    """

    def __init__(self, state: str | None = "ok", fds: tuple[int, int] | None = None):
        """FDS: (the printer's end, the computer's end) of another pair than a pty's (a
        socketpair: fake_lp.py's USB printer device); the pty's by default."""
        if fds is None:
            self.master, self.slave = os.openpty()
            tty.setraw(self.slave)  # no echo, no line editing before pyserial opens the port
            self.path = os.ttyname(self.slave)
        else:
            self.master, self.slave = fds
            self.path = ""
        self.state = state
        self.data = bytearray()        # everything sent except status requests
        self.requests: list[int] = []  # the n of every DLE EOT n received
        self.vanish_after: int | None = None
        self.xoff_after: int | None = None
        self.stall_after: int | None = None
        self.state_after: tuple[int, str] | None = None
        self.gone = False
        self._reading = threading.Event()
        self._reading.set()
        self._stop = threading.Event()
        self._carry = b""
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    # -- controls used by the tests --------------------------------------------------------------
    def stop_reading(self, xoff: bool = True) -> None:
        """The printer stops taking data: it sends XOFF (honoured with flow xonxoff), or just stops
        reading, so the line's buffer fills and writes time out.

        After XOFF it still reads what was already on its way and answers DLE EOT, as an Epson
        does even with a full buffer; the stopped line keeps anything more from arriving.
        """
        if xoff:
            os.write(self.master, XOFF)
        else:
            self._reading.clear()

    def resume(self) -> None:
        os.write(self.master, XON)
        self._reading.set()

    def take(self) -> bytes:
        """The print data received so far; clears it."""
        with self._lock:
            got, self.data = bytes(self.data), bytearray()
        return got

    def close(self) -> None:
        self._stop.set()
        self._reading.set()
        self._thread.join(2)
        self._vanish()
        try:
            os.close(self.slave)
        except OSError:
            pass

    # -- the printer ----------------------------------------------------------------------------
    def _vanish(self) -> None:
        if not self.gone:
            self.gone = True
            os.close(self.master)

    def _run(self) -> None:
        while not self._stop.is_set() and not self.gone:
            if not self._reading.wait(0.05):
                continue
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 4096)
            except OSError as e:
                if e.errno == errno.EIO:  # no slave open for a moment
                    continue
                raise
            self._feed(chunk)

    def _feed(self, chunk: bytes) -> None:
        stream, self._carry = self._carry + chunk, b""
        i = 0
        while i < len(stream):
            if stream[i] == 0x10:
                if i + 3 > len(stream):
                    self._carry = stream[i:]
                    return
                if stream[i + 1] == 0x04 and stream[i + 2] in (1, 2, 3, 4):
                    self._answer(stream[i + 2])
                    i += 3
                    continue
            with self._lock:
                self.data.append(stream[i])
            i += 1
            if self._triggers():
                return

    def _answer(self, n: int) -> None:
        self.requests.append(n)
        if self.state is None or self.gone:
            return
        os.write(self.master, bytes([STATES[self.state][n - 1]]))

    def _triggers(self) -> bool:
        size = len(self.data)
        if self.state_after and size >= self.state_after[0]:
            self.state, self.state_after = self.state_after[1], None
        if self.xoff_after is not None and size >= self.xoff_after:
            self.xoff_after = None
            self.stop_reading(xoff=True)  # what is already read stays in the printer's buffer
        if self.stall_after is not None and size >= self.stall_after:
            self.stall_after = None
            self.stop_reading(xoff=False)
        if self.vanish_after is not None and size >= self.vanish_after:
            self._vanish()
            return True
        return False
