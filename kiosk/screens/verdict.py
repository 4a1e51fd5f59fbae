"""Verdict: the play's collective verdict, huge, with its record and consequence; R rechecks."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Button, Static

from ..station import NOT_RECORDED, Outcome
from ..widgets.bigtext import BigText
from ..widgets.touch_button import TouchButton
from .base import LockedScreen

MARK = {True: "✔", False: "✘"}
PLAIN = {True: "YES: the play is ACCEPTABLE", False: "NO: the play is UNACCEPTABLE"}
NEXT_HINT = "R: check the same words again (recheck) · any other key: next challenge"


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
    lines.append(("record", f"{number} · {v.lexicon.name} · {outcome.time:%H:%M:%S}"))
    if outcome.secondary_agrees is not None:
        word = "agrees" if outcome.secondary_agrees else "DISAGREES"
        lines.append(("secondary", f"Secondary lexicon {outcome.secondary_name} {word}"))
    if not outcome.recorded:
        lines.append(("not-recorded", NOT_RECORDED))
    return lines


class VerdictScreen(LockedScreen):
    """Held `verdict_hold` seconds against stray keys; then any key or `verdict_clear` goes back."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__()
        self.outcome = outcome
        self.held = True
        self._verdict_timers: list[Timer] = []

    def compose(self) -> ComposeResult:
        v = self.outcome.verdict
        kind = "acceptable" if v.acceptable else "unacceptable"
        with Vertical(id="verdict-box", classes=kind):
            yield Static(MARK[v.acceptable], id="mark")
            yield BigText(v.word, max_rows=12, reserve=14, id="big")
            for line_id, text in describe_lines(self.outcome):
                yield Static(text, id=line_id, classes="alarm" if line_id == "not-recorded" else "")
        yield Static("", id="hint")
        with Horizontal(id="verdict-buttons"):
            yield TouchButton("R: RECHECK", id="recheck")
            yield TouchButton("NEXT", id="next")

    def on_mount(self) -> None:
        self._start_timers()

    def _start_timers(self) -> None:
        for timer in self._verdict_timers:
            timer.stop()
        timers = self.app.station.config.timers
        self.held = True
        self.query_one("#verdict-buttons").display = False
        self._verdict_timers = [
            self.set_timer(timers.verdict_hold, self._release),
            self.set_timer(timers.verdict_clear, self._done),
        ]

    def _release(self) -> None:
        self.held = False
        self.query_one("#hint", Static).update(NEXT_HINT)
        self.query_one("#verdict-buttons").display = True

    def _done(self) -> None:
        if self.is_current:
            self.app.pop_screen()

    async def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if self.held:
            return  # stray keys (the end of a burst, a leaning elbow) never skip the verdict
        if event.key in ("r", "R", "shift+r"):
            await self.recheck()
        else:
            self._done()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if self.held:
            return
        if event.button.id == "recheck":
            await self.recheck()
        else:
            self._done()

    async def recheck(self) -> None:
        """WESPA 3.10.9; 003 4.6.7: the same words judged again and recorded as a recheck."""
        self.outcome = self.app.station.recheck(self.outcome)  # recorded before it is shown
        await self.recompose()
        self._start_timers()
