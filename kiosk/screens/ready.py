"""Ready and Entry: what the station judges with, the two steps, and the words typed, shown large.

Ready and Entry are one screen on purpose: the Input keeps the focus from the first letter to TAB,
so no keystroke can fall between two screens (typing on Ready *is* the start of the entry).
A station serving divisions on different lists (issue 27) asks for the table first, as the
runner's desk does, and judges with that table's division's list: it never guesses.
"""

from __future__ import annotations

import contextlib

from textual.app import ComposeResult
from textual.timer import Timer
from textual.widgets import Static

from adjudicator.text.entry import check_entry_length, parse_entry
from adjudicator.errors import EntryError
from adjudicator.event.pin import is_set
from adjudicator.station.protocol import KEYBOARD, State, steps_text
from adjudicator.station.service import NO_VERDICT

from kiosk.widgets.bigtext import BigText
from kiosk.widgets.entry_input import EntryInput
from kiosk.widgets.touch_button import TouchButton
from kiosk.screens.base import LockedScreen, journal_said, timer_delay
from kiosk.screens.ready_table import TableFirst

STEP_1, STEP_2 = KEYBOARD.step_1, KEYBOARD.step_2
SHORT = 22  # rows: a shorter screen keeps the try-out row for the ADJUDICATE button
RECORDING = "recording..."
TRY_OUT = "not locked: no director PIN (F12 opens director mode, where one is set)"


