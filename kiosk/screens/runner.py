"""Runner mode (WESPA 3.11.2(a)-(b)): table, round, the slip's words; TAB judges, records, prints.

The external adjudicator works at the keyboard only: Table, ENTER (or TAB), Round (kept from the
last slip), ENTER, the words, TAB. The verdict stays on screen for the adjudicator, a slip is
printed in the background (3.11.2(a)(ix)), and the cursor is back in Table for the next slip at
once. Without a printer the screen says to mark the handwritten slip with a single tick or cross
(3.11.2(a)(vii)).
P in the Table or Round box reprints the last slip, marked REPRINT.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Static

from adjudicator.errors import EntryError
from adjudicator.printdesk import HAND_MARK
from adjudicator.station import NOT_RECORDED, Outcome

from ..printing import Printed, print_desk
from ..widgets.bigtext import BigText
from ..widgets.entry_input import EntryInput, OrderedInput
from .base import LockedScreen, screen_css

MARK = {True: "✔", False: "✘"}
STEPS = ("Table, ENTER · Round, ENTER · the words from the slip, TAB · "
         "P in Table: reprint the last slip · R in Table: recheck the last challenge")


class NumberInput(OrderedInput):
    """Table or round: digits only; TAB or ENTER moves on; P asks for a reprint of the last slip."""

    COMMAND_KEYS = {"tab": "action_next", "enter": "action_next"}

    class Next(Message):
        """Go on to the next box."""

        def __init__(self, box: NumberInput):
            super().__init__()
            self.box = box

        @property
        def control(self) -> NumberInput:
            return self.box

    class Reprint(Message):
        """P was pressed: reprint the last slip."""

    class Recheck(Message):
        """R was pressed: re-adjudicate the last challenge (WESPA 3.10.9; 003 4.6.7)."""

    def __init__(self, **kwargs):
        super().__init__(restrict=r"[0-9]*", max_length=4, **kwargs)

    def take_key(self, event: events.Key) -> None:
        """P and R are commands here (the screen refuses them while words are typed)."""
        message = {"p": self.Reprint, "r": self.Recheck}.get((event.character or "").lower())
        if message is not None:
            self.tell(message())  # in turn: never typed, never after a later key
        else:
            super().take_key(event)

    def action_next(self) -> None:
        self.tell(self.Next(self))


class RunnerScreen(LockedScreen):
    """The external adjudicator's desk: one slip after another, never a word on its own."""

    DEFAULT_CSS = screen_css("runner.tcss")

    def __init__(self) -> None:
        super().__init__()
        self.last_seq: int | None = None
        self.last_outcome: Outcome | None = None
        self.last_place: tuple[str, str] = ("", "")

    def compose(self) -> ComposeResult:
        station = self.app.station
        with Vertical(id="runner-identity"):
            yield Static(f"RUNNER MODE · {station.config.event} · {station.station_name}",
                         id="station")
            yield Static(f"Lexicon: {station.lexicon.identity.describe()} · "
                         f"Challenge rule: {station.config.challenge_rule.label}", id="lexicon")
            printer = station.config.printer
            yield Static(f"Printer: {printer.url}" if printer.enabled else
                         "No printer: mark each handwritten slip with a single tick or cross.",
                         id="printer")
            if station.journal is None:
                yield Static("JOURNAL NOT AVAILABLE: call the director "
                             f"({station.journal_problem})", id="journal-problem", classes="alarm")
        yield Static(STEPS, id="runner-steps")
        with Horizontal(id="runner-boxes"):
            yield Static("Table")
            yield NumberInput(id="table")
            yield Static("Round")
            yield NumberInput(id="round")
        yield EntryInput(placeholder="the words on the slip", id="entry")
        yield Static("", id="runner-message")
        with Vertical(id="runner-last"):
            yield Static("", id="last-mark")
            yield BigText("", max_rows=6, id="last-big")
            yield Static("", id="last-record")
            yield Static("", id="last-consequence")
            yield Static("", id="last-hand")
        yield Static("", id="runner-print")

    def on_mount(self) -> None:
        self.query_one("#table", NumberInput).focus()

    def on_screen_resume(self) -> None:
        self.query_one("#table", NumberInput).focus()

    # -- moving between the boxes ------------------------------------------------------------

    def on_number_input_next(self, event: NumberInput.Next) -> None:
        event.stop()
        target = "#round" if event.control.id == "table" else "#entry"
        self.set_focus(self.query_one(target))  # now: the next key already goes there

    def on_entry_input_hint(self, event: EntryInput.Hint) -> None:
        self._say("Press TAB to judge the words.", error=False)

    def on_entry_input_refused(self, event: EntryInput.Refused) -> None:
        self._say(event.text, error=True)  # nothing was typed: the entry is as it was

    def on_input_changed(self, event: Input.Changed) -> None:
        self._say("", error=False)

    # -- judging -----------------------------------------------------------------------------

    def on_entry_input_adjudicate(self, event: EntryInput.Adjudicate) -> None:
        table = self.query_one("#table", NumberInput).value.strip()
        round_ = self.query_one("#round", NumberInput).value.strip()
        if not table:
            self._say("Type the table number from the slip first.", error=True)
            self.set_focus(self.query_one("#table"))
            return
        try:  # recorded before it is shown
            outcome = self.app.station.submit(event.text, table=table, round=round_)
        except EntryError as e:
            self._say(str(e), error=True)  # answered in place, never judged
            return
        self._show(outcome, table, round_)
        self.query_one("#entry", EntryInput).value = ""
        self.query_one("#table", NumberInput).value = ""  # the round stays: it rarely changes
        self.set_focus(self.query_one("#table"))  # ready for the next slip at once
        self._print(outcome, table, round_)

    def _show(self, outcome: Outcome, table: str, round_: str) -> None:
        v = outcome.verdict
        box = self.query_one("#runner-last")
        box.set_class(v.acceptable, "acceptable")
        box.set_class(not v.acceptable, "unacceptable")
        self.query_one("#last-mark", Static).update(f"{MARK[v.acceptable]} {v.word}")
        self.query_one("#last-big", BigText).update(v.word)
        number = f"Challenge #{outcome.seq}" if outcome.recorded else NOT_RECORDED
        if outcome.recheck_of is not None:
            number += f" · RECHECK OF #{outcome.recheck_of}"
        if outcome.secondary_agrees is not None:
            number += (f" · {outcome.secondary_name} "
                       f"{'agrees' if outcome.secondary_agrees else 'DISAGREES'}")
        where = f"Table {table}" + (f" · Round {round_}" if round_ else "")
        self.query_one("#last-record", Static).update(
            f"{number} · {where} · {' '.join(v.words)} · {outcome.time:%H:%M:%S}")
        self.query_one("#last-consequence", Static).update(outcome.consequence)
        hand = "" if self.app.station.config.printer.enabled else (
            f"No printer: mark the handwritten slip with {HAND_MARK[v.acceptable]} "
            "(WESPA 3.11.2(a)(vii)).")
        self.query_one("#last-hand", Static).update(hand)
        self.last_outcome = outcome
        self.last_place = (table, round_)

    def _print(self, outcome: Outcome, table: str, round_: str) -> None:
        if outcome.recorded:
            self.last_seq = outcome.seq
        note = print_desk(self.app).print_outcome(outcome)
        self._print_note(note.text, error=note.error)

    def _typing(self) -> bool:
        """True while words sit in the entry: then P and R are refused, never run."""
        if not self.query_one("#entry", EntryInput).value.strip():
            return False
        self._say("Finish the slip first: TAB judges the words typed.", error=True)
        return True

    def on_number_input_reprint(self, event: NumberInput.Reprint) -> None:
        event.stop()
        if self._typing():
            return
        note = print_desk(self.app).reprint(self.last_seq)
        self._print_note(note.text, error=note.error)

    def on_number_input_recheck(self, event: NumberInput.Recheck) -> None:
        """Judge the last challenge's words again, recorded and printed as its recheck."""
        event.stop()
        if self._typing():
            return
        last = self.last_outcome
        if last is None or last.seq is None:
            self._say("No recorded challenge to recheck yet.", error=True)
            return
        table, round_ = self.last_place
        outcome = self.app.station.recheck(last)  # the secondary lexicon is asked too
        self._show(outcome, table, round_)
        self._print(outcome, table, round_)

    def on_printed(self, event: Printed) -> None:
        self._print_note(event.message, error=not event.ok)

    def _print_note(self, text: str, *, error: bool) -> None:
        note = self.query_one("#runner-print", Static)
        note.update(text)
        note.set_class(error, "error")

    def _say(self, text: str, *, error: bool) -> None:
        message = self.query_one("#runner-message", Static)
        message.update(text)
        message.set_class(error, "error")
