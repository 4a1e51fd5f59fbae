"""What a kiosk supervisor (forked, supervisor/forked.py; spawned, supervisor/spawned.py) says of its child and notes
of a restart: exit codes in words, the real error of a child that could not start, one line;
and the restart loop both run (Restarting)."""

from __future__ import annotations

import signal
import sys
import time

from adjudicator.errors import EXIT_IO

EXIT_CRASHED = 70  # the child's code when the app stopped on an error (EX_SOFTWARE)
START_TRIES = 5  # children in a row that die before their first paint: a fault, not a crash
CLOSED = "the kiosk was closed from director mode"
EXCEPTION_LINE = r"[A-Za-z_][\w.]*(Error|Exception)\b"  # a traceback's last line
STOPPED = {  # why the kiosk ended, as said on stderr
    signal.SIGINT: "interrupted (SIGINT): the kiosk is closed",
    signal.SIGTERM: "stopped by SIGTERM: the kiosk is closed",
}
if sys.platform != "win32":  # (Windows has no SIGHUP)
    STOPPED[signal.SIGHUP] = "the terminal hung up (SIGHUP): the kiosk is closed"


def stopped_by(sig: int) -> str:
    """Why the kiosk ended, when it was signal SIG that ended it."""
    if sig in STOPPED:
        return STOPPED[sig]
    try:
        name = signal.Signals(sig).name
    except ValueError:
        name = f"signal {sig}"
    return f"stopped by {name}: the kiosk is closed"


def describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return "stopped on an error" if code in (1, EXIT_CRASHED) else f"exit status {code}"


def say(message: str) -> None:
    """One `adjudicator:` line on stderr (nothing when the terminal is gone)."""
    try:
        print(f"adjudicator: {' '.join(message.split())}", file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def note_restart(journal_path: str, why: str, log: str) -> None:
    """The restart in the journal (and the kiosk's LOG when the journal cannot take it)."""
    from adjudicator.station.state import load_state, save_state, state_path

    state = state_path(journal_path)
    director = load_state(state).get("director_open")
    detail = why + ("; the director's screen was open: locked again" if director else "")
    if director:
        save_state(state, director_open=False)
    try:
        import os

        from adjudicator.journal import Journal

        from adjudicator.journal.anchor import read_head

        # a lost journal (its head file left, nothing there) is continued by the station, never
        # made here from #1; a folder in its place is never written
        if not os.path.isfile(journal_path) and (os.path.lexists(journal_path)
                                                 or read_head(journal_path) is not None):
            raise OSError(f"no journal file at {journal_path}")
        with Journal.open(journal_path, timeout=5.0) as journal:
            journal.note_event("kiosk restarted", detail)
    except Exception as e:  # noqa: BLE001 - the station judges on; the log says why
        try:
            with open(log, "a", encoding="utf-8") as out:
                print(f"adjudicator: kiosk restarted ({detail}); not journaled: {e}", file=out)
        except OSError:
            pass  # nowhere to say it (read-only or full media): the supervisor carries on


def real_error(log: str, said: int | str) -> str:
    """Why a child ended before its first paint, in one line (its traceback's last): SAID,
    its words held before it knew its log, are written to the LOG (they were lost there:
    issue 27), or the log from offset SAID is read."""
    text = said if isinstance(said, str) else ""
    try:
        if text and log:
            with open(log, "a", encoding="utf-8", errors="replace") as f:
                f.write(text if text.endswith("\n") else text + "\n")
        elif not text and log and isinstance(said, int):
            with open(log, "rb") as f:
                f.seek(said)
                text = f.read().decode("utf-8", "replace")
    except OSError:
        pass
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    import re  # only now: the supervisor's cold start imports nothing it does not need

    errors = [line for line in lines if re.match(EXCEPTION_LINE, line)]  # not "see above"
    return (errors or lines or ["it said nothing"])[-1][:300]


def ended_unpainted(code: int, said: int | str, failed_starts: int, restarts: int,
                    log: str) -> tuple[int, str, int | str | None] | None:
    """A child ended before its first paint: (exit code, what to say, what it said) when the
    supervisor ends with it (a refusal, which said why; START_TRIES failures in a row), None
    when it starts another."""
    if 2 <= code < EXIT_CRASHED:  # refused (config, lexicon, journal): it said why
        return code, "", said
    error = real_error(log, said)  # issue 27: kept in the log, named in the line
    if failed_starts >= START_TRIES:
        return (EXIT_IO, failed_to_start(code, failed_starts, restarts, error, log),
                None if log else said)
    return None


def failed_to_start(code: int, failed_starts: int, restarts: int, error: str, log: str) -> str:
    """The line said when START_TRIES children in a row died before their first paint."""
    where = f"see {log}" if log else "its last words are above"
    # a child painted before these failures (each start counts as a restart)
    again = " again after it stopped" if restarts >= failed_starts else ""
    return (f"the kiosk could not start{again} ({describe_exit(code)}, {failed_starts} times "
            f"in a row): {error}; {where}")


def show_log_from(log: str, offset: int) -> None:
    """What the child said before it could paint (a refusal): to this process's stderr."""
    try:
        with open(log, "rb") as f:
            f.seek(offset)
            write_err(f.read().decode("utf-8", "replace"))
    except OSError:
        pass


def write_err(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def said_at_the_end(log: str, refused: int | str | None, message: str) -> None:
    """What a supervisor says once the terminal is back: what the kiosk said when it refused to
    start (its own words, or its log from that offset), then MESSAGE (why it ended)."""
    if isinstance(refused, str):  # what it said before it knew its log
        write_err(refused)
    elif refused is not None:
        show_log_from(log, refused)
    if message:
        say(message)


class Restarting:
    """The loop of either kiosk supervisor: a child that dies is started again (_run_child
    journals the restart); the director's Quit, a stop signal, or a child that refused or
    failed START_TRIES times before its first paint ends the kiosk. Each supervisor says how it
    runs one child, which exit codes are stop signals, and what it does before each child."""

    restarts = 0  # children started again
    log = ""  # the kiosk log, known once a child has read the config
    stop_signal = 0  # a stop signal the supervisor itself was sent (the forked one)

    def _run_child(self, restart_reason: str) -> tuple[int, bool, int | str]:
        """One child, to its end: (exit code, whether it painted, what it said: the log offset
        it began at, or its words when it ended before it knew its log)."""
        raise NotImplementedError

    def _signal_of(self, code: int) -> int:
        """The stop signal a child's exit CODE says it ended on, else 0."""
        raise NotImplementedError

    def _before_child(self, failed_starts: int) -> None:
        """Before each child (the forked supervisor's imports, once)."""

    def _supervise(self) -> tuple[int, str, int | str | None]:
        """(exit code, what to say, what the kiosk said when it refused to start: the log offset
        to show from, or its own words when it ended before it knew its log; then it never
        took the screen)."""
        failed_starts = 0
        why = ""
        while not self.stop_signal:
            self._before_child(failed_starts)
            code, ready, said = self._run_child(restart_reason=why)
            stop = self.stop_signal or self._signal_of(code)
            if stop:
                return 128 + stop, stopped_by(stop), None
            if code == 0:
                return 0, CLOSED, None
            if not ready:
                failed_starts += 1
                ended = ended_unpainted(code, said, failed_starts, self.restarts, self.log)
                if ended is not None:
                    return ended
                time.sleep(0.2)
            else:
                failed_starts = 0
            why = describe_exit(code)
            self.restarts += 1
        return 128 + self.stop_signal, stopped_by(self.stop_signal), None
