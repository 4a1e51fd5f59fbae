"""A kiosk station serving two divisions on different lists (issue 27): it asks for the table
before the words, as the runner's desk does, says the table's division and list, and judges with
them; no table, or a table no division plays at, is refused and nothing is judged."""

from __future__ import annotations

import os

import pytest
from kiosk_helpers import elapse, screen_name, text_of

from adjudicator.config.station import parse_config
from adjudicator.lexicon.compile import compile_sources

pytestmark = pytest.mark.asyncio

SIZE = (100, 30)
SHOTS = os.environ.get("ADJUDICATOR_SCREENSHOTS")  # a folder to keep a screenshot in, to look at


@pytest.fixture
def divisions_config(config, tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    for name, words in (("ALPHA", ["ZO", "QI", "CAT"]), ("BETA", ["QI", "CAT"])):
        (tmp_path / f"{name}.txt").write_text("\n".join(words) + "\n")
        compile_sources([str(tmp_path / f"{name}.txt")], str(folder / f"{name}.lex"), name=name)
    event = parse_config({"lexicon_dirs": [str(folder)], "division": [
        {"name": "A", "lexicon": "ALPHA", "tables": "1-20", "challenge_rule": "5-per-word"},
        {"name": "B", "lexicon": "BETA", "tables": "21-40", "challenge_rule": "double"}]})
    return config.with_changes(lexicon_dirs=event.lexicon_dirs,
                               event_divisions=event.event_divisions)


async def settle(pilot, n: int = 3):
    for _ in range(n):
        await pilot.pause()


async def test_the_table_comes_first_and_decides_the_list(make_app, divisions_config):
    app = make_app(config=divisions_config)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#table")
        assert app.focused is table  # before the words
        assert text_of(app, "#lexicon") == ("Lexicon: by table · A (tables 1-20): ALPHA · "
                                            "B (tables 21-40): BETA")
        await pilot.press("enter")
        await settle(pilot)
        assert "Type the table number first" in text_of(app, "#message")
        await pilot.press(*"45", "enter")
        await settle(pilot)
        assert "Table 45 is in no division here" in text_of(app, "#message")
        assert app.focused is table and app.station.journal.count() == 0
        await pilot.press("backspace", "backspace", *"25", "enter")
        await settle(pilot)
        assert text_of(app, "#lexicon").startswith("Table 25 · Division B · Lexicon: BETA — ")
        assert "double" in text_of(app, "#rule").lower() or "turn" in text_of(app, "#rule")
        assert app.focused is app.screen.query_one("#entry")
        await pilot.press(*"zo")
        await settle(pilot)
        if SHOTS:
            app.save_screenshot("kiosk-divisions-ready.svg", SHOTS)
        await pilot.press("tab")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        assert "UNACCEPTABLE" in text_of(app, "#plain")
        row = app.station.journal.get(1)
        assert (row.table, row.lexicon_name, row.rule) == ("25", "BETA", "double")
        await elapse(pilot, app, 0.4)
        await pilot.press("enter")  # NEXT
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen" and app.focused is table
        assert table.value == "" and text_of(app, "#lexicon").startswith("Lexicon: by table")
        await pilot.press(*"5", "tab", *"zo", "tab")
        await settle(pilot)
        assert "ACCEPTABLE" in text_of(app, "#plain") and "UN" not in text_of(app, "#plain")
        row = app.station.journal.get(2)
        assert (row.table, row.lexicon_name, row.rule) == ("5", "ALPHA", "5-per-word")


async def test_words_typed_without_a_table_are_not_judged(make_app, divisions_config):
    app = make_app(config=divisions_config)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#entry").focus()  # a click on the words box first
        await pilot.press(*"zo", "tab")
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen" and app.station.journal.count() == 0
        assert "Type the table number first" in text_of(app, "#message")
        assert app.focused is app.screen.query_one("#table")


async def test_the_runners_desk_judges_each_slip_with_its_tables_list(make_app, divisions_config):
    app = make_app(config=divisions_config.with_changes(mode="runner"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert screen_name(app) == "RunnerScreen"
        assert text_of(app, "#lexicon") == ("Lexicon and rule by table · A (tables 1-20): ALPHA"
                                            " · B (tables 21-40): BETA")
        await pilot.press(*"45", "enter", "enter", *"zo", "tab")
        await settle(pilot)
        assert "Table 45 is in no division here" in text_of(app, "#runner-message")
        assert app.focused is app.screen.query_one("#table")
        assert app.station.journal.count() == 0
        await pilot.press("backspace", "backspace", *"25", "enter", "enter", "tab")
        await settle(pilot)
        assert "Table 25 · BETA" in text_of(app, "#last-record")
        assert "UNACCEPTABLE" in text_of(app, "#last-mark")
        await pilot.press(*"5", "enter", "enter", *"zo", "tab")
        await settle(pilot)
        assert "Table 5 · ALPHA" in text_of(app, "#last-record")
        rows = [app.station.journal.get(n) for n in (1, 2)]
    assert [(r.table, r.lexicon_name, r.rule, r.acceptable) for r in rows] == [
        ("25", "BETA", "double", False), ("5", "ALPHA", "5-per-word", True)]
