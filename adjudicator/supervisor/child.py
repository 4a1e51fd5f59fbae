"""The kiosk child's side of `adjudicator kiosk`'s supervision (adjudicator/supervisor/forked.py): its
reports to the supervisor (its journal, its first paint, its last words), its error output kept
off the players' screen, and its death with the supervisor.

A forked child (Linux, macOS) is given the pipe's write end by number; a spawned one (Windows:
adjudicator/supervisor/spawned.py) by its handle, made a file descriptor here. A child dies with its
supervisor through PR_SET_PDEATHSIG on Linux; elsewhere a thread watches for the supervisor's
end (watch_parent)."""

from __future__ import annotations

import io
import os
import signal
import sys
from collections.abc import Callable  # not typing: the supervisor's cold start imports it

CHILD_ENV = "ADJUDICATOR_KIOSK_CHILD"  # set in the child: run the app itself, unsupervised
REPORT_FD_ENV = "ADJUDICATOR_KIOSK_REPORT_FD"  # the child's reports to its supervisor
SUPERVISOR_ENV = "ADJUDICATOR_KIOSK_SUPERVISOR"  # the supervisor's pid, in the child
# Set: the kiosk is supervised as on Windows (adjudicator/supervisor/spawned.py), wherever it runs (tests)
SPAWN_ENV = "ADJUDICATOR_KIOSK_SPAWN"
# Set in a child started again after one that ran: its journal's trouble (a folder where the
# file was, a drive gone) is said on its screen, never a refusal that ends the station (issue 42)
RESTARTED_ENV = "ADJUDICATOR_KIOSK_RESTARTED"
LOG_SUFFIX = ".kiosk.log"
PR_SET_PDEATHSIG = 1
WATCH_EVERY = 0.25  # seconds between a watching thread's looks at its supervisor (not Linux)
# The reports, in this order: J<log size> <journal path>\n once the config is read, R on the
# first paint; or E<what it said> when it ends before it knew its log.
JOURNAL, READY, SAID = b"J", b"R", b"E"


def hold_errors() -> None:
    """In the child, until child_started: what Python says (a refusal, a broken install's
    traceback) is kept, for the log or the supervisor; never written to the players' terminal."""
    sys.stderr = io.StringIO()


def log_path(journal_path: str) -> str:
    """The kiosk's log beside the journal (its error output: tracebacks go there, never to the
    players' screen); in the temporary folder when the journal has none."""
    if journal_path:
        return str(journal_path) + LOG_SUFFIX
    import tempfile

    return os.path.join(tempfile.gettempdir(), "adjudicator-kiosk.log")


def child_started(journal_path: str) -> None:
    """In the child, with its config read: the supervisor is told its journal; Python's error
    output (tracebacks, messages), and what was held until now, goes to the kiosk log beside it.
    Unsupervised (no supervisor to tell), nothing is done.

    Textual paints on sys.__stderr__, the terminal; only sys.stderr is moved.
    """
    fd = os.environ.get(REPORT_FD_ENV, "")
    if not os.environ.get(CHILD_ENV) or not fd.isdigit():
        return
    path = log_path(journal_path)
    try:
        size = os.path.getsize(path)
    except OSError:
        size = 0
    _report(fd, JOURNAL + f"{size} {journal_path}\n".encode("utf-8", "surrogateescape"))
    try:
        log = open(path, "a", encoding="utf-8", errors="replace", buffering=1)
    except OSError:
        return  # held still: the supervisor is given it if the kiosk cannot start
    held = sys.stderr.getvalue() if isinstance(sys.stderr, io.StringIO) else ""
    log.write(held)
    sys.stderr = log
    import faulthandler

    faulthandler.enable(file=log)


def errors_said() -> None:
    """In a child ending while its output is held (before child_started): what it said, to the
    supervisor, which shows it once the terminal is its own again."""
    if not isinstance(sys.stderr, io.StringIO):
        return
    said = sys.stderr.getvalue()
    fd = os.environ.get(REPORT_FD_ENV, "")
    if said and fd.isdigit():
        _report(fd, SAID + said.encode("utf-8", "replace"))


def child_ready_callback():
    """In the child: the function to call on first paint (tells the supervisor, and from then
    on dies with it), or None."""
    fd = os.environ.get(REPORT_FD_ENV, "")
    supervisor = os.environ.get(SUPERVISOR_ENV, "")
    if not os.environ.get(CHILD_ENV) or not fd.isdigit():
        return None

    def ready() -> None:
        _keep_running()
        _report(fd, READY)
        try:
            os.close(_fd_of(fd))
        except OSError:
            pass
        if supervisor.isdigit():
            _die_with_parent(int(supervisor))

    return ready


class Reports:
    """In the supervisor: a child's reports, read from READ_END as they come."""

    def __init__(self, read_end: int):
        self.fd, self.buffer, self.said = read_end, b"", ""

    def next(self):
        """(log size, journal path), READY, or None at the end (then `said` holds its words)."""
        while True:
            if self.buffer.startswith(READY):
                self.buffer = self.buffer[1:]
                return READY
            if self.buffer.startswith(JOURNAL) and b"\n" in self.buffer:
                line, self.buffer = self.buffer[1:].split(b"\n", 1)
                size, _, path = line.decode("utf-8", "surrogateescape").partition(" ")
                return (int(size) if size.isdigit() else 0), path
            chunk = os.read(self.fd, 65536)
            if not chunk:
                if self.buffer.startswith(SAID):
                    self.said = self.buffer[1:].decode("utf-8", "replace")
                return None
            self.buffer += chunk


