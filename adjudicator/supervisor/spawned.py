"""`adjudicator kiosk` where there is no fork (Windows): the kiosk runs as a child process, a new
interpreter started with its own command line, and is started again if it dies; Ctrl-C and
Ctrl-Break are held and the console is put back however the kiosk ends.

What the forked supervisor (adjudicator/supervisor/forked.py) does, without fork: each child is started
with `python -m adjudicator kiosk ...` and the supervised child's environment
(adjudicator/supervisor/child.py: CHILD_ENV, the report pipe's write end, the supervisor's pid); it
reads the config, tells the supervisor its journal and its first paint over the pipe, and keeps
its error output off the players' screen (supervised.ChildRun). A child that ends after its
first paint on anything but the director's Quit (exit 0) is started again on Ready and the
restart journaled; one that never painted is not restarted when it refused (a config, a
lexicon, a journal: its words are shown, its exit code passed on), and is tried START_TRIES times
in a row when it crashed. Every child imports the kiosk itself: a restart takes as long as a
cold start (no child can inherit the imports).

The console (winconsole.SavedConsole) keeps the kiosk's input mode from before the first child
to after the last: Ctrl-C is a key, never a signal, also while a child restarts. Ctrl-Break is a
signal on every console: the supervisor ignores it, and so does each child (SIGBREAK, HELD). A
child that ends on a stop signal all the same (128 + SIGINT or SIGTERM, raised by another
program) ends the kiosk with that code. Closing the console window ends every process in it.

Written for Windows and run on Linux by the tests (the pipe handed on by number there, by
handle on Windows); the console's calls are winconsole.ConsoleOps, which a test fakes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Sequence

from adjudicator.errors import EXIT_IO, AdjudicatorError
from adjudicator.supervisor.options import KIOSK_OPTIONS
from adjudicator.supervisor.restarts import Restarting, note_restart, said_at_the_end
from adjudicator.supervisor.child import (CHILD_ENV, READY, REPORT_FD_ENV, RESTARTED_ENV,
                                          SUPERVISOR_ENV, Reports, log_path)
from adjudicator.supervisor.winconsole import SavedConsole

HELD: tuple[signal.Signals, ...]
if sys.platform == "win32":
    HELD = (signal.SIGINT, signal.SIGBREAK)  # Ctrl-C (should processed input come back), Break
else:
    HELD = (signal.SIGINT,)  # what a test can send on Linux
# A child that ends with 128 + one of these (raised by another program) ends the kiosk with it.
ENDING = (signal.SIGINT, signal.SIGTERM)


def child_command(config_path: str | None, mode: str | None, session: str) -> list[str]:
    """A kiosk child's command line: this interpreter, the adjudicator module and the plain
    `kiosk ...` line for these parameters (kiosk_command.plain_kiosk_args reads it back)."""
    command = [sys.executable, "-m", "adjudicator", "kiosk"]
    for (option, _), value in zip(KIOSK_OPTIONS, (config_path, mode, session or None)):
        if value:
            command.append(f"{option}={value}")
    return command


class SpawnSupervisor(Restarting):
    """Starts the child COMMAND again and again until it ends normally (or cannot start).

    CONSOLE: the console's saved modes (winconsole.SavedConsole; a test gives a fake one).
    HELD: the signals ignored while the kiosk runs.
    """

    def __init__(self, command: Sequence[str], console: SavedConsole | None = None,
                 held: Sequence[int] | None = None):
        self.command = list(command)
        self.console = console if console is not None else SavedConsole()
        self.held = tuple(HELD if held is None else held)
        self.journal_path = self.log = ""  # known once a child has read the config
        self.child: subprocess.Popen | None = None
        self.restarts = 0

    def run(self) -> int:
        """Supervise until the kiosk ends; the console put back; the exit code."""
        handlers = {sig: signal.signal(sig, signal.SIG_IGN) for sig in self.held}
        code, message, refused = EXIT_IO, "", None
        try:
            self.console.lock()  # from the first child to the last: Ctrl-C a key
            code, message, refused = self._supervise()
        finally:
            if self.child is not None and self.child.poll() is None:  # the supervisor failed
                self.child.kill()
                self.child.wait()
            self.child = None
            if refused is None and self.log:
                self.console.restore()
            else:  # it never took the screen
                self.console.restore_mode()
            for sig, handler in handlers.items():
                signal.signal(sig, handler)
        said_at_the_end(self.log, refused, message)
        return code

    def _signal_of(self, code: int) -> int:
        return next((sig for sig in ENDING if code == 128 + sig), 0)

    def _run_child(self, restart_reason: str) -> tuple[int, bool, int | str]:
        """One child, to its end: (exit code, whether it painted, the log offset it began at or,
        when it ended before it knew its log, what it said)."""
        self.console.lock()  # as a child that ended on its own may have left it
        read_end, write_end = os.pipe()
        try:
            self.child = self._start(write_end)
        except OSError as e:
            os.close(read_end)
            raise AdjudicatorError(f"cannot start the kiosk: {e.strerror or e}") from None
        finally:
            os.close(write_end)  # the child's now: the pipe ends with it
        try:
            if restart_reason:  # the new child is starting meanwhile: Ready comes first
                note_restart(self.journal_path, restart_reason, self.log)
            reports = Reports(read_end)
            journal = reports.next()
            if journal is not None:
                self.journal_path = journal[1]
                self.log = log_path(self.journal_path)
            ready = journal is not None and reports.next() == READY
        finally:
            os.close(read_end)
        code = self.child.wait()
        self.child = None
        refusal = reports.said or (journal[0] if journal is not None else "")
        return code, ready, refusal

    def _start(self, write_end: int) -> subprocess.Popen:
        """The child, given WRITE_END of the report pipe: by handle on Windows, by number
        elsewhere."""
        env = {**os.environ, CHILD_ENV: "1", SUPERVISOR_ENV: str(os.getpid())}
        env.pop(RESTARTED_ENV, None)
        if self.restarts:  # a journal gone bad is said on Ready then, never a refusal (issue 42)
            env[RESTARTED_ENV] = "1"
        if sys.platform == "win32":
            import msvcrt

            handle = msvcrt.get_osfhandle(write_end)
            os.set_handle_inheritable(handle, True)
            env[REPORT_FD_ENV] = str(handle)
            info = subprocess.STARTUPINFO(lpAttributeList={"handle_list": [handle]})
            return subprocess.Popen(self.command, env=env, startupinfo=info, close_fds=True)
        env[REPORT_FD_ENV] = str(write_end)
        return subprocess.Popen(self.command, env=env, pass_fds=(write_end,))
