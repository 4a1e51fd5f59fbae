"""`adjudicator kiosk` runs its kiosk as a child and starts it again, on Ready, if it dies.

The child's error output goes to the kiosk log beside the journal (station_state.log_path):
a traceback never reaches the players' screen. Each restart is noted in the journal
(Journal.note_event). A child that never painted (a refused config, lexicon or journal) is not
restarted: its message is shown and its exit code passed on, as without supervision.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time

from .errors import EXIT_IO
from .station_state import load_state, log_path, save_state, state_path

CHILD_ENV = "ADJUDICATOR_KIOSK_CHILD"  # set in the child: run the app itself, unsupervised
READY_FD_ENV = "ADJUDICATOR_KIOSK_READY_FD"  # the child writes one byte there on first paint
LOG_ENV = "ADJUDICATOR_KIOSK_LOG"  # the child's error output (Textual paints on the terminal)
EXIT_CRASHED = 70  # the child's code when the app stopped on an error (EX_SOFTWARE)
START_TRIES = 5  # children in a row that die before their first paint: a fault, not a crash
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child (Linux): killed with the supervisor, never left running on its own."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return "stopped on an error" if code in (1, EXIT_CRASHED) else f"exit status {code}"


def note_restart(journal_path: str, why: str) -> None:
    """The restart in the journal (and the log when the journal cannot take it)."""
    state = state_path(journal_path)
    director = load_state(state).get("director_open")
    detail = why + ("; the director's screen was open: locked again" if director else "")
    if director:
        save_state(state, director_open=False)
    try:
        from .journal import Journal

        with Journal.open(journal_path, timeout=5.0) as journal:
            journal.note_event("kiosk restarted", detail)
    except Exception as e:  # noqa: BLE001 - the station judges on; the log says why
        with open(log_path(journal_path), "a", encoding="utf-8") as log:
            print(f"adjudicator: kiosk restarted ({detail}); not journaled: {e}", file=log)


class Supervisor:
    """Starts the kiosk child again and again until it ends normally (or cannot start)."""

    def __init__(self, args: list[str], journal_path: str):
        self.args = args  # the child's command line after `adjudicator`
        self.journal_path = journal_path
        self.log = log_path(journal_path)
        self.child: subprocess.Popen | None = None
        self.stopping = False
        self.restarts = 0

    def _stop(self, signum, _frame) -> None:
        self.stopping = True
        if self.child is not None and self.child.poll() is None:
            self.child.send_signal(signal.SIGTERM)  # our own child, by its pid

    def run(self) -> int:
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self._stop)
        failed_starts = 0
        why = ""
        while True:
            code, ready, offset = self._run_child(restart_reason=why)
            if code == 0 or self.stopping:
                return 0 if code == 0 else EXIT_IO
            if not ready:
                failed_starts += 1
                if 2 <= code < EXIT_CRASHED or failed_starts >= START_TRIES:
                    self._show_log_from(offset)
                    return code if code > 0 else EXIT_IO
                time.sleep(0.2)
            else:
                failed_starts = 0
            why = describe_exit(code)
            self.restarts += 1

    def _run_child(self, restart_reason: str) -> tuple[int, bool, int]:
        """One child, to its end: (exit code, whether it painted, log offset it began at)."""
        read_end, write_end = os.pipe()
        env = dict(os.environ, **{CHILD_ENV: "1", READY_FD_ENV: str(write_end),
                                  LOG_ENV: self.log})
        try:
            offset = os.path.getsize(self.log)
        except OSError:
            offset = 0
        self.child = subprocess.Popen(
            [sys.executable, "-m", "adjudicator", *self.args], env=env,
            pass_fds=(write_end,), preexec_fn=_die_with_parent)
        os.close(write_end)
        if restart_reason:  # the new child is starting meanwhile: Ready comes first
            note_restart(self.journal_path, restart_reason)
        ready = False
        try:
            while True:
                try:
                    code = self.child.wait(timeout=None if ready else 0.05)
                    break
                except subprocess.TimeoutExpired:
                    pass
                if not ready and select.select([read_end], [], [], 0)[0]:
                    ready = bool(os.read(read_end, 1))
        finally:
            if not ready and select.select([read_end], [], [], 0)[0]:
                ready = bool(os.read(read_end, 1))
            os.close(read_end)
        return code, ready, offset

    def _show_log_from(self, offset: int) -> None:
        """What the child said before it could paint (a refusal): to the supervisor's stderr."""
        try:
            with open(self.log, "rb") as f:
                f.seek(offset)
                sys.stderr.write(f.read().decode("utf-8", "replace"))
        except OSError:
            pass


def child_errors_to_log() -> None:
    """In the child: Python's error output (tracebacks, messages) to the kiosk log.

    Textual paints on sys.__stderr__, the terminal; only sys.stderr is moved.
    """
    path = os.environ.get(LOG_ENV)
    if not os.environ.get(CHILD_ENV) or not path:
        return
    try:
        log = open(path, "a", encoding="utf-8", errors="replace", buffering=1)
    except OSError:
        return
    sys.stderr = log
    import faulthandler

    faulthandler.enable(file=log)


def child_ready_callback():
    """In the child: the function to call on first paint (tells the supervisor), or None."""
    fd = os.environ.get(READY_FD_ENV)
    if not os.environ.get(CHILD_ENV) or not fd:
        return None

    def ready() -> None:
        try:
            os.write(int(fd), b"R")
            os.close(int(fd))
        except (OSError, ValueError):
            pass

    return ready
