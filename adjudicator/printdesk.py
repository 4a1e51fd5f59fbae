"""The station's print desk: slips from outcomes and journal rows, queued, each outcome journaled.

WESPA 3.11.2(a)(ix): "If docket printers are used to print the results of challenges, the printout
may be returned to the players in lieu of the original challenge slip." Without a printer (or when
a slip cannot be printed) the runner marks the handwritten slip with a single tick or cross
(3.11.2(a)(vii)). The docket package knows paper and wires; the journal knows rows; this module is
the only place the two meet (they never import each other).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from .docket.slip import Slip
from .errors import AdjudicatorError, JournalError
from .rules import ChallengeRule, consequence_under
from .station import NOT_RECORDED, Outcome

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
                recheck_of=outcome.recheck_of, row_hash=outcome.row_hash)


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
        row_hash=str(getattr(row, "hash", "") or "")[:8],
    )


def _slip_time(stamp: str) -> str:
    """'2026-11-22T14:03:12.123456+01:00' -> '2026-11-22 14:03:12' (anything else as it is)."""
    try:
        return datetime.fromisoformat(str(stamp)).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return str(stamp)


def journal_print_status(ok: bool, reprint: bool) -> str:
    """The word Journal.set_print_status expects for a job's outcome."""
    if not ok:
        return "failed"
    return "reprinted" if reprint else "printed"


def reprint_from_journal(journal, seq: int, event: str, queue) -> Slip:
    """Rebuild challenge `seq` from the journal as a REPRINT slip and queue it (never blocks).

    JournalError (unknown number, unreadable journal) reaches the caller unchanged. The queue's
    on_done records the outcome (see journal_on_done).
    """
    slip = slip_from_row(journal.get(seq), event, reprint=True)
    queue.submit(seq, slip)
    return slip


def reprint_and_wait(journal, seq: int, event: str, connection,
                     reprint_hint: str = "run this command again"):
    """Reprint challenge SEQ now, on this thread (the CLI's `printer reprint`); the outcome is
    noted in the journal. Returns the printer's JobResult and the message for the director."""
    from .docket import encode_slip, job_message, print_job

    slip = slip_from_row(journal.get(seq), event, reprint=True)
    result = print_job(connection, encode_slip(slip, connection.columns))
    message = job_message(seq, result, reprint=True, reprint_hint=reprint_hint)
    journal.set_print_status(seq, journal_print_status(result.ok, True),
                             "" if result.ok else message)
    return result, message


def journal_on_done(journal, notify: Notify | None = None):
    """An on_done for PrintQueue that notes each outcome with journal.set_print_status.

    A job for a challenge that already has a print status is a reprint: success is "reprinted".
    The journal is thread-safe; `notify(seq, ok, message)` is then called (still on the worker
    thread: a Textual app hops back with call_from_thread). A journal failure never hides the
    printer's message: it is appended to it.
    """
    def on_done(seq: int, ok: bool, message: str) -> None:
        try:
            before = journal.get(seq).print_status
            journal.set_print_status(seq, journal_print_status(ok, bool(before)),
                                     "" if ok else message)
        except Exception as e:  # JournalError: say so, keep the printer's news
            message = f"{message} (print status not recorded: {e})"
        if notify is not None:
            notify(seq, ok, message)
    return on_done


class PrintDesk:
    """One station's docket printer: a PrintQueue for the printer configured now, made on first
    use and made again when the director changes the printer settings (the old queue finishes
    what it holds). NOTIFY(seq, ok, message) is called on the print worker's thread."""

    def __init__(self, station, notify: Notify | None = None,
                 reprint_hint: str = "press P to reprint"):
        self.station = station
        self.notify = notify
        self.reprint_hint = reprint_hint
        self._queue = None
        self._settings = None

    @property
    def enabled(self) -> bool:
        return self.station.config.printer.enabled

    def queue(self):
        """The PrintQueue for the saved settings; None without a printer. Refused settings raise
        AdjudicatorError (the verdict stands regardless)."""
        from .docket import PrintQueue

        settings = self.station.config.printer
        if not settings.enabled:
            return None
        if self._queue is not None and self._settings != settings:
            self._queue.close(wait=0)
            self._queue = None
        if self._queue is None:
            journal = self.station.journal
            on_done = journal_on_done(journal, self.notify) if journal is not None else (
                self.notify or (lambda *_: None))
            self._queue = PrintQueue(settings, self._noting_state(on_done),
                                     reprint_hint=self.reprint_hint)
            self._settings = settings
        return self._queue

    def _noting_state(self, on_done):
        """ON_DONE, after noting the printer's state for the hub's heartbeat (hub/status.py)."""
        from .hub.status import printer_state

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
            return Note(f"No slip printed: {e}. {by_hand}", error=True)
        if queue is None:
            return Note("")
        if not outcome.recorded:
            return Note(f"No slip printed: {NOT_RECORDED}. {by_hand}", error=True)
        queue.submit(outcome.seq, slip_for(self.station, outcome))
        return Note(f"Printing the slip for challenge #{outcome.seq}...")

    def reprint(self, seq: int | None) -> Note:
        """Challenge SEQ's slip again, rebuilt from the journal and marked REPRINT."""
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
            reprint_from_journal(station.journal, seq, station.config.event, queue)
        except (AdjudicatorError, JournalError) as e:
            return Note(f"Cannot reprint #{seq}: {e}", error=True)
        return Note(f"Reprinting the slip for challenge #{seq}...")

    def close(self, wait: float = 1.0) -> None:
        if self._queue is not None:
            self._queue.close(wait=wait)
            self._queue = None
