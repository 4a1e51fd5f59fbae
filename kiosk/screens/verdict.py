"""Verdict: the play's collective verdict, huge, with its record and consequence; R rechecks."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Static

from adjudicator.judging.marks import CHAR as MARK
from adjudicator.station.protocol import KEYBOARD, Action, State
from adjudicator.station.service import NOT_RECORDED, Outcome
from kiosk.widgets.bigtext import BigText
from kiosk.widgets.entry_input import is_chord
from kiosk.widgets.touch_button import TouchButton
from kiosk.screens.base import LockedScreen, screen_css, timer_delay

def key_word(event: events.Key) -> str:
    """EVENT as the protocol reads keys (adjudicator/station/protocol.py means_next): the character a
    plain key types, else the key's name ("enter", "tab", "f12", "shift", "ctrl+plus"...)."""
    if event.is_printable and event.character and not is_chord(event):
        return event.character
    return event.key


PLAIN = {True: "YES: the play is ACCEPTABLE", False: "NO: the play is UNACCEPTABLE"}
NEXT_HINT = KEYBOARD.next_hint


def describe_lines(outcome: Outcome) -> list[tuple[str, str]]:
    """(id, text) of every line under the big verdict; nothing in them is about a single word."""
    v = outcome.verdict
    lines = []
    if outcome.is_recheck:
        of = f" OF #{outcome.recheck_of}" if outcome.recheck_of is not None else ""
        lines.append(("recheck-of", f"RECHECK{of}"))
    lines.append(("plain", f"{MARK[v.acceptable]} {PLAIN[v.acceptable]}"))
    lines.append(("words", "Words: " + " ".join(v.words)))
    lines.append(("consequence", outcome.consequence))
    number = f"Challenge #{outcome.seq}" if outcome.recorded else "Challenge not numbered"
    number += f" · check {outcome.row_hash}" if outcome.row_hash else ""
    lines.append(("record", f"{number} · {v.lexicon.name} · {outcome.time:%H:%M:%S}"))
    if v.lexicon.warning:  # unrecognised or not a tournament list: said with every verdict
        lines.append(("lexicon-warning", v.lexicon.warning))
    if outcome.secondary_agrees is not None:
        word = "agrees" if outcome.secondary_agrees else "DISAGREES"
        lines.append(("secondary", f"Secondary lexicon {outcome.secondary_name} {word}"))
    if not outcome.recorded:
        lines.append(("not-recorded", NOT_RECORDED))
    return lines


LINE_IDS = ("late", "recheck-of", "plain", "words", "consequence", "record", "lexicon-warning",
            "secondary", "not-recorded")
ALARMS = ("not-recorded",)