class ReadyScreen(TableFirst, LockedScreen):
    """The station at rest and while the challenger types (WESPA 3.10.8; NASPA IV.J.1 a)."""

    def __init__(self, notice: str = "") -> None:
        super().__init__()
        self._idle: Timer | None = None
        self._judged = False
        self._resumed = False  # resume_now ran: the ScreenResume posted with it is done
        self._notice = notice  # said until the first key (why director mode closed)
        self._released_text = ""  # a held refusal's whole text, said once its hold is over
        self._by_table = self.app.station.lists.needs_table  # the table decides list and rule

    def compose(self) -> ComposeResult:
        # Few widgets on purpose: each one costs the cold start to first paint (issue 3).
        station = self.app.station
        identity = station.lexicon.identity
        yield Static(f"{station.config.event} · {station.station_name}", id="station")
        lexicon = Static(self._lists_text() if self._by_table else
                         f"Lexicon: {identity.describe()}", id="lexicon")
        if not identity.recognised:
            lexicon.add_class("unrecognised")
        elif not identity.known.tournament:
            lexicon.add_class("not-tournament")
        yield lexicon
        yield Static(self._rule_text(), id="rule")
        note = Static("", id="event-note")  # the hub's event: what changed, or out of reach
        note.display = False
        yield note
        if station.config.mode != "smart-device" and not is_set(station.config.pin_hash):
            yield Static(TRY_OUT, id="try-out", classes="alarm")  # a try-out says so (issue 27)
        yield Static(self._count_text(), id="count")
        yield Static(steps_text(entering=False), id="steps")
        if self._by_table:  # the runner's table box, before the words
            from textual.containers import Horizontal

            from kiosk.widgets.slip_boxes import NumberInput

            with Horizontal(id="table-row"):
                yield Static("Table, then ENTER: ", id="table-label")
                yield NumberInput(id="table")
        yield BigText("", max_rows=16, id="typed")
        yield EntryInput(placeholder="type the words here", id="entry")
        yield Static("", id="message")
        yield TouchButton("ADJUDICATE", id="adjudicate")

    def on_mount(self) -> None:
        self._show_try_out()
        self._focus_start()
        self.show_journal_state()
        if self._notice:
            self._say(self._notice, error=False)
        if self.app.station.config.hub:
            self.set_interval(1.0, self.follow_event)
        self.set_interval(1.0, self.watch_journal)

    def follow_event(self) -> None:
        """At Ready only (never during a challenge): the hub's change taken, and said."""
        station = self.app.station
        if self.is_current and self.app.protocol.state is State.READY and station.at_ready():
            self.query_one("#station", Static).update(
                f"{station.config.event} · {station.station_name}")
            self._show_try_out()  # a PIN the director set: no longer a try-out
            if station.lists.needs_table != self._by_table:  # the table box comes or goes
                self._by_table = station.lists.needs_table
                self.refresh(recompose=True)
                self.call_after_refresh(self._recomposed)
            elif self._by_table:  # the lists by table, and the table typed kept (issue 40)
                self._show_lists()
            else:
                identity = station.lexicon.identity
                lexicon = self.query_one("#lexicon", Static)
                lexicon.update(f"Lexicon: {identity.describe()}")
                lexicon.set_class(not identity.recognised, "unrecognised")
                lexicon.set_class(identity.recognised and not identity.known.tournament,
                                  "not-tournament")
                self.query_one("#rule", Static).update(self._rule_text())
        from adjudicator.station.follow import ready_text

        said = ready_text(station)
        note = self.query_one("#event-note", Static)
        note.update(said)
        note.display = bool(said)

    def show_journal_state(self, count: bool = True) -> None:
        """The count of challenges, and a loud line when the journal cannot record: not open,
        its file lost under the station, its last record failed, or a file that continues a
        lost one (issue 42: Ready said nothing of any)."""
        station = self.app.station
        if count:
            self.query_one("#count", Static).update(self._count_text())
        said = journal_said(station)
        banners = self.query("#journal-problem")
        if said and not banners:  # built only when needed: rare, and not on the cold start
            self.mount(Static("", id="journal-problem", classes="alarm"), after="#count")
        for banner in self.query("#journal-problem").results(Static):
            if said:
                banner.update(said)
            banner.display = bool(said)

    def watch_journal(self) -> None:
        """Every second at Ready: the journal's state said as it changes, never read."""
        if self.is_current and not self.app.protocol.judging:
            self.show_journal_state(count=False)

    def on_screen_resume(self) -> None:
        if self._resumed:  # done already, when the verdict left (resume_now)
            self._resumed = False
            return
        self._resume()

    def resume_now(self) -> None:
        """Back from the verdict, now (KioskApp.back_home): the entry cleared and the keyboard
        here before the next key read is applied; the ScreenResume that Textual posts, handled
        after those keys, then changes nothing (it wiped the words typed after the NEXT key)."""
        self._resumed = True
        self._resume()

    def _resume(self) -> None:
        self.app.protocol.next_challenge()
        if self._judged:
            self._judged = False
            self.query_one(EntryInput).value = ""
        self.show_journal_state()  # the count, and the banner gone once the journal recorded
        self._show_try_out()
        self._focus_start()

    def _recomposed(self) -> None:
        """After the event's change brought or took away the table box: as at the start."""
        self._show_try_out()
        self._focus_start()
        self.show_journal_state()
        self.follow_event()

    def _show_try_out(self) -> None:
        """The lock line follows the PIN the station has now (issue 42: a PIN taken from the
        hub was said beside a stale 'not locked'): gone once a PIN is set (set-pin, taken at
        F12, or the event's), back if a followed change takes it away; never on a phone-sized
        screen, where the ADJUDICATE button needs the row."""
        station = self.app.station
        wanted = (station.config.mode != "smart-device" and self.app.size.height >= SHORT
                  and not is_set(station.config.pin_hash))
        lines = self.query("#try-out")
        if not wanted:
            lines.remove()  # not display=False: CSS hides it while typing
        elif not lines:
            self.mount(Static(TRY_OUT, id="try-out", classes="alarm"), before="#count")

    def _count_text(self) -> str:
        if self.app.station.journal_pending:
            return "Challenges judged at this station: …"
        count = self.app.station.judged_count()
        shown = "unknown" if count is None else f"{count:,}"
        return f"Challenges judged at this station: {shown}"

    # -- entry ------------------------------------------------------------------------------

    def on_input_changed(self, event: EntryInput.Changed) -> None:
        if event.input.id == "table":
            return  # the table box: no entry typed yet
        text = event.value
        # a TAB pasted from a spreadsheet separates words (adjudicator/text/entry.py): a gap here
        self.query_one("#typed", BigText).update(text.replace("\t", " ").upper())
        protocol = self.app.protocol
        entering = protocol.typed(text) is State.ENTRY
        if entering != self.has_class("entering"):
            self.set_class(entering, "entering")
            self.query_one("#steps", Static).update(steps_text(entering=entering))
        if text or not self._notice:  # a notice stays until the first key
            self._notice = ""
            self.query_one("#message", Static).update("")
            self.query_one("#message", Static).remove_class("error")
        if self._idle is not None:
            self._idle.stop()
            self._idle = None
        if protocol.deadline is not None:
            self._idle = self.set_timer(timer_delay(protocol), self._expire)

    def _expire(self) -> None:
        self._idle = None
        protocol = self.app.protocol
        state = protocol.expire()
        if state is State.READY:
            self.clear_entry()
        elif state is State.ENTRY and protocol.deadline is not None:
            # woke before the deadline (a timer may, by the clock's resolution): wait again,
            # as the verdict screen does, or the entry would never be cleared
            self._idle = self.set_timer(timer_delay(protocol), self._expire)

    def clear_entry(self) -> None:
        """Idle too long: the unfinished entry is cleared and the station is Ready again."""
        self.query_one(EntryInput).value = ""

    def on_entry_input_hint(self, event: EntryInput.Hint) -> None:
        self._say(KEYBOARD.hint, error=False)

    def on_entry_input_refused(self, event: EntryInput.Refused) -> None:
        self._say(event.text, error=True)  # nothing was typed: the entry is as it was

    def on_touch_button_pressed(self, event: TouchButton.Pressed) -> None:
        if event.button.id == "adjudicate":
            event.stop()
            if self.is_current:  # a click read with others may be handled after Ready is gone
                self.query_one(EntryInput).action_adjudicate()

    def on_entry_input_adjudicate(self, event: EntryInput.Adjudicate) -> None:
        """Judge the entry, once: a second click, tap or TAB that came with the first (one read,
        or a stall) finds the protocol judging or past Entry, and does nothing (issue 28).

        A malformed entry is answered at once; a well-formed one is judged and recorded at once,
        unless another program holds the journal locked: then the words and "recording..." are
        drawn before the station waits for it (issue 36: it froze with nothing drawn), and the
        keys read meanwhile are the held verdict's, as they would be a moment later: nothing."""
        protocol = self.app.protocol
        if self._by_table and self.is_current and not self._check_table():
            return  # no table, or one no division here plays at: nothing judged
        if not self.is_current or not protocol.take_judgement():
            return
        table = self.query_one("#table").value if self._by_table else ""
        try:
            check_entry_length(event.text)
            parse_entry(event.text)
        except EntryError as e:
            protocol.refused()
            self._say(str(e), error=True)  # answered in place, never judged
            return
        self._judge(event.text, table, wait=False)

    def _judge(self, text: str, table: str, *, wait: bool) -> None:
        """Judge and record TEXT; shown only once recorded. Not WAIT: one try that does not
        wait for a journal another program holds locked; if it is locked, the words and
        "recording..." are drawn first, then the station's wait (STATION_LOCK_PATIENCE)."""
        protocol, station = self.app.protocol, self.app.station
        self.app.unseen.look()  # (after the first paint, as a rule; a TAB may come sooner)
        journal = station.journal
        no_wait = getattr(journal, "waiting_at_most", None)
        try:  # recorded before the verdict is shown
            with no_wait(0) if no_wait is not None and not wait else contextlib.nullcontext():
                # the players challenging again the verdict they never saw: its recheck
                outcome = self.app.unseen.judge(text, table=table)
        except EntryError as e:
            protocol.refused()
            self._say(str(e), error=True)
            return
        except BaseException:
            protocol.refused()
            raise
        if outcome.locked and not wait:  # said now, waited for after the paint
            self._say(RECORDING, error=False)
            self.call_after_refresh(self._judge, text, table, wait=True)
            return
        if outcome.locked:  # nothing recorded, so nothing shown: the players may try again
            self.refuse_held(NO_VERDICT.format(problem=outcome.problem, again="TAB"))
            return
        self._judged = True  # the entry is cleared on the way back, not on the verdict's path
        self.app.show_verdict(outcome)

    def refuse_held(self, text: str) -> None:
        """The challenge taken is refused with TEXT, held as a verdict is (issue 42): the keys
        read while it was being recorded, and for timers.verdict_hold after, do nothing (they
        had made `cat xu` TAB `zz` TAB judge CAT XUZZ, the refusal painted over unread); then
        it says what TAB does, and stays until a key. The words stay for the retry, with a
        whole entry_idle to make it in."""
        import time

        protocol = self.app.protocol
        protocol.refused(held=True)
        self.app.ignore_read_before = time.monotonic()  # read during the wait: nothing
        self._say(text.rsplit("; ", 1)[0] + ".", error=True)  # (its last words after the hold)
        self._released_text = text
        self.set_timer(max(protocol.timers.verdict_hold, 0.01), self._refusal_released)
        protocol.typed(self.query_one(EntryInput).value)  # the idle timer from now
        if self._idle is not None:
            self._idle.stop()
            self._idle = None
        if protocol.deadline is not None:
            self._idle = self.set_timer(timer_delay(protocol), self._expire)

    def _refusal_released(self) -> None:
        """The refusal's hold is over: it says what TAB does now (unless a key changed it)."""
        if self.app.protocol.holding():
            self.set_timer(0.05, self._refusal_released)
            return
        message = self.query_one("#message", Static)
        held = self._released_text.rsplit("; ", 1)[0] + "."
        if message.content == held:
            self._say(self._released_text, error=True)

    def _say(self, text: str, *, error: bool) -> None:
        message = self.query_one("#message", Static)
        if message.content == text and message.has_class("error") == error:
            return  # said already: a held key refused 600,000 times redraws nothing (issue 28)
        message.update(text)
        message.set_class(error, "error")
