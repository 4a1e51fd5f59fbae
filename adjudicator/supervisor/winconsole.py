"""The Windows console as it was before the kiosk: its input and output modes, saved once, kept
locked between kiosk children, and put back with every mode Textual turned on.

Textual's WindowsDriver sets the console's input mode to virtual-terminal input alone while the
app runs: no line editing, no echo and no processed input, so Ctrl-C is a key, not a signal.
From before the first child until the last has ended the supervisor (adjudicator/supervisor/spawned.py) keeps
that mode (lock): Ctrl-C stays a key also while a child restarts. Ctrl-Break always raises a
signal on a console; the supervisor and each child ignore it (SIGBREAK). On the way out the
saved modes are set again and tty_restore.RESTORE is written (the alternate screen left, the
cursor shown, mouse reporting off), with virtual-terminal processing on so that it is obeyed.

The console calls go through ConsoleOps, so a test on Linux gives a fake console.
"""

from __future__ import annotations

import os
import sys

from adjudicator.supervisor.tty_restore import RESTORE

ENABLE_PROCESSED_INPUT = 0x0001  # Ctrl-C raises a signal (off: it is read as a key)
ENABLE_LINE_INPUT = 0x0002
ENABLE_ECHO_INPUT = 0x0004
ENABLE_VIRTUAL_TERMINAL_INPUT = 0x0200
ENABLE_PROCESSED_OUTPUT = 0x0001
ENABLE_VIRTUAL_TERMINAL_PROCESSING = 0x0004  # escape sequences obeyed on output
LOCKED_INPUT = ENABLE_VIRTUAL_TERMINAL_INPUT  # as textual/drivers/win32.py sets it
STD_INPUT_HANDLE, STD_OUTPUT_HANDLE = -10, -11


class ConsoleOps:
    """The console calls; here, no console (every mode None). WindowsConsole makes them."""

    def get_mode(self, which: str) -> int | None:
        """The mode of the console's "in" or "out" handle; None when it is no console."""
        return None

    def set_mode(self, which: str, mode: int) -> None:
        """Set the mode of the "in" or "out" handle (nothing when it cannot be)."""

    def write(self, data: bytes) -> None:
        """DATA to the console's output."""
        try:
            os.write(1, data)
        except OSError:
            pass


if sys.platform == "win32":
    import ctypes
    from ctypes import wintypes

    class WindowsConsole(ConsoleOps):
        """GetConsoleMode and SetConsoleMode on the standard input and output handles."""

        def __init__(self) -> None:
            self.kernel32 = kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            kernel32.GetStdHandle.restype = wintypes.HANDLE  # not an int: a 64-bit handle
            kernel32.GetConsoleMode.argtypes = (wintypes.HANDLE, ctypes.POINTER(wintypes.DWORD))
            kernel32.SetConsoleMode.argtypes = (wintypes.HANDLE, wintypes.DWORD)

        def _handle(self, which: str):
            return self.kernel32.GetStdHandle(STD_INPUT_HANDLE if which == "in"
                                              else STD_OUTPUT_HANDLE)

        def get_mode(self, which: str) -> int | None:
            mode = wintypes.DWORD()
            if not self.kernel32.GetConsoleMode(self._handle(which), ctypes.byref(mode)):
                return None  # redirected: no console there
            return mode.value

        def set_mode(self, which: str, mode: int) -> None:
            self.kernel32.SetConsoleMode(self._handle(which), mode)

    def console_ops() -> ConsoleOps:
        return WindowsConsole()
else:
    def console_ops() -> ConsoleOps:
        return ConsoleOps()  # no Windows console here (a test gives a fake one)


class SavedConsole:
    """The console's input and output modes when saved (None: that handle is no console)."""

    def __init__(self, ops: ConsoleOps | None = None):
        self.ops = ops or console_ops()
        self.modes = {which: self.ops.get_mode(which) for which in ("in", "out")}

    def lock(self) -> None:
        """The kiosk's input mode (LOCKED_INPUT): Ctrl-C a key, no echo, no line editing; from
        the first child to the last."""
        if self.modes["in"] is not None:
            self.ops.set_mode("in", LOCKED_INPUT)

    def restore_mode(self) -> None:
        """The modes as saved: once the kiosk has ended."""
        for which, mode in self.modes.items():
            if mode is not None:
                self.ops.set_mode(which, mode)

    def restore(self) -> None:
        """Every mode the kiosk turned on, off again (written as escape sequences, obeyed with
        virtual-terminal processing on), then the modes as saved."""
        out = self.modes["out"]
        if out is not None:
            self.ops.set_mode("out", out | ENABLE_PROCESSED_OUTPUT
                              | ENABLE_VIRTUAL_TERMINAL_PROCESSING)
            self.ops.write(RESTORE)
        self.restore_mode()
