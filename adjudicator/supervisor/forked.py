"""`adjudicator kiosk` runs its kiosk as a forked child, starts it again on Ready if it dies, and
puts the terminal back however the kiosk ends.

Each child is forked from the supervisor: no second interpreter starts (issue 21: that made the
cold start 1.3x a bare Textual app's). The first child is forked before anything big is imported
and imports the kiosk itself, so its cold start pays no copy-on-write faults (forked from a
supervisor holding Textual, the child's first paint took 10 ms longer: each page it touched was
copied). The child reads the config and tells the supervisor its journal, and so where its log
is (adjudicator/supervisor/child.py); the supervisor reads nothing meanwhile (reading the config
too, in parallel, made the cold start 1.24x a bare app's on a busy machine, against 1.09x).
Once that child has painted, the supervisor imports what the kiosk needs
(launch.preload_kiosk) while the players look at Ready: a restarted child is forked with it all
imported and paints at once. Nothing that must not cross a fork is open in the supervisor when
it forks: no thread runs in it, the journal (SQLite) is opened only by the child or briefly to
note a restart, the lexicon is mapped only by the child.

The child's error output goes to the kiosk log beside the journal (child.py's log_path): a
traceback never reaches the players' screen. Each restart is noted in the journal
(Journal.note_event). A child that never painted (a refused config, lexicon or journal) is not
restarted: its message is shown and its exit code passed on, as without supervision.

SIGTERM, SIGHUP and SIGINT, to the supervisor or to the child, end the kiosk: the child ends its
app as the director's Quit does, the supervisor waits STOP_GRACE seconds for it (then kills it),
puts the terminal back (tty_restore), says why in one `adjudicator:` line and exits 128 + the
signal's number (130 for SIGINT, 129 for SIGHUP, 143 for SIGTERM). Every other signal that would
end the supervisor and can be caught (SIGQUIT, SIGUSR1, SIGUSR2, SIGABRT, the real-time ones...)
ends the kiosk the same way (the child is sent SIGTERM): only SIGKILL leaves the terminal as the
kiosk had it. (SIGSEGV, SIGBUS, SIGILL and SIGFPE keep their default action: caught in Python, a
real fault would repeat forever and hang the supervisor.) A child killed any other way (SIGKILL,
a crash) is started again.

The tty stays in the kiosk's raw mode (tty_restore.SavedTerminal.lock) from before the first
child until the last has ended: Ctrl-C, Ctrl-Z and Ctrl-\\ are keys, never signals, also while a
child restarts. A child is never left stopped: the supervisor ignores SIGTSTP, SIGTTIN and
SIGTTOU; a child ignores them once it has painted (supervised.child_ready_callback), and one
stopped all the same (before its first paint, or by SIGSTOP) is continued (SIGCONT) at once.

POSIX only (Linux, macOS): Windows has no fork, and its kiosk runs under supervisor/spawned.py. On Linux a
stopped child is found with waitid(WSTOPPED | WNOHANG), which leaves an ended one to
_run_child; the first child's wait after its paint is on a pidfd; the real-time signals end the
kiosk too. macOS has neither waitid nor pidfd_open nor real-time signals: there (`portable`,
which a test sets on Linux) the SIGCHLD handler asks waitpid(WUNTRACED|WNOHANG), which may reap
a child that ended, kept for _run_child; the wait after the paint is PREPARE_AFTER's time.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from collections.abc import Callable  # not typing: nothing the child imports itself is imported

if sys.platform == "win32":
    raise ImportError("adjudicator.supervisor.forked forks its kiosk child: on Windows, adjudicator.supervisor.spawned")

from adjudicator.errors import EXIT_IO, AdjudicatorError
from adjudicator.supervisor.restarts import (CLOSED, EXIT_CRASHED, START_TRIES, Restarting, describe_exit,
                       note_restart, said_at_the_end, stopped_by)
from adjudicator.supervisor.child import (CHILD_ENV, READY, REPORT_FD_ENV, RESTARTED_ENV,
                                          SUPERVISOR_ENV, Reports, child_code, errors_said,
                                          hold_errors, log_path)
from adjudicator.supervisor.tty_restore import SavedTerminal

__all__ = ["CLOSED", "EXIT_CRASHED", "START_TRIES", "Supervisor", "describe_exit", "note_restart",
           "stop_signal_of", "stopped_by"]
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
STOP_GRACE = 3  # seconds a child has to end its app after a stop signal, before SIGKILL
PREPARE_AFTER = 0.5  # seconds from the first child's first paint to the supervisor's imports
# Every other catchable signal whose default action would end the supervisor: it ends the kiosk
# as a stop signal does, with the terminal put back.
_FAULTS = {"SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE"}  # synchronous: left to their default
_OTHERS = ("SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGABRT", "SIGTRAP", "SIGSYS", "SIGXCPU",
           "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGIO", "SIGPWR", "SIGSTKFLT")
ENDING_SIGNALS = STOP_SIGNALS + tuple(
    getattr(signal, name) for name in _OTHERS if hasattr(signal, name))
if sys.platform == "linux":  # the real-time signals (macOS has none)
    ENDING_SIGNALS += tuple(range(signal.SIGRTMIN, signal.SIGRTMAX + 1))
JOB_SIGNALS = (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU)  # would stop a process
def stop_signal_of(code: int) -> int:
    """The stop signal a child's exit code says it ended on (killed by, or its app ended on,
    128 + the signal), else 0."""
    for sig in STOP_SIGNALS:
        if code in (-sig, 128 + sig):
            return sig
    return 0


class Supervisor(Restarting):
    """Forks the kiosk child again and again until it ends normally (or cannot start).

    CHILD_MAIN runs the kiosk in a forked child and returns its exit code; the child reads the
    config and tells the supervisor its journal (supervised.child_started). CHECK reads the
    config in here only when no child can be forked (a thread runs), so that its mistake is
    named first. PREPARE runs once, after the first child's first paint or else before the
    next fork (the imports every later child shares).
    """

    def __init__(self, child_main: Callable[[], int], check: Callable[[], None] | None = None,
                 prepare: Callable[[], None] | None = None):
        self.child_main = child_main
        self.check = check
        self.prepare = prepare
        self.journal_path = self.log = ""  # known once a child has read the config
        self.child_pid = 0
        self.stop_signal = 0
        self.restarts = 0
        self.terminal = SavedTerminal()
        # macOS's way (no waitid, no pidfd); a test sets it on Linux
        self.portable = sys.platform != "linux"
        self.reaped: int | None = None  # its wait status, when the SIGCHLD handler reaped it

    def _stop(self, signum, _frame) -> None:
        self.stop_signal = self.stop_signal or signum
        if self.child_pid:
            # It ends its app and puts the terminal back itself: a stop signal as it is, any
            # other as SIGTERM (SIGQUIT or SIGUSR1 would kill it at once, unrestored).
            self._signal_child(signum if signum in STOP_SIGNALS else signal.SIGTERM)
            signal.alarm(STOP_GRACE)

    def _child_changed(self, _signum, _frame) -> None:
        """SIGCHLD: a child that was stopped (SIGTSTP or SIGTTIN before its first paint, or
        SIGSTOP) is continued at once; the kiosk never stays frozen. Its end is waited for in
        _run_child."""
        if not self.child_pid:
            return
        if sys.platform == "linux" and not self.portable:
            try:
                stopped = os.waitid(os.P_PID, self.child_pid, os.WSTOPPED | os.WNOHANG)
            except ChildProcessError:
                return
            if stopped is not None and not self.stop_signal:  # a hung child is killed, not woken
                self._signal_child(signal.SIGCONT)
        else:  # no waitid (macOS): a child that ended is reaped here, its status kept
            try:
                pid, status = os.waitpid(self.child_pid, os.WUNTRACED | os.WNOHANG)
            except ChildProcessError:
                return
            if pid and not os.WIFSTOPPED(status):
                self.reaped = status
            elif pid and not self.stop_signal:
                self._signal_child(signal.SIGCONT)

    def _reap(self, pid: int) -> int:
        """PID's wait status once it has ended (the SIGCHLD handler may have reaped it)."""
        while self.reaped is None:
            try:
                return os.waitpid(pid, 0)[1]
            except ChildProcessError:
                if self.reaped is None:
                    raise
        status, self.reaped = self.reaped, None
        return status

    def _overdue(self, _signum, _frame) -> None:
        if self.child_pid:
            self._signal_child(signal.SIGKILL)  # hung: the supervisor restores the terminal

    def _signal_child(self, signum: int) -> None:
        try:
            os.kill(self.child_pid, signum)  # our own child, by its pid
        except ProcessLookupError:
            pass

    def run(self) -> int:
        """Supervise until the kiosk ends; the terminal put back; the exit code."""
        handlers = {sig: signal.signal(sig, self._stop) for sig in ENDING_SIGNALS}
        handlers[signal.SIGALRM] = signal.signal(signal.SIGALRM, self._overdue)
        handlers[signal.SIGCHLD] = signal.signal(signal.SIGCHLD, self._child_changed)
        handlers.update({sig: signal.signal(sig, signal.SIG_IGN) for sig in JOB_SIGNALS})
        code, message, refused = EXIT_IO, "", None
        try:
            self.terminal.lock()  # raw from the first child to the last: no signal keys
            code, message, refused = self._supervise()
        finally:
            signal.alarm(0)
            if self.child_pid:  # the supervisor itself failed: its child goes with it
                self._signal_child(signal.SIGKILL)
                self._reap(self.child_pid)
                self.child_pid = 0
            if refused is None and self.log:
                self.terminal.restore()
            else:  # it never took the screen: a screen reset would only move the cursor
                self.terminal.restore_mode()
            for sig, handler in handlers.items():
                signal.signal(sig, handler)
        said_at_the_end(self.log, refused, message)
        return code

    def _before_child(self, failed_starts: int) -> None:
        if self.restarts or failed_starts:
            self._prepare()  # not done yet if the first child never painted

    def _signal_of(self, code: int) -> int:
        return stop_signal_of(code)

    def _run_child(self, restart_reason: str) -> tuple[int, bool, int | str]:
        """One child, to its end: (exit code, whether it painted, the log offset it began at or,
        when it ended before it knew its log, what it said)."""
        self.terminal.lock()  # as a child that ended on its own may have left it: raw
        threading = sys.modules.get("threading")  # never imported: no thread was started
        if threading and threading.active_count() > 1:  # a fork copies their locks, held
            if self.check is not None and not self.log:
                self.check()  # a mistake in the config is named first
            raise AdjudicatorError("cannot start the kiosk: the supervisor runs a thread")
        read_end, write_end = os.pipe()
        supervisor = os.getpid()
        self.reaped = None
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, (*ENDING_SIGNALS, signal.SIGCHLD))
        try:
            pid = os.fork()
        except OSError as e:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            os.close(read_end)
            os.close(write_end)
            raise AdjudicatorError(f"cannot start the kiosk: {e.strerror}") from None
        if pid == 0:
            self._child(read_end, write_end, mask, supervisor)  # never returns
        self.child_pid = pid
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # one that came meanwhile: forwarded
        os.close(write_end)
        try:
            if restart_reason:  # the new child is starting meanwhile: Ready comes first
                note_restart(self.journal_path, restart_reason, self.log)
            reports = Reports(read_end)
            journal = reports.next()  # (the log's size before the child wrote there, journal)
            if journal is not None:  # the child has read the config (None: it ended first)
                self.journal_path = journal[1]
                self.log = log_path(self.journal_path)
            ready = journal is not None and reports.next() == READY
        finally:
            os.close(read_end)
        if ready and self.prepare is not None:
            # While the players look at Ready, once its paint is out and the child's own work
            # after it is done (the journal opened, the fonts loaded): imported here, the next
            # child paints at once. Done at once, it held up the first paint's last bytes.
            self._wait_for_child(PREPARE_AFTER)
            if not self.stop_signal:  # not while the kiosk is being stopped
                self._prepare()
        status = self._reap(pid)
        self.child_pid = 0
        signal.alarm(0)
        refusal = reports.said or (journal[0] if journal is not None else "")
        return os.waitstatus_to_exitcode(status), ready, refusal

    def _wait_for_child(self, seconds: float) -> None:
        """Until the child ends or SECONDS have passed (signals are handled meanwhile)."""
        if sys.platform != "linux" or self.portable:  # no pidfd (macOS): the time only
            time.sleep(seconds)
            return
        try:
            pidfd = os.pidfd_open(self.child_pid)
        except (AttributeError, OSError):  # not Linux 5.3 or later: the time only
            time.sleep(seconds)
            return
        try:
            select.select([pidfd], [], [], seconds)
        finally:
            os.close(pidfd)

    def _prepare(self) -> None:
        """Run PREPARE once. Should it fail, later children import what they need themselves."""
        prepare, self.prepare = self.prepare, None
        if prepare is None:
            return
        try:
            prepare()
        except Exception as e:  # noqa: BLE001 - the kiosk runs on; the log says why
            try:
                with open(self.log, "a", encoding="utf-8") as log:
                    print(f"adjudicator: kiosk restarts will start slower: {e!r}", file=log)
            except OSError:
                pass

    def _child(self, read_end: int, write_end: int, mask, supervisor: int) -> None:
        """In the forked child: run the kiosk, then end this process with its code."""
        code = EXIT_CRASHED
        try:
            # The supervisor's handlers are not the child's. SIGTSTP, SIGTTIN and SIGTTOU stay
            # ignored until Textual sets its own (then child_ready_callback ignores them again).
            for sig in (*ENDING_SIGNALS, signal.SIGALRM, signal.SIGCHLD):
                signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            os.close(read_end)
            os.environ.update({CHILD_ENV: "1", REPORT_FD_ENV: str(write_end),
                               SUPERVISOR_ENV: str(supervisor)})
            if self.restarts:
                os.environ[RESTARTED_ENV] = "1"
            hold_errors()  # to the log (child_started), never to the players' terminal
            code = child_code(self.child_main)
        except BaseException:  # noqa: BLE001 - the traceback to the log, the code to the supervisor
            import traceback

            traceback.print_exc()
        finally:
            errors_said()  # a child that ends before child_started: to the supervisor
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except Exception:  # noqa: BLE001, S110 - ending anyway
                    pass
            os._exit(code)
