"""The kiosk child's side of `adjudicator kiosk`'s supervision (adjudicator/supervise.py): what it
is told through its environment, its wait for the supervisor's word, its error output kept off
the players' screen, its first-paint signal, and its death with the supervisor."""

from __future__ import annotations

import io
import os
import signal
import sys

from .errors import EXIT_IO

CHILD_ENV = "ADJUDICATOR_KIOSK_CHILD"  # set in the child: run the app itself, unsupervised
READY_FD_ENV = "ADJUDICATOR_KIOSK_READY_FD"  # the child writes one byte there on first paint
LOG_ENV = "ADJUDICATOR_KIOSK_LOG"  # the child's error output (Textual paints on the terminal)
SUPERVISOR_ENV = "ADJUDICATOR_KIOSK_SUPERVISOR"  # the supervisor's pid, in the child
ADMIT_FD_ENV = "ADJUDICATOR_KIOSK_ADMIT_FD"  # the first child reads its log's path there
PR_SET_PDEATHSIG = 1


def hold_errors() -> None:
    """In the child, until child_admitted: what Python says (a traceback of a broken install,
    say) is kept, then written to the log; never to the players' terminal."""
    sys.stderr = io.StringIO()


def child_admitted() -> None:
    """In the child, with the kiosk imported: once the supervisor has read the config (the first
    child waits for its word; a supervisor that refused it kills it meanwhile), Python's error
    output (tracebacks, messages), and what was held until now, goes to the kiosk log.

    Textual paints on sys.__stderr__, the terminal; only sys.stderr is moved.
    """
    admit_fd = os.environ.pop(ADMIT_FD_ENV, "")
    if admit_fd.isdigit():
        with open(int(admit_fd), "rb") as admitted:
            path = admitted.read()
        if not path:  # no word and no kill: the supervisor itself is gone
            raise SystemExit(EXIT_IO)
        os.environ[LOG_ENV] = path.decode("utf-8", "surrogateescape")
    path = os.environ.get(LOG_ENV)
    if not os.environ.get(CHILD_ENV) or not path:
        return
    try:
        log = open(path, "a", encoding="utf-8", errors="replace", buffering=1)
    except OSError:
        return
    held = sys.stderr.getvalue() if isinstance(sys.stderr, io.StringIO) else ""
    log.write(held)
    sys.stderr = log
    import faulthandler

    faulthandler.enable(file=log)


def errors_said() -> None:
    """In a child ending before child_admitted: what it held, to the log (for a first child,
    once the supervisor names it; when it refused the config it kills the child meanwhile)."""
    if not isinstance(sys.stderr, io.StringIO):
        return
    try:
        child_admitted()
    except BaseException:  # noqa: BLE001, S110 - ending anyway; the exit code tells the rest
        pass


def child_ready_callback():
    """In the child: the function to call on first paint (tells the supervisor, and from then
    on dies with it), or None."""
    fd = os.environ.get(READY_FD_ENV)
    supervisor = os.environ.get(SUPERVISOR_ENV, "")
    if not os.environ.get(CHILD_ENV) or not fd:
        return None

    def ready() -> None:
        try:
            os.write(int(fd), b"R")
            os.close(int(fd))
        except (OSError, ValueError):
            pass
        if supervisor.isdigit():
            _die_with_parent(int(supervisor))

    return ready


def _die_with_parent(supervisor: int) -> None:
    """In the child (Linux), once it has painted: killed with its SUPERVISOR, never left running
    on its own. Set after the first paint (ctypes is not imported before it); a supervisor gone
    already by then is seen as a new parent, and the child ends."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    if os.getppid() != supervisor:
        os.kill(os.getpid(), signal.SIGKILL)
