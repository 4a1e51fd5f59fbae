"""The terminal as it was before the kiosk: its tty mode, saved once, and every mode put back.

Textual turns on the alternate screen, mouse and focus reporting, bracketed paste and the kitty
keyboard protocol, hides the cursor and puts the tty in raw mode; it undoes all of it only when
the app ends normally. A kiosk child that is killed (SIGKILL, a hang, a crash in the driver)
leaves the players' terminal in that state, so the supervisor (adjudicator/supervisor/forked.py) puts it
back itself whenever the kiosk ends, whatever ended it: `SavedTerminal.restore`.

From before the first kiosk child starts until the last one has ended, the tty is kept in the
kiosk's own raw mode (`SavedTerminal.lock`): no echo, no line editing and no signal keys, also
while a child is being restarted. Between two children the terminal's own mode had Ctrl-C,
Ctrl-Z and Ctrl-\\ send signals for 19-32 ms: held through a restart they ended or stopped the
kiosk (issue 28, item 6).

A POSIX terminal (Linux, macOS): Windows' console has modes instead of a tty's attributes, kept
by adjudicator/supervisor/winconsole.py for the kiosk's supervisor there (adjudicator/supervisor/spawned.py).
"""

from __future__ import annotations

import os
import signal
import sys

# What Textual's LinuxDriver turns on, turned off (textual/drivers/linux_driver.py), in the
# order its own stop_application_mode writes them: the kitty keyboard mode is popped while
# still on the alternate screen, which keeps its own keyboard mode stack.
RESTORE = (
    "\x1b[?2004l"  # bracketed paste off
    "\x1b[?7h"  # line wrap on
    "\x1b[?2048l"  # in-band window resize reports off
    "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l"  # mouse reporting off
    "\x1b[<u"  # kitty keyboard protocol: Textual's flags popped
    "\x1b[?1049l"  # the alternate screen left: the shell's screen is back
    "\x1b[?25h"  # cursor shown
    "\x1b[?1004l"  # focus in/out reports off
).encode()


class SavedTerminal:
    """The tty mode of IN_FD when saved; RESTORE is written to OUT_FD (where Textual writes:
    sys.__stderr__). Either may be something else than a terminal: then nothing is done."""

    def __init__(self, in_fd: int = 0, out_fd: int = 2):
        self.in_fd, self.out_fd = in_fd, out_fd
        self.attrs = None
        if sys.platform == "win32":  # no termios: a console (winconsole.SavedConsole)
            return
        try:
            import termios

            if os.isatty(in_fd):
                self.attrs = termios.tcgetattr(in_fd)
        except (ImportError, OSError):
            pass

    def lock(self) -> None:
        """The kiosk's raw mode, as Textual's LinuxDriver sets it (no ECHO, ICANON, IEXTEN, ISIG;
        no IXON, IXOFF, ICRNL, INLCR, IGNCR): kept from the first child to the last, so a child
        that ends (or is killed) never hands the players a terminal whose keys send signals."""
        if sys.platform == "win32" or self.attrs is None:
            return
        import termios

        locked = list(self.attrs)
        locked[0] &= ~(termios.IXON | termios.IXOFF | termios.ICRNL | termios.INLCR
                       | termios.IGNCR)
        locked[3] &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN | termios.ISIG)
        locked[6] = list(locked[6])
        locked[6][termios.VMIN] = 1
        locked[6][termios.VTIME] = 0
        self._set(locked)

    def restore_mode(self) -> None:
        """The tty mode as saved (echo, line editing, the signal keys): once the kiosk has
        ended (its last child)."""
        if self.attrs is not None:
            self._set(self.attrs)

    def _set(self, attrs: list) -> None:
        if sys.platform == "win32":
            return
        import termios

        # From a background process group tcsetattr would stop us (SIGTTOU): ignored meanwhile.
        before = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        try:
            termios.tcsetattr(self.in_fd, termios.TCSANOW, attrs)
        except (termios.error, OSError):
            pass  # the terminal went away (SIGHUP): nothing left to restore
        finally:
            signal.signal(signal.SIGTTOU, before)

    def restore(self) -> None:
        """Every mode the kiosk turned on, off again, and the tty mode as saved."""
        self.restore_mode()
        try:
            if os.isatty(self.out_fd):
                os.write(self.out_fd, RESTORE)
        except OSError:
            pass

