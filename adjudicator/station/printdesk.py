"""The station's print desk: slips from outcomes and journal rows, queued, each outcome journaled.

WESPA 3.11.2(a)(ix): "If docket printers are used to print the results of challenges, the printout
may be returned to the players in lieu of the original challenge slip." Without a printer (or when
a slip cannot be printed) the runner marks the handwritten slip with a single tick or cross
(3.11.2(a)(vii)). The docket package knows paper and wires; the journal knows rows; this module is
the only place the two meet (they never import each other).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from adjudicator.docket.slip import Slip
from adjudicator.errors import AdjudicatorError, JournalError
from adjudicator.lexicon.known import LexiconIdentity, identify
from adjudicator.judging.rules import ChallengeRule, consequence_under
from adjudicator.station.service import NOT_RECORDED, Outcome

Notify = Callable[[int, bool, str], None]
HAND_MARK = {True: "a single TICK", False: "a single CROSS"}


@dataclass(frozen=True)
class Note:
    """What the desk says after a print request: shown beside the verdict, never instead of it."""

    text: str
    error: bool = False


def slip_for(station, outcome: Outcome) -> Slip:
    """The slip of a just-judged OUTCOME (its table and round, recheck and lexicon)."""
    v = outcome.verdict
    return Slip(event=station.config.event, station=station.station_name, number=outcome.seq,
                time=f"{outcome.time:%Y-%m-%d %H:%M:%S}", words=v.words,
                acceptable=v.acceptable, consequence=outcome.consequence,
                lexicon_name=v.lexicon.name, short_fingerprint=v.lexicon.short_fingerprint,
                table=outcome.table or None, round=outcome.round or None,
                recheck_of=outcome.recheck_of, lexicon_warning=v.lexicon.warning,
                row_hash=outcome.row_hash)


def lexicon_warning(name: str, fingerprint: str) -> str:
    """The warning for a journal row's list: unrecognised, or not for tournaments ("" if fit)."""
    fingerprint = str(fingerprint or "")
    return LexiconIdentity(str(name), fingerprint, 0, identify(fingerprint)).warning


def slip_from_row(row, event: str, consequence: str | None = None, *, reprint: bool = False,
                  rule: str | ChallengeRule | None = None) -> Slip:
    """The slip for a journal row (adjudicator.journal.JournalRow); reprint=True marks it REPRINT.

    The consequence is worked out from the rule recorded with the row (or `rule`, when given)
    unless passed in as text. The slip shows the local time the journal recorded.
    """
    if consequence is None:
        consequence = consequence_under(rule if rule is not None else row.rule, row.acceptable,
                                      len(row.words))
    return Slip(
        event=event,
        station=row.station,
        number=int(row.seq),
        time=_slip_time(row.time_local or row.time_utc or ""),
        words=tuple(row.words),
        acceptable=bool(row.acceptable),
        consequence=consequence,
        lexicon_name=row.lexicon_name,
        short_fingerprint=str(row.fingerprint or "")[:12],
        table=row.table,
        round=row.round,
        recheck_of=row.recheck_of,
        reprint=reprint,
        lexicon_warning=lexicon_warning(row.lexicon_name, row.fingerprint),
        row_hash=str(getattr(row, "hash", "") or "")[:8],
    )


def _slip_time(stamp: str) -> str:
    """'2026-11-22T14:03:12.123456+01:00' -> '2026-11-22 14:03:12' (anything else as it is)."""
    try:
        return datetime.fromisoformat(str(stamp)).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return str(stamp)


PRINTED = ("printed", "reprinted")


def printed_before(journal, row) -> bool:
    """True once a slip of this challenge came out of the printer: only then is another a REPRINT.

    A slip that never printed (failed, or never tried) prints as the original when it finally
    does, and the journal says printed, not reprinted (issue 11). A reprint that failed after
    an original came out does not make the next one the original: the journal's print log is
    asked, not only the latest status.
    """
    ever = getattr(journal, "slip_printed", None)
    if ever is not None:
        return ever(row.seq)
    return getattr(row, "print_status", "") in PRINTED


def journal_print_status(ok: bool, reprint: bool) -> str:
    """The word Journal.set_print_status expects for a job's outcome."""
    if not ok:
        return "failed"
    return "reprinted" if reprint else "printed"