class VerdictScreen(LockedScreen):
    """Held `verdict_hold` seconds against stray keys; then a key that means "next" (a letter,
    a digit, Space, Enter: adjudicator/station/protocol.py), NEXT or `verdict_clear` goes back.

    Built once and shown again for every challenge (show() fills it in): a screen composed and
    styled in advance paints its verdict sooner than a new one would.
    """

    DEFAULT_CSS = screen_css("verdict.tcss")

    def __init__(self, outcome: Outcome | None = None) -> None:
        super().__init__()
        self.outcome = outcome
        self.note = ""  # a line above the rest (a verdict shown late, after a restart)
        self._verdict_timer: Timer | None = None
        self._styled = False  # resumed once: styled whole since, each change restyled as made

    def post_message(self, message) -> bool:
        """Pushed again for the next verdict (KioskApp.show_verdict): not restyled whole, as
        Textual does at each push; its styles are as it left them, and show() restyles what it
        changes (a class set restyles that widget and those in it). The whole screen's
        restyle had cost a verdict 3 ms on its way to the screen on an idle machine, 15-60 ms
        with the CPU shared (bench/verdict_profile.py)."""
        if isinstance(message, events.ScreenResume) and self._styled:
            message.refresh_styles = False
        return super().post_message(message)

    def compose(self) -> ComposeResult:
        with Vertical(id="verdict-box"):
            # the verdict word with a large tick or cross beside it (adjudicator/judging/marks.py)
            yield BigText("", max_rows=12, reserve=12, id="big", verdict=True)
            for line_id in LINE_IDS:
                yield Static("", id=line_id, classes="alarm" if line_id in ALARMS else "")
        yield Static("", id="hint")
        with Horizontal(id="verdict-buttons"):
            yield TouchButton("R: RECHECK", id="recheck")
            yield TouchButton("NEXT", id="next")

    def on_mount(self) -> None:
        if self.outcome is not None:
            self._fill(self.outcome)
        else:  # built ahead (KioskApp._warm_fonts): styled whole now, never at a push
            self.update_node_styles(animate=False)  # (the first one's had cost 14 ms more)
            self._styled = True

    def show(self, outcome: Outcome, note: str = "") -> None:
        """Fill the screen in with OUTCOME (before it is pushed, or in place for a recheck);
        NOTE, when given, is said above its lines."""
        self.outcome, self.note = outcome, note
        if self.query("#verdict-box"):
            self._fill(outcome)
        # else: not composed yet; on_mount fills it in

    def _fill(self, outcome: Outcome) -> None:
        v = outcome.verdict
        box = self.query_one("#verdict-box")
        box.set_class(v.acceptable, "acceptable")
        box.set_class(not v.acceptable, "unacceptable")
        self.query_one("#big", BigText).update(v.word, mark=v.acceptable)
        lines = dict(describe_lines(outcome))
        if self.note:
            lines["late"] = self.note
        for line_id in LINE_IDS:
            widget = self.query_one(f"#{line_id}", Static)
            widget.update(lines.get(line_id, ""))
            widget.display = line_id in lines
        self.query_one("#hint", Static).update("")
        self._follow_protocol()  # the judge told the protocol (judged()) before showing it

    def on_screen_suspend(self) -> None:
        if self._verdict_timer is not None:
            self._verdict_timer.stop()
            self._verdict_timer = None

    def on_screen_resume(self) -> None:
        self._styled = True
        if self.outcome is not None and self._verdict_timer is None:
            self._follow_protocol()  # never left without its timer

    def _follow_protocol(self) -> None:
        """Show what the protocol's state says, and wait for its next timer."""
        if self._verdict_timer is not None:
            self._verdict_timer.stop()
            self._verdict_timer = None
        protocol = self.app.protocol
        if protocol.state is State.READY:
            self._done()
            return
        released = protocol.state is State.VERDICT
        self.query_one("#hint", Static).update(NEXT_HINT if released else "")
        self.query_one("#verdict-buttons").display = released
        self._verdict_timer = self.set_timer(timer_delay(protocol), self._expire)

    def _expire(self) -> None:
        self._verdict_timer = None
        self.app.protocol.expire()
        self._follow_protocol()

    def _done(self) -> None:
        if self.is_current:
            self.app.back_home()  # now: the keys read after this one go to Ready

    def take_key(self, event: events.Key) -> None:
        """A key on the verdict, applied as it arrives, in order with the keys and taps read
        with it (kiosk/app.py): a NEXT key followed by words types them into Ready's entry."""
        if self.is_current:
            self._act(self.app.protocol.key_on_verdict(key_word(event)))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.take_key(event)  # a key that came another way than the App's (none in use)

    def _act(self, action: Action) -> None:
        if action is Action.RECHECK:
            self.recheck()
        elif action is Action.NEXT:
            self.app.protocol.next_challenge()
            self._done()

    def released(self) -> bool:
        """True when the players may leave the verdict (its hold is over)."""
        return self.is_current and self.app.protocol.key_on_verdict("enter") is Action.NEXT

    def on_touch_button_pressed(self, event: TouchButton.Pressed) -> None:
        """A tap means what its key means, asked of the protocol: nothing while held, nothing
        once NEXT (a key, a tap) has gone back to Ready, whatever order they were read in."""
        event.stop()
        if not self.is_current:
            return
        self._act(self.app.protocol.key_on_verdict("r" if event.button.id == "recheck"
                                                   else "enter"))

    def recheck(self) -> None:
        """WESPA 3.10.9; 003 4.6.7: the same words judged again and recorded as a recheck,
        only on the verdict the players see (protocol.take_recheck), once per request."""
        protocol = self.app.protocol
        if not self.is_current or self.outcome is None or not protocol.take_recheck():
            return
        try:
            outcome = self.app.station.recheck(self.outcome)  # recorded before it is shown
        except BaseException:
            protocol.refused()
            raise
        if outcome.locked:  # another program holds the journal: no recheck made or shown
            import time

            protocol.refused(held=True)  # the keys read meanwhile do nothing (issue 42)
            self.app.ignore_read_before = time.monotonic()
            self.query_one("#hint", Static).update(
                f"RECHECK NOT RECORDED: {outcome.problem}. R tries again.")
            return
        self.app.show_verdict(outcome)  # judged(), shown, and once painted marked shown
