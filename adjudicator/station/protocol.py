"""The self-adjudication protocol as data: a station's states, its timers, and the words it shows.

WESPA 3.10.8 and NASPA IV.J.1 a: the challenger types the words, may add or remove words until the
opponent executes the adjudication (on a keyboard station, TAB: NASPA IV.J.1). The verdict is
held briefly against stray keys, then a key that means "next" (a letter, a digit, Space, Enter,
NEXT; see means_next) or its timer brings the station back to Ready.
Every surface (the kiosk, the runner's desk, the phone page) renders this one behaviour: it asks
the Protocol what state it is in and when the next timer runs out, and tells it what happened.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from typing import NamedTuple


class State(enum.Enum):
    """Where the players are in the protocol."""

    READY = "ready"  # nothing typed: the two steps are shown
    ENTRY = "entry"  # the challenger is typing; the opponent checks, then adjudicates
    VERDICT_HELD = "verdict-held"  # the verdict, ignoring keys for timers.verdict_hold
    VERDICT = "verdict"  # the verdict; a "next" key, NEXT, or timers.verdict_clear: back to Ready


class Action(enum.Enum):
    """What a key pressed on the verdict means."""

    IGNORE = "ignore"  # held: the end of a burst or a leaning elbow never skips the verdict
    RECHECK = "recheck"  # WESPA 3.10.9; 003 4.6.7
    NEXT = "next"


class Words(NamedTuple):
    """What a surface says at each step; keyboard and touch surfaces name their own key."""

    step_1: str
    step_2: str
    hint: str  # ENTER pressed where TAB adjudicates (keyboard), or a reminder (touch)
    next_hint: str


KEYBOARD = Words(
    step_1="1. CHALLENGER: type the words of the play, separated by spaces.",
    step_2="2. OPPONENT: check them, then press TAB.",
    hint="Press TAB (or ADJUDICATE) to judge: the opponent checks the words first.",
    next_hint="R: recheck the same words · SPACE, ENTER or another letter: next challenge",
)
TOUCH = Words(
    step_1="1. CHALLENGER: type the words of the play, separated by spaces.",
    step_2="2. OPPONENT: check them, then tap ADJUDICATE.",
    hint="Tap ADJUDICATE to judge: the opponent checks the words first.",
    next_hint="RECHECK: the same words again · NEXT: the next challenge",
)


# Keys that mean "next" on a released verdict besides a letter or a digit (a single character):
# Textual's names and the browser's (KeyboardEvent.key). Nothing else does: a modifier pressed
# alone (a player starting Ctrl+'+' to zoom, a hand resting on Shift), TAB, ESCAPE, an arrow, a
# function key or a chord leaves the verdict for the other player to read (issue 36).
NEXT_KEYS = frozenset({"space", "enter", " ", "Enter"})
RECHECK_KEYS = frozenset({"r", "R", "shift+r"})


def means_next(key: str) -> bool:
    """True when KEY (a key's name, or the one character it types) means "next challenge":
    a letter or a digit of any script, Space or Enter."""
    return key in NEXT_KEYS or (len(key) == 1 and key.isalnum())


def steps_text(words: Words = KEYBOARD, *, entering: bool) -> str:
    """The two steps at rest; only the opponent's step once the challenger has typed."""
    return words.step_2 if entering else f"{words.step_1}\n{words.step_2}"


class Protocol:
    """One station's (or one table's) place in the protocol, with its one running timer.

    TIMERS has entry_idle, verdict_hold and verdict_clear in seconds (adjudicator.config.station.Timers).
    Nothing here sleeps or schedules: a surface reads `deadline` (on CLOCK's scale) and calls
    `expire()` when it has passed; `remaining()` says how long until then.
    """

    def __init__(self, timers, clock: Callable[[], float] = time.monotonic):
        self.timers = timers
        self._clock = clock
        self.state = State.READY
        self.deadline: float | None = None
        self._verdict_shown_at: float | None = None
        self.judging = False  # a judgement or recheck taken and not yet shown (take_judgement)
        self.held_until: float | None = None  # a refusal held as a verdict is (refused(held))

    def remaining(self) -> float | None:
        """Seconds until the running timer runs out (0 when overdue); None when none runs."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self._clock())

    def typed(self, text: str) -> State:
        """The entry now reads TEXT: Entry while anything is typed (its idle timer restarted)."""
        if self.state in (State.VERDICT_HELD, State.VERDICT):
            return self.state  # keys on a verdict are the verdict's (see key_on_verdict)
        if text.strip():
            self.state = State.ENTRY
            self.deadline = self._clock() + self.timers.entry_idle
        else:
            self.state, self.deadline = State.READY, None
        return self.state

    def take_judgement(self) -> bool:
        """A request to judge the entry (TAB, ADJUDICATE, a tap): True when it is taken.

        Only Ready or Entry take one, and one at a time: until judged() (or refused()) every
        further request to judge or to recheck is refused. Two clicks on ADJUDICATE, or a click
        and TAB, that arrive together are one challenge: one row, one verdict (issue 28).
        """
        if self.judging or self.state not in (State.READY, State.ENTRY):
            return False
        self.judging = True
        return True

    def take_recheck(self) -> bool:
        """A request to recheck (R, RECHECK): True when it is taken, only on a verdict the
        players can see released (not held, not gone), one at a time; then judged()."""
        if self.judging or self.state is not State.VERDICT:
            return False
        self.judging = True
        return True

    def refused(self, held: bool = False) -> State:
        """The judgement taken was not made (the entry was refused): the entry stays as it was.

        HELD: refused after it was taken to be recorded (a journal another program held
        locked): the refusal is held as a verdict is, timers.verdict_hold, so that no key read
        with the TAB, during the wait or just after can paint over it unread (issue 42)."""
        self.judging = False
        if held:
            self.held_until = self._clock() + self.timers.verdict_hold
        return self.state

    def holding(self) -> bool:
        """True while a refusal is held (refused(held=True)): every key does nothing."""
        if self.held_until is not None and self._clock() >= self.held_until:
            self.held_until = None
        return self.held_until is not None

    def judged(self) -> State:
        """A verdict is shown (first judgement or recheck): held, then waiting for the players."""
        self.judging = False
        now = self._clock()
        self._verdict_shown_at = now
        if self.timers.verdict_hold > 0:
            self.state, self.deadline = State.VERDICT_HELD, now + self.timers.verdict_hold
        else:
            self.state, self.deadline = State.VERDICT, now + self.timers.verdict_clear
        return self.state

    def key_on_verdict(self, key: str) -> Action:
        """What KEY (its name, or the character it types) means on the verdict: ignored while
        held, R rechecks, a letter, a digit, Space or Enter is next (means_next); any other key
        (a modifier alone, TAB, a function key, a chord) does nothing."""
        if self.judging or self.state is not State.VERDICT:  # held, gone, or being rechecked
            return Action.IGNORE
        if key in RECHECK_KEYS:
            return Action.RECHECK
        return Action.NEXT if means_next(key) else Action.IGNORE

    def next_challenge(self) -> State:
        """The players are done with the verdict: Ready, the entry cleared."""
        self.state, self.deadline, self._verdict_shown_at = State.READY, None, None
        self.judging = False
        self.held_until = None
        return self.state

    def expire(self) -> State:
        """Apply a timer that has run out: idle entry cleared, hold released, verdict cleared."""
        if self.judging or self.deadline is None or self._clock() < self.deadline:
            return self.state  # (a judgement under way is shown before any timer applies)
        if self.state is State.ENTRY:
            return self.next_challenge()  # unfinished entry cleared: Ready again
        if self.state is State.VERDICT_HELD:
            shown = self._verdict_shown_at if self._verdict_shown_at is not None else self._clock()
            self.state = State.VERDICT
            self.deadline = shown + self.timers.verdict_clear
            if self.deadline <= self._clock():
                return self.next_challenge()
            return self.state
        return self.next_challenge()
