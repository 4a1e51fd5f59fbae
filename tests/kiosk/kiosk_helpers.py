"""Helpers for the kiosk tests: fixed clocks, the tiny list, a failing journal, screen text."""

from __future__ import annotations

import datetime as dt

from adjudicator.errors import JournalError

FIXED_TIME = dt.datetime(2026, 11, 22, 14, 3, 22, tzinfo=dt.timezone.utc)

# Not a real word list: QI ZA CAT are "words", XYZZY is not.
TINY = ["QI", "ZA", "CAT"]


class BrokenJournal:
    """A journal whose disk has failed: every write raises JournalError."""

    def record(self, *args, **kwargs):
        raise JournalError("disk I/O error writing /tmp/journal.db")

    def count(self):
        raise JournalError("disk I/O error")

    def recent(self, n=20):
        return []

    def close(self):
        pass


def screen_name(app) -> str:
    return type(app.screen).__name__


def text_of(app, selector: str) -> str:
    """The plain text a Static shows."""
    return str(app.screen.query_one(selector).render())


def screen_lines(app) -> list[str]:
    """The characters of every row of the terminal, as the compositor draws them."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


class StepClock:
    """The protocol's clock in Pilot tests: its seconds pass only when a test says (elapse).

    On a loaded machine a real 0.2 s verdict hold ran out before the test looked at it (and a
    stray key meant for the hold was taken as NEXT): a test on protocol time must not depend on
    how fast the machine is."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def elapse(pilot, app, seconds: float, tries: int = 1500) -> None:
    """SECONDS pass on the protocol's clock; returns once the screens have applied any timer
    that ran out (no deadline left overdue), then lets them repaint. The screens' own timers
    wake within the (real) seconds the protocol asked for; bounded by tries, never timed."""
    clock = app.protocol_clock
    clock.now += seconds
    protocol = app.protocol
    for _ in range(tries):
        if protocol.deadline is None or protocol.deadline > clock():
            break
        await pilot.pause(0.02)
    else:
        raise AssertionError(f"the protocol's timer never ran out (state {protocol.state})")
    for _ in range(3):
        await pilot.pause()