def reprint_from_journal(journal, seq: int, event: str, queue) -> Slip:
    """Rebuild challenge `seq` from the journal and queue its slip (never blocks): marked REPRINT
    only when a slip of it was printed before (printed_before).

    JournalError (unknown number, unreadable journal) reaches the caller unchanged. The queue's
    on_done records the outcome (see journal_on_done).
    """
    row = journal.get(seq)
    slip = slip_from_row(row, event, reprint=printed_before(journal, row))
    queue.submit(seq, slip)
    return slip


def reprint_and_wait(journal, seq: int, event: str, connection,
                     reprint_hint: str = "run this command again"):
    """Reprint challenge SEQ now, on this thread (the CLI's `printer reprint`); the outcome is
    noted in the journal. Returns the printer's JobResult and the message for the director."""
    from adjudicator.docket import encode_slip, job_message, print_job

    row = journal.get(seq)
    again = printed_before(journal, row)
    slip = slip_from_row(row, event, reprint=again)
    result = print_job(connection, encode_slip(slip, connection.columns))
    message = job_message(seq, result, reprint=again, reprint_hint=reprint_hint)
    journal.set_print_status(seq, journal_print_status(result.ok, again),
                             "" if result.ok else message)
    return result, message


def journal_on_done(journal, notify: Notify | None = None):
    """An on_done for PrintQueue that notes each outcome with journal.set_print_status.

    A job for a challenge whose slip was printed before is a reprint: success is "reprinted"; the
    first slip that comes out (even after failures) is "printed".
    The journal is thread-safe; `notify(seq, ok, message)` is then called (still on the worker
    thread: a Textual app hops back with call_from_thread). A journal failure never hides the
    printer's message: it is appended to it.
    """
    def on_done(seq: int, ok: bool, message: str) -> None:
        try:
            again = printed_before(journal, journal.get(seq))
            journal.set_print_status(seq, journal_print_status(ok, again), "" if ok else message)
        except Exception as e:  # JournalError: say so, keep the printer's news
            message = f"{message} (print status not recorded: {e})"
        if notify is not None:
            notify(seq, ok, message)
    return on_done


@dataclass(frozen=True)
class Unprinted:
    """A recorded challenge whose slip has not come out of the printer yet, and why."""

    seq: int
    reason: str
    table: str = ""
    round: str = ""


