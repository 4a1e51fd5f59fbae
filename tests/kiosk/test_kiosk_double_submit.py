"""One challenge, one row, one verdict screen, whatever arrives together (issue 28, item 4).

Two clicks on ADJUDICATE read in one go, or a click and TAB, journaled two rows; the second push
of the verdict screen stopped its timer and the station ignored every key for good. On the
verdict, NEXT and RECHECK read together journaled a recheck nobody saw. Here the requests are
made in one tick (as one read of the terminal makes them); tests/kiosk/test_kiosk_pty_double.py
sends the real bytes through a pseudo-terminal.
"""

from __future__ import annotations

import pytest
from kiosk_helpers import elapse, screen_name
from textual import events

from kiosk.screens.verdict import VerdictScreen

pytestmark = pytest.mark.asyncio

SIZE = (80, 24)


async def settle(pilot, n: int = 4):
    for _ in range(n):
        await pilot.pause()


def verdict_screens(app) -> int:
    return sum(isinstance(screen, VerdictScreen) for screen in app.screen_stack)


async def judged_once(pilot, app) -> None:
    """After a challenge made in one tick: one row, one verdict screen, its timers running,
    and the station back at Ready when its clear timer runs out."""
    assert app.station.journal.count() == 1
    assert screen_name(app) == "VerdictScreen" and verdict_screens(app) == 1
    await elapse(pilot, app, 300)  # verdict_clear
    assert screen_name(app) == "ReadyScreen"


@pytest.mark.parametrize("order", ["click click", "click tab", "tab click", "tab tab",
                                   "click tab click"])
async def test_requests_to_judge_read_together_make_one_challenge(make_app, order):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"cat xu")
        await settle(pilot)
        button = app.screen.query_one("#adjudicate")
        entry = app.screen.query_one("#entry")
        for request in order.split():
            if request == "click":
                button.press()  # its message is handled after this tick, as a click's is
            else:
                entry.take_key(events.Key("tab", "\t"))  # applied at once, as the App does
        await settle(pilot)
        await judged_once(pilot, app)
        await pilot.press(*"qi", "tab")  # and the station judges on
        await settle(pilot)
        assert app.station.journal.count() == 2 and screen_name(app) == "VerdictScreen"


@pytest.mark.parametrize("order", ["next recheck", "key recheck", "recheck key",
                                   "recheck recheck", "recheck next"])
async def test_next_and_recheck_read_together_never_journal_an_unseen_recheck(make_app, order):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"cat xu", "tab")
        await settle(pilot)
        await elapse(pilot, app, 0.2)  # past the hold
        verdict = app.screen
        for request in order.split():
            if request == "key":
                verdict.post_message(events.Key("x", "x"))
            else:
                verdict.query_one(f"#{request}").press()
        await settle(pilot)
        rows = app.station.journal.count()
        if screen_name(app) == "VerdictScreen":  # the recheck was made, and is what is shown
            assert rows == 2 and verdict_screens(app) == 1
            assert "RECHECK OF #1" in str(verdict.query_one("#recheck-of").render())
            await elapse(pilot, app, 300)
            assert screen_name(app) == "ReadyScreen"
        else:  # NEXT came first: back to Ready, and no recheck was journaled
            assert screen_name(app) == "ReadyScreen" and rows == 1
        if order.startswith("recheck recheck"):
            assert rows == 2  # the second, held, is ignored
        await pilot.press(*"qi", "tab")  # never wedged: the station judges on
        await settle(pilot)
        assert app.station.journal.count() == rows + 1 and screen_name(app) == "VerdictScreen"


async def test_a_recheck_asked_while_the_verdict_is_held_is_ignored(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"cat xu", "tab")
        await settle(pilot)
        app.screen.recheck()  # held: the end of a burst, a leaning elbow
        await settle(pilot)
        assert app.station.journal.count() == 1
