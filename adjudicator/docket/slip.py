"""What a result slip says (WESPA 3.11.2(a)(ix)): the Slip, and building one from the journal."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from datetime import datetime

from ..rules import ChallengeRule, consequence as rule_consequence

# Characters with no code page 437 glyph and no decomposition, spelled the way a person would.
_SPELLED = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00b4": "'", "\u2032": "'",
    "\u2013": "-", "\u2014": "-", "\u2010": "-", "\u2011": "-", "\u2212": "-",
    "\u2026": "...", "\u00a9": "(C)", "\u00ae": "(R)", "\u2122": "TM", "\u20ac": "EUR",
    "\u0141": "L", "\u0142": "l", "\u00d8": "O", "\u00f8": "o", "\u0110": "D", "\u0111": "d",
    "\u00de": "Th", "\u00fe": "th", "\u00d0": "D", "\u00f0": "d", "\u0152": "OE", "\u0153": "oe",
    "\u0131": "i", "\u00d7": "x",
}


def _cp437_ok(char: str) -> bool:
    """A printable character the printer shows as itself under code page 437 (ESC t 0)."""
    if ord(char) < 0x20 or ord(char) == 0x7F:
        return False
    try:
        char.encode("cp437")
    except UnicodeEncodeError:
        return False
    return True


def printable(text: str) -> str:
    """Text a code page 437 printer shows as written, never a control code.

    Characters with a CP437 glyph (A-Z, digits, e-acute, u-umlaut, ...) are kept. Others are
    transliterated: accents dropped by Unicode decomposition ("Łódź" -> "Lodz"), typographic quotes
    and dashes spelled in ASCII; what is left becomes '?'. Tabs and newlines become spaces and other
    control characters '?', so a name can never smuggle an ESC/POS command onto the wire.
    """
    out: list[str] = []
    for char in str(text):
        if _cp437_ok(char):
            out.append(char)
        elif char in "\t\n\r\f\v":
            out.append(" ")
        elif char in _SPELLED:
            out.append(_SPELLED[char])
        else:
            base = [c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)]
            if base and all(_cp437_ok(c) for c in base):
                out.extend(base)
            else:
                out.append("?")
    return "".join(out)


@dataclass(frozen=True)
class Slip:
    """One challenge's printed result: the play as a whole, never a word on its own."""

    event: str
    station: str
    number: int
    time: str
    words: tuple[str, ...]
    acceptable: bool
    consequence: str
    lexicon_name: str
    short_fingerprint: str
    table: str | None = None
    round: str | None = None
    recheck_of: int | None = None
    reprint: bool = False
    # A test slip (`adjudicator printer test`) says NOT A VERDICT and shows both marks.
    test: bool = field(default=False, compare=False)

    @property
    def verdict_word(self) -> str:
        return "ACCEPTABLE" if self.acceptable else "UNACCEPTABLE"


def consequence_for(rule: str | ChallengeRule | None, acceptable: bool, word_count: int) -> str:
    """The consequence under the event's rule (adjudicator.rules.consequence); '' when unknown."""
    if rule is None or rule == "":
        if not acceptable:  # the same under every rule (WESPA 3.10.13)
            return rule_consequence(ChallengeRule.FREE, False, word_count)
        return ""
    if not isinstance(rule, ChallengeRule):
        rule = ChallengeRule.parse(rule)
    return rule_consequence(rule, acceptable, word_count)


def slip_from_row(row, event: str, consequence: str | None = None, *, reprint: bool = False,
                  rule: str | ChallengeRule | None = None) -> Slip:
    """The slip for a journal row (adjudicator.journal.JournalRow); reprint=True marks it REPRINT.

    The consequence is worked out from the rule recorded with the row (or `rule`, when given)
    unless passed in as text. The slip shows the local time the journal recorded.
    """
    if consequence is None:
        consequence = consequence_for(rule if rule is not None else row.rule, row.acceptable,
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


def journal_on_done(journal, notify=None):
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
