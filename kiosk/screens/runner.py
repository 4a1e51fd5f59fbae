"""Runner mode (WESPA 3.11.2(a)-(b)): table, round, the slip's words; TAB judges, records, prints.

The external adjudicator works at the keyboard only: Table, ENTER (or TAB), Round (kept from the
last slip), ENTER, the words, TAB. The verdict stays on screen for the adjudicator, a slip is
printed in the background (3.11.2(a)(ix)), and the cursor is back in Table for the next slip at
once. Without a printer the screen says to mark the handwritten slip with a single tick or cross
(3.11.2(a)(vii)).
P in the Table or Round box prints every slip not printed (the list under the verdict), else
the last slip again, marked REPRINT only if one came out before. L goes to that list: ENTER
prints the slip chosen, ESCAPE comes back. ESCAPE in the words (or SHIFT+TAB) goes back to
Table, keeping the words.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, OptionList, Static
from textual.widgets.input import Selection
from textual.widgets.option_list import Option

from adjudicator.errors import EntryError
from adjudicator.event.tables import TableError
from adjudicator.judging.marks import CHAR as MARK
from adjudicator.station.printdesk import HAND_MARK
from adjudicator.station.service import NOT_RECORDED, Outcome
from adjudicator.text.visible import visible

from kiosk.printing import Printed, print_desk
from kiosk.widgets.bigtext import BigText
from kiosk.widgets.entry_input import EntryInput, OrderedInput
from kiosk.widgets.slip_boxes import NumberInput, RunnerEntry, UnprintedList
from kiosk.screens.base import LockedScreen, journal_said, screen_css

STEPS = ("Table, ENTER · Round, ENTER · the words from the slip, TAB (ESC: back to Table) · "
         "in Table: P prints the slips not printed, R rechecks the last challenge, "
         "L lists the slips not printed")
COMPACT_STEPS = "ENTER next · TAB judge · ESC back · P print · R recheck · L list"
COMPACT = (70, 30)  # below this width or height: one-line boxes, the short steps
NO_BIG_BELOW = 22  # rows: below this, no block letters (the verdict's lines need the room)


class RunnerScreen(LockedScreen):
    """The external adjudicator's desk: one slip after another, never a word on its own."""

    DEFAULT_CSS = screen_css("runner.tcss")

    def __init__(self, notice: str = "") -> None:
        super().__init__()
        self._notice = notice  # said until the first key (why director mode closed)
        self.last_seq: int | None = None
        self.last_outcome: Outcome | None = None
        self.last_place: tuple[str, str] = ("", "")

    def compose(self) -> ComposeResult:
        station = self.app.station
        with Vertical(id="runner-identity"):
            yield Static(f"RUNNER MODE · {station.config.event} · {station.station_name}",
                         id="station")
            identity = station.lexicon.identity
            yield Static(self._lists_text(), id="lexicon")
            # the small screen's one line: the list's name, and its warning when it has one
            # (README: every screen says ENABLE is not a tournament word list; issue 21)
            said = identity.warning or f"{identity.name} · {identity.status}"
            short = Static(f"Lexicon: {said}", id="lexicon-short")
            short.set_class(bool(identity.warning), "warning")
            yield short
            printer = station.config.printer
            yield Static(f"Printer: {printer.url}" if printer.enabled else
                         "No printer: mark each handwritten slip with a single tick or cross.",
                         id="printer")
            if station.journal is None:
                yield Static("JOURNAL NOT AVAILABLE: call the director "
                             f"({station.journal_problem})", id="journal-problem", classes="alarm")
        yield Static(STEPS, id="runner-steps")
        yield Static(COMPACT_STEPS, id="runner-steps-short")
        with Horizontal(id="runner-boxes"):
            yield Static("Table")
            yield NumberInput(id="table")
            yield Static("Round")
            yield NumberInput(id="round")
        # Back from Table the words are kept and typing goes on after them (not select-all:
        # the next letter would wipe the slip's words).
        yield RunnerEntry(placeholder="the words on the slip", id="entry", select_on_focus=False)
        yield Static("", id="runner-message")
        with Vertical(id="runner-last"):
            yield Static("", id="last-mark")
            yield BigText("", max_rows=6, id="last-big", plain=False,  # #last-mark says it
                          verdict=True)
            yield Static("", id="last-record")
            yield Static("", id="last-consequence")
            yield Static("", id="last-lexicon")
            yield Static("", id="last-hand")
        yield Static("", id="runner-print")
        yield Static("", id="unprinted-title")
        yield UnprintedList(id="unprinted")

    def on_mount(self) -> None:
        self.query_one("#table", NumberInput).focus()
        self._fit(self.size.width, self.size.height)
        self._show_unprinted([])
        if self.app.station.config.printer.enabled:
            # a restart forgets none: read back from the journal, after the first paint (the
            # kiosk opens its journal then)
            self.call_after_refresh(self._show_unprinted)
        if self._notice:
            self._say(self._notice, error=False)
        if self.app.station.config.hub:
            self.set_interval(1.0, self.follow_event)
        self.set_interval(1.0, self.watch_journal)

    def watch_journal(self) -> None:
        """Every second: the journal's state said as it changes (issue 42: a journal deleted,
        replaced or unwritable under the desk was never said), never read."""
        said = journal_said(self.app.station)
        banners = self.query("#journal-problem")
        if said and not banners:
            self.query_one("#runner-identity").mount(
                Static(said, id="journal-problem", classes="alarm"))
        for banner in self.query("#journal-problem").results(Static):
            if said:
                banner.update(said)
            banner.display = bool(said)

    def follow_event(self) -> None:
        """The hub's change taken between two slips (no words typed: the desk's Ready), and
        said; never while the runner types a slip's words."""
        station = self.app.station
        if not self.is_current or self.query_one("#entry", RunnerEntry).value:
            return
        said = station.at_ready()
        if said:
            identity = station.lexicon.identity
            self.query_one("#station", Static).update(
                f"RUNNER MODE · {station.config.event} · {station.station_name}")
            self.query_one("#lexicon", Static).update(self._lists_text())  # by table, maybe
            short = self.query_one("#lexicon-short", Static)
            short.update(f"Lexicon: {identity.warning or f'{identity.name} · {identity.status}'}")
            short.set_class(bool(identity.warning), "warning")
            self._say(said, error=False)

    def _lists_text(self) -> str:
        """The lists and rule the desk judges with: by table when the slip's table decides
        (adjudicator/station/lists.py), never one chosen without a table (issue 40)."""
        lists = self.app.station.lists
        if lists.needs_table:
            return f"Lexicon and rule by table · {lists.describe()}"
        return (f"Lexicon: {lists.first.identity.describe()} · "
                f"Challenge rule: {lists.choose().rule.label}")

    def on_screen_resume(self) -> None:
        self.query_one("#table", NumberInput).focus()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Small screens (a phone, 80x24): one-line boxes and the short steps, so the verdict,
        its consequence and the print news stay on screen."""
        self.set_class(width < COMPACT[0] or height < COMPACT[1], "compact")
        self.set_class(height < NO_BIG_BELOW, "no-big")

    # -- the slips not printed ---------------------------------------------------------------

    def _show_unprinted(self, waiting=None) -> None:
        if waiting is None:
            waiting = print_desk(self.app).unprinted()
        listing = self.query_one("#unprinted", UnprintedList)
        chosen = listing.highlighted
        listing.clear_options()
        listing.add_options([Option(Text(visible(self._unprinted_line(u))), id=str(u.seq))
                             for u in waiting])  # as text, never markup; controls shown
        if waiting:
            listing.highlighted = min(chosen or 0, len(waiting) - 1)
        title = self.query_one("#unprinted-title", Static)
        title.update(f"Not printed: {len(waiting)} · L picks, ENTER prints" if waiting else "")
        title.display = listing.display = bool(waiting)
        if not waiting and listing.has_focus:
            self._focus_box("#table")

    @staticmethod
    def _unprinted_line(u) -> str:
        where = " · ".join(x for x in (f"Table {u.table}" if u.table else "",
                                        f"Round {u.round}" if u.round else "") if x)
        reason = u.reason.split(": ", 1)[-1].split(".")[0]  # "paper out", not the whole note
        return " · ".join(x for x in (f"#{u.seq}", where, reason) if x)

    def on_number_input_list(self, event: NumberInput.List) -> None:
        event.stop()
        listing = self.query_one("#unprinted", UnprintedList)
        if not listing.option_count:
            self._say("Every slip has been printed.", error=False)
            return
        self.set_focus(listing)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        note = print_desk(self.app).reprint(int(event.option.id))
        self._print_note(note.text, error=note.error)

    def on_unprinted_list_back(self, event: UnprintedList.Back) -> None:
        event.stop()
        self._focus_box("#table")

    def on_runner_entry_back(self, event: RunnerEntry.Back) -> None:
        event.stop()
        self._focus_box("#table")  # the words stay for when the slip is fixed

    def on_number_input_back(self, event: NumberInput.Back) -> None:
        event.stop()
        if event.box.id == "round":
            self._focus_box("#table")

    # -- moving between the boxes ------------------------------------------------------------

    def on_number_input_next(self, event: NumberInput.Next) -> None:
        event.stop()
        target = "#round" if event.control.id == "table" else "#entry"
        self._focus_box(target)

    def _focus_box(self, selector: str) -> None:
        """Focus the box NOW (a number box with its text selected): the next key goes there.

        (Input's own select-on-focus ran only when its Focus event was handled, after the keys
        already read, and selected letters typed since: OrderedInput turns it off.)
        """
        box = self.query_one(selector, OrderedInput)
        self.set_focus(box)
        if isinstance(box, NumberInput):  # the words are kept and added to, never replaced
            box.selection = Selection(0, len(box.value))

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
            self._focus_box("#table")
            return
        try:  # recorded before it is shown
            # the slip of a verdict recorded and never shown, brought again: its recheck
            outcome = self.app.unseen.judge(event.text, table=table, round=round_)
        except EntryError as e:
            self._say(str(e), error=True)  # answered in place, never judged
            if isinstance(e, TableError):  # "0" (tables.py): the box to fix has the cursor
                self._focus_box(f"#{e.what}")
            return
        self._show(outcome, outcome.table, outcome.round)  # as recorded: "07" is table 7
        self.query_one("#entry", EntryInput).value = ""
        self.query_one("#table", NumberInput).value = ""  # the round stays: it rarely changes
        self._focus_box("#table")  # ready for the next slip at once
        self._print(outcome, outcome.table, outcome.round)

    def _show(self, outcome: Outcome, table: str, round_: str) -> None:
        v = outcome.verdict
        box = self.query_one("#runner-last")
        box.set_class(v.acceptable, "acceptable")
        box.set_class(not v.acceptable, "unacceptable")
        self.query_one("#last-mark", Static).update(f"{MARK[v.acceptable]} {v.word}")
        self.query_one("#last-big", BigText).update(v.word, mark=v.acceptable)
        number = f"Challenge #{outcome.seq}" if outcome.recorded else NOT_RECORDED
        if outcome.recheck_of is not None:
            number += f" · RECHECK OF #{outcome.recheck_of}"
        if outcome.secondary_agrees is not None:
            number += (f" · {outcome.secondary_name} "
                       f"{'agrees' if outcome.secondary_agrees else 'DISAGREES'}")
        where = f"Table {table}" + (f" · Round {round_}" if round_ else "")
        if self.app.station.lists.needs_table:  # which list judged this slip
            where += f" · {v.lexicon.name}"
        self.query_one("#last-record", Static).update(
            f"{number} · {where} · {' '.join(v.words)} · {outcome.time:%H:%M:%S}")
        self.query_one("#last-consequence", Static).update(outcome.consequence)
        warning = self.query_one("#last-lexicon", Static)
        warning.update(v.lexicon.warning)  # unrecognised or not a tournament list
        warning.display = bool(v.lexicon.warning)
        hand = "" if self.app.station.config.printer.enabled else (
            f"No printer: mark the handwritten slip with {HAND_MARK[v.acceptable]} "
            "(WESPA 3.11.2(a)(vii)).")
        self.query_one("#last-hand", Static).update(hand)
        self.last_outcome = outcome
        self.last_place = (table, round_)
        self.app.call_after_refresh(self.app.painted, outcome.seq)  # then marked shown

    def show_unseen(self, outcome: Outcome, note: str) -> None:
        """A slip's verdict recorded and never shown (the desk stopped between the commit and
        the paint), shown in the last-slip box at start, said so; its slip is reprinted with P."""
        self._show(outcome, outcome.table, outcome.round)
        if outcome.recorded:
            self.last_seq = outcome.seq
        self._say(note, error=True)

    def _print(self, outcome: Outcome, table: str, round_: str) -> None:
        if outcome.recorded:
            self.last_seq = outcome.seq
        note = print_desk(self.app).print_outcome(outcome)
        self._print_note(note.text, error=note.error)
        if note.error:
            self._show_unprinted()

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
        note = print_desk(self.app).reprint_unprinted(self.last_seq)
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
        self._show_unprinted()

    def _print_note(self, text: str, *, error: bool) -> None:
        note = self.query_one("#runner-print", Static)
        note.update(text)
        note.set_class(error, "error")

    def _say(self, text: str, *, error: bool) -> None:
        message = self.query_one("#runner-message", Static)
        message.update(text)
        message.set_class(error, "error")
