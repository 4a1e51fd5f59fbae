"""A box's Focus event never edits what was typed into it: keys that arrive in one read.

Textual's Input selects its whole value when it handles its own Focus event (select_on_focus).
That event waits in the box's own message queue, while the App applies the keys of a burst as
they arrive (kiosk/widgets/entry_input.py): on a loaded machine the box handled its Focus only
after letters had been typed into it, selected them, and the next letter replaced them. At the
runner's desk "12 ENTER 3 ENTER car rap TAB" was judged as RAP, and at the station "za" became
"a". Here a whole burst is posted to the App in two reads, the boxes' own queues running
between them: the late Focus happens every time, load or not.
"""

from __future__ import annotations

import pytest

from adjudicator.journal import Journal
from kiosk_helpers import screen_name, text_of
from textual import events

pytestmark = pytest.mark.asyncio

SIZE = (100, 40)
KEYS = {"\r": ("enter", None), "\t": ("tab", None), " ": ("space", " "), "\x1b": ("escape", None)}


def burst(app, typed: str) -> None:
    """TYPED posted to the App in one go, as the terminal driver posts the keys of one read."""
    for ch in typed:
        key, character = KEYS.get(ch, (ch, ch))
        app.post_message(events.Key(key, character))


async def settle(pilot, n: int = 5) -> None:
    for _ in range(n):
        await pilot.pause()


@pytest.fixture
def runner_app(make_app, config):
    return make_app(config=config.with_changes(mode="runner"))


def rows(app):
    return [(r.table, r.round, r.words, r.recheck_of) for r in app.station.journal.recent(20)][::-1]


async def test_runner_desk_burst_keeps_every_letter_typed_after_a_focus_move(runner_app):
    app = runner_app
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert screen_name(app) == "RunnerScreen"
        burst(app, "12\r3\rca")  # the entry handles its Focus after "ca" was typed in it
        await settle(pilot)
        burst(app, "r rap\t13\r\rp")  # the round is kept: ENTER goes past it unchanged
        await settle(pilot)
        burst(app, "rr qi\t")
        await settle(pilot)
        assert rows(app) == [("12", "3", ("CAR", "RAP"), None), ("13", "3", ("PRR", "QI"), None)]


async def test_runner_desk_kept_round_is_replaced_by_a_new_one_typed(runner_app):
    """Round is kept from the last slip, selected when the cursor reaches it: typing a new
    round replaces it (as Textual's select-on-focus did in calm conditions), in key order."""
    app = runner_app
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        burst(app, "12\r3\rqi\t14\r4\rza\t")
        await settle(pilot)
        assert rows(app) == [("12", "3", ("QI",), None), ("14", "4", ("ZA",), None)]


async def test_runner_desk_words_kept_after_escape_are_not_replaced_on_return(runner_app):
    app = runner_app
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        burst(app, "\r\rqi\x1b7\r\r")  # no table yet: ESC back, type it, back to the words
        await settle(pilot)
        burst(app, " za\t")  # ...which go on where they were left
        await settle(pilot)
        assert rows(app) == [("7", None, ("QI", "ZA"), None)]


async def test_a_refused_command_key_then_the_table_judges_the_words_typed(runner_app):
    """The pty test's sequence (tests/kiosk/test_kiosk_pty_order.py), as bursts."""
    app = runner_app
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        burst(app, "7\r1\rza\t")
        await settle(pilot)
        burst(app, "\r\rq")  # the entry handles its Focus after the "q"
        await settle(pilot)
        burst(app, "i\t")  # no table: answered in place, back to Table
        await settle(pilot)
        assert "table number" in text_of(app, "#runner-message")
        burst(app, "r")
        await settle(pilot)
        assert "Finish the slip first" in text_of(app, "#runner-message")
        burst(app, "8\r\r\t")
        await settle(pilot)
        assert rows(app) == [("7", "1", ("ZA",), None), ("8", "1", ("QI",), None)]


async def test_station_burst_right_after_the_entry_is_focused(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.screen.query_one("#entry").blur()
        await settle(pilot)
        app.screen.query_one("#entry").focus()  # as after a verdict: Focus handled late
        burst(app, "q")
        await settle(pilot)
        burst(app, "i za\t")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        assert app.station.journal.get(1).words == ("QI", "ZA")


async def test_runner_desk_refuses_a_table_that_is_not_one_and_puts_the_cursor_there(
        runner_app):
    """Table 0 (the box takes digits only: "0" and "0000" can be typed) is not a table
    (adjudicator/event/tables.py): said in place, nothing judged, the cursor back in Table; "07" is
    recorded as table 7."""
    app = runner_app
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        burst(app, "0\r2\rqi\t")
        await settle(pilot)
        assert "'0' is not a table" in text_of(app, "#runner-message")
        assert rows(app) == [] and app.focused.id == "table"
        app.screen.query_one("#table").value = ""
        burst(app, "07\r\r\t")
        await settle(pilot)
        assert rows(app) == [("7", "2", ("QI",), None)]