def _keep_running() -> None:
    """In the child, from its first paint: SIGTSTP and SIGTTIN (`kill -TSTP`) no longer stop it
    (Textual's own SIGTSTP handler leaves application mode and stops the process; its SIGTTIN
    and SIGTTOU are back to stopping it once it has started): the kiosk is never frozen."""
    if sys.platform == "win32":  # no job control: nothing stops a console process
        return
    try:
        for sig in (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU):
            signal.signal(sig, signal.SIG_IGN)
    except ValueError:  # not the main thread: the supervisor continues a stopped child
        pass


_FDS: dict[str, int] = {}  # the report handle (Windows) as a file descriptor, made once


def _fd_of(value: str) -> int:
    """The file descriptor the environment's VALUE names: on Windows the pipe's handle, which
    the spawned child inherited, opened as one; elsewhere the number itself."""
    if sys.platform == "win32":
        if value not in _FDS:
            import msvcrt

            _FDS[value] = msvcrt.open_osfhandle(int(value), os.O_WRONLY)
        return _FDS[value]
    return int(value)


def _report(fd: str, data: bytes) -> None:
    try:
        os.write(_fd_of(fd), data)
    except OSError:  # the supervisor is gone: the child is being killed with it
        pass


def _die_with_parent(supervisor: int) -> None:
    """In the child, once it has painted: killed with its SUPERVISOR, never left running on its
    own. On Linux set after the first paint (ctypes is not imported before it); a supervisor
    gone already by then is seen as a new parent, and the child ends. Elsewhere a thread
    watches (watch_parent)."""
    if sys.platform == "linux":
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
        if os.getppid() != supervisor:
            os.kill(os.getpid(), signal.SIGKILL)
    else:
        watch_parent(supervisor)


def parent_gone(supervisor: int) -> Callable[[], bool]:
    """A test of whether SUPERVISOR has ended: on Windows its process handle, signalled;
    elsewhere (macOS) the child given to another parent (launchd) once its own has ended."""
    if sys.platform == "win32":
        import ctypes
        from ctypes import wintypes

        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        kernel32.OpenProcess.restype = wintypes.HANDLE  # not an int: a 64-bit handle
        kernel32.OpenProcess.argtypes = (wintypes.DWORD, wintypes.BOOL, wintypes.DWORD)
        kernel32.WaitForSingleObject.argtypes = (wintypes.HANDLE, wintypes.DWORD)
        handle = kernel32.OpenProcess(0x00100000, False, supervisor)  # SYNCHRONIZE
        if not handle:
            return lambda: True  # gone already (or never ours to wait on)
        return lambda: kernel32.WaitForSingleObject(handle, 0) == 0  # WAIT_OBJECT_0
    return lambda: os.getppid() != supervisor


def end_now() -> None:
    """This child, ended at once, as its supervisor has (the terminal is the supervisor's)."""
    if sys.platform == "win32":
        os._exit(1)
    os.kill(os.getpid(), signal.SIGKILL)


def watch_parent(supervisor: int, gone: Callable[[], bool] | None = None,
                 end: Callable[[], None] = end_now, every: float = WATCH_EVERY):
    """A daemon thread (returned, started) that ENDs this child once GONE() says its SUPERVISOR
    has ended, looked at every EVERY seconds: where no signal comes with a parent's death
    (macOS, Windows). Imported only here: the supervisor starts no thread."""
    import threading
    import time

    gone = gone or parent_gone(supervisor)

    def watch() -> None:
        while not gone():
            time.sleep(every)
        end()

    thread = threading.Thread(target=watch, name="adjudicator-supervisor-watch", daemon=True)
    thread.start()
    return thread


class ChildRun:
    """`with ChildRun(held) as child: child.code = main()`: MAIN run in this process as the kiosk
    child. HELD (a spawned child, adjudicator/supervisor/spawned.py): run as a forked child is (its output
    held until it knows its log; a refusal said; a crash's traceback kept off the terminal), and
    child.code is its exit code whatever ended it. Not held (the app run unsupervised): nothing is
    done; what ends it goes on to its caller."""

    def __init__(self, held: bool) -> None:
        self.held = held
        self.code = 0

    def __enter__(self) -> ChildRun:
        if self.held:
            if sys.platform == "win32":  # Ctrl-Break held from the start (Ctrl-C: the console's)
                signal.signal(signal.SIGBREAK, signal.SIG_IGN)
            hold_errors()
        return self

    def __exit__(self, _kind, error, _traceback) -> bool:
        if not self.held:
            return False
        try:
            if error is not None:
                self.code = exit_code_of(error)
        finally:
            errors_said()
        return True  # its end is its code, for its supervisor: nothing is raised past it


def child_code(main: Callable[[], int]) -> int:
    """MAIN run in a kiosk child, its exit code as the supervisor reads it (exit_code_of)."""
    try:
        return main()
    except BaseException as e:  # noqa: BLE001 - every end of a child is a code for its supervisor
        return exit_code_of(e)


def exit_code_of(error: BaseException) -> int:
    """The exit code of a kiosk child that ERROR ended: a refusal before the first paint said,
    with its code; a SystemExit's code; a crash's traceback to the log, EXIT_CRASHED (started
    again)."""
    from adjudicator.errors import EXIT_IO, AdjudicatorError
    from adjudicator.supervisor.restarts import EXIT_CRASHED, say

    if isinstance(error, AdjudicatorError):  # refused before the first paint: it says why
        say(str(error))
        return error.exit_code
    if isinstance(error, SystemExit):
        code = error.code
        return code if isinstance(code, int) else (0 if code is None else EXIT_IO)
    import traceback

    traceback.print_exception(type(error), error, error.__traceback__)
    return EXIT_CRASHED
