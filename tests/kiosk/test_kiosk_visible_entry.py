"""The entry box shows each control or invisible character as its picture, one cell each, and its
cursor and clicks land on the character shown (issue 21; the pty tests read the real screen)."""

from __future__ import annotations

import pytest
from textual import events

from adjudicator.text.visible import visible
from kiosk.widgets.bigtext import BigText
from kiosk.widgets.entry_input import EntryInput

pytestmark = pytest.mark.asyncio
SIZE = (80, 24)
PASTED = "ca\u200bt\x1b[44m\u202exy\u2028zz"  # cut at a real line end only: U+2028 is kept


async def test_a_pasted_control_is_kept_and_shown_as_its_picture_in_step_with_the_cursor(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.post_message(events.Paste(PASTED + "\nsecond line"))
        await pilot.pause()
        box = app.screen.query_one(EntryInput)
        assert box.value == PASTED  # kept as pasted: the station refuses it, naming the U+...
        line = box.render_line(0).text
        assert visible(PASTED) in line and "\x1b" not in line and "\u200b" not in line
        assert box._position_to_cell(len(PASTED)) == len(PASTED)  # one cell a character
        assert box._cell_offset_to_index(3) == 3  # a click on the "t" (after the ␦) finds it
        big = app.screen.query_one("#typed", BigText)
        assert big.text == visible(PASTED).upper()
        await pilot.press("tab")
        await pilot.pause()
        message = str(app.screen.query_one("#message").render())
        assert "U+200B (ZERO WIDTH SPACE) is not a letter" in message
        assert app.station.judged_count() == 0


async def test_alt_and_ctrl_chords_type_nothing_even_with_a_character(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        box = app.screen.query_one(EntryInput)
        for key in (events.Key("alt+x", "x"), events.Key("alt+q", "q"), events.Key("ctrl+a", "a"),
                    events.Key("q", "q")):
            box.take_key(key)
        await pilot.pause()
        assert box.value == "q"


async def test_alt_chords_run_no_command_at_the_runners_desk(make_app, config):
    app = make_app(config=config.with_changes(mode="runner"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#table")
        for key in ("alt+p", "alt+r", "alt+l"):
            table.take_key(events.Key(key, key[-1]))
        table.take_key(events.Key("7", "7"))
        await pilot.pause()
        assert table.value == "7" and table.has_focus  # not the list, no recheck
        assert str(app.screen.query_one("#runner-print").render()) == ""  # nothing printed
        assert str(app.screen.query_one("#runner-message").render()) == ""