class PrintDesk:
    """One station's docket printer: a PrintQueue for the printer configured now, made on first
    use and made again when the director changes the printer settings (the old queue finishes
    what it holds). NOTIFY(seq, ok, message) is called on the print worker's thread.

    It keeps the list of every slip not printed (unprinted()): each failed job joins it, each
    slip that comes out leaves it; at first use it is read from the journal (status failed), so
    a restart forgets none.
    """

    def __init__(self, station, notify: Notify | None = None,
                 reprint_hint: str = "press P to reprint"):
        self.station = station
        self.notify = notify
        self.reprint_hint = reprint_hint
        self._queue = None
        self._settings = None
        self._lock = threading.Lock()
        self._unprinted: dict[int, Unprinted] | None = None

    @property
    def enabled(self) -> bool:
        return self.station.config.printer.enabled

    # -- the slips not printed ---------------------------------------------------------------

    def unprinted(self) -> list[Unprinted]:
        """Every slip not printed, oldest first."""
        with self._lock:
            return sorted(self._pending().values(), key=lambda u: u.seq)

    def _pending(self) -> dict[int, Unprinted]:
        """(lock held) The list, read from the journal the first time."""
        if self._unprinted is None:
            self._unprinted = {}
            journal = self.station.journal
            if journal is not None:
                try:
                    for row in journal.rows():
                        if row.print_status == "failed":
                            self._unprinted[int(row.seq)] = Unprinted(
                                int(row.seq), row.print_reason or "not printed",
                                row.table or "", row.round or "")
                except (AdjudicatorError, JournalError):
                    pass  # an unreadable journal: the list starts empty, failures still join
        return self._unprinted

    def _note(self, seq: int, ok: bool, reason: str, place: tuple[str, str] | None = None) -> None:
        with self._lock:
            pending = self._pending()
            if ok:
                pending.pop(seq, None)
            else:
                old = pending.get(seq)
                table, round_ = place or ((old.table, old.round) if old else self._place(seq))
                pending[seq] = Unprinted(seq, reason, table, round_)

    def _place(self, seq: int) -> tuple[str, str]:
        try:
            row = self.station.journal.get(seq)
            return row.table or "", row.round or ""
        except Exception:  # JournalError, no journal: the list shows the number alone
            return "", ""

    def _done(self, seq: int, ok: bool, message: str) -> None:
        """The print worker's report: the list first, then whoever listens."""
        self._note(seq, ok, message)
        if self.notify is not None:
            self.notify(seq, ok, message)

    # -- printing ----------------------------------------------------------------------------

    def queue(self):
        """The PrintQueue for the saved settings; None without a printer. Refused settings raise
        AdjudicatorError (the verdict stands regardless)."""
        from adjudicator.docket import PrintQueue

        settings = self.station.config.printer
        if not settings.enabled:
            return None
        if self._queue is not None and self._settings != settings:
            self._queue.close(wait=0)
            self._queue = None
        if self._queue is None:
            journal = self.station.journal
            on_done = journal_on_done(journal, self._done) if journal is not None else self._done
            self._queue = PrintQueue(settings, self._noting_state(on_done),
                                      reprint_hint=self.reprint_hint)
            self._settings = settings
        return self._queue

    def _noting_state(self, on_done):
        """ON_DONE, after noting the printer's state for the hub's heartbeat (link/status.py)."""
        from adjudicator.link.status import printer_state

        def noted(seq: int, ok: bool, message: str) -> None:
            self.station.printer_state = printer_state(ok, message)
            on_done(seq, ok, message)
        return noted

    def print_outcome(self, outcome: Outcome) -> Note:
        """Queue OUTCOME's slip (never waits for paper); what to tell the adjudicator now."""
        by_hand = f"Mark the handwritten slip with {HAND_MARK[outcome.verdict.acceptable]}."
        try:
            queue = self.queue()
        except AdjudicatorError as e:  # printer settings refused
            if outcome.recorded:
                self._failed(outcome, f"printer settings refused: {e}")
            return Note(f"No slip printed: {e}. {by_hand}", error=True)
        if queue is None:
            return Note("")
        if not outcome.recorded:
            return Note(f"No slip printed: {NOT_RECORDED}. {by_hand}", error=True)
        queue.submit(outcome.seq, slip_for(self.station, outcome))
        return Note(f"Printing the slip for challenge #{outcome.seq}...")

    def _failed(self, outcome: Outcome, reason: str) -> None:
        """A slip that could not even be queued: on the list, and failed in the journal."""
        self._note(outcome.seq, False, reason, (outcome.table or "", outcome.round or ""))
        journal = self.station.journal
        if journal is not None:
            try:
                journal.set_print_status(outcome.seq, "failed", reason)
            except (AdjudicatorError, JournalError):
                pass

    def reprint(self, seq: int | None) -> Note:
        """Challenge SEQ's slip again, rebuilt from the journal; marked REPRINT only when a slip
        of it was printed before (else it is the first, printed as the original)."""
        station = self.station
        try:
            queue = self.queue()
        except AdjudicatorError as e:
            return Note(f"Cannot reprint: {e}", error=True)
        if queue is None:
            return Note("No printer is configured: nothing to reprint.", error=True)
        if seq is None:
            return Note("No slip to reprint yet.", error=True)
        if station.journal is None:
            return Note(f"Cannot reprint: the journal is not available "
                        f"({station.journal_problem}).", error=True)
        try:
            slip = reprint_from_journal(station.journal, seq, station.config.event, queue)
        except (AdjudicatorError, JournalError) as e:
            return Note(f"Cannot reprint #{seq}: {e}", error=True)
        if slip.reprint:
            return Note(f"Reprinting the slip for challenge #{seq}...")
        return Note(f"Printing the slip for challenge #{seq}...")

    def reprint_unprinted(self, last: int | None = None) -> Note:
        """Every slip not printed, oldest first; with none waiting, LAST's slip again."""
        waiting = [u.seq for u in self.unprinted()]
        if not waiting:
            return self.reprint(last)
        notes = [self.reprint(seq) for seq in waiting]
        errors = [n for n in notes if n.error]
        if errors:
            return errors[0]
        numbers = ", ".join(f"#{seq}" for seq in waiting)
        return Note(f"Printing the slips not printed: {numbers}...")

    def close(self, wait: float = 1.0) -> None:
        if self._queue is not None:
            self._queue.close(wait=wait)
            self._queue = None
