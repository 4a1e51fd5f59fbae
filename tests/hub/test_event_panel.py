"""The director's Event panel in Debian's chromium: the event shown, a list changed and saved."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from test_event_join import lists, started  # noqa: E402,F401 (the fixture)
from web_helpers import browser  # noqa: E402,F401 (the fixture)

WAIT = 20_000  # ms: the bound of every wait (a slow shared machine)


@pytest.fixture
def panel(browser, start_hub, tmp_path, lists):
    """(hub, page): the event of two divisions set at the hub, its director's page open on it."""
    hub = started(start_hub, tmp_path)
    page = browser.new_page()
    try:
        page.goto(f"{hub.local_url}/?key={hub.hub.director_token}")
        page.wait_for_function("() => document.querySelectorAll('#divisions tr').length === 2",
                               timeout=WAIT)
        yield hub, page
    finally:
        page.close()


def test_the_director_changes_a_divisions_list_on_the_page(panel, tmp_path):
    hub, page = panel
    assert page.input_value("#event-name") == "Club Open 2026"
    assert page.locator("#event-version").inner_text() == "(version 1)"
    b = page.locator("#divisions tr").nth(1)
    assert b.locator(".list").input_value() == "TINYB"
    assert b.locator(".list option").all_inner_texts() == ["TINYA", "TINYB", "TINYC"]
    b.locator(".list").select_option("TINYC")
    page.fill("#event-name", "Club Open 2026, day 2")
    page.click("#save-event")
    page.wait_for_function("() => document.getElementById('event-said').textContent"
                           ".startsWith('Saved')", timeout=WAIT)
    said = page.locator("#event-said").inner_text()
    assert said == ("Saved (version 2): name 'Club Open 2026' -> 'Club Open 2026, day 2'; "
                    "division B: list TINYB -> TINYC")
    written = tomllib.loads((tmp_path / "hub.toml").read_text())
    assert written["event"]["name"] == "Club Open 2026, day 2"
    assert [d["lexicon"] for d in written["division"]] == ["TINYA", "TINYC"]
    assert hub.hub.event.version == 2
    # a change the hub refuses is said on the page, and nothing changes
    page.locator("#divisions tr").nth(1).locator(".tables").fill("5")
    page.click("#save-event")
    page.wait_for_function("() => document.getElementById('event-said').textContent"
                           ".startsWith('Not saved')", timeout=WAIT)
    assert "overlap: table 5 is in both" in page.locator("#event-said").inner_text()
    assert hub.hub.event.version == 2


def test_a_stale_save_on_the_page_says_what_changed_and_the_pin_is_set_there(panel):
    import json

    from test_event_join import post

    from adjudicator.event.pin import verify_pin

    hub, page = panel
    assert page.locator("#event-pin-said").inner_text() == "No PIN set yet"
    # another director saves first, from another page
    other = {"name": "Day 2", "version": 1, "divisions": [
        {"name": "A", "lexicon": "TINYA", "challenge_rule": "5-per-word", "tables": "1-20"},
        {"name": "B", "lexicon": "TINYB", "challenge_rule": "double", "tables": "21-40"}]}
    url = f"{hub.local_url}/api/event?key={hub.hub.director_token}"
    assert post(url, other)[0] == 200
    page.locator("#divisions tr").nth(1).locator(".list").select_option("TINYC")
    page.click("#save-event")
    page.wait_for_function("() => document.getElementById('event-said').textContent"
                           ".startsWith('Not saved')", timeout=WAIT)
    said = page.locator("#event-said").inner_text()
    assert "the event changed since this panel was loaded (version 1, now 2)" in said
    assert "name 'Club Open 2026' -> 'Day 2'" in said
    assert page.input_value("#event-name") == "Day 2"  # the event as it is now
    assert page.locator("#event-version").inner_text() == "(version 2)"
    assert hub.hub.event.division("B").lexicon == "TINYB"  # nothing overwritten
    # a PIN too short is refused on the page; one of 6 digits is set
    page.fill("#event-pin", "1234")
    page.click("#save-event")
    page.wait_for_function("() => document.getElementById('event-said').textContent"
                           ".includes('at least 6 digits')", timeout=WAIT)
    page.fill("#event-pin", "246801")
    page.click("#save-event")
    page.wait_for_function("() => document.getElementById('event-said').textContent"
                           ".startsWith('Saved')", timeout=WAIT)
    assert page.locator("#event-said").inner_text() == \
        "Saved (version 3): director PIN changed"
    assert verify_pin("246801", hub.hub.event.pin_hash)
    assert page.input_value("#event-pin") == ""
    assert page.locator("#event-pin-said").inner_text() == \
        "A PIN is set (leave empty to keep it)"
    last = json.loads(json.dumps(hub.call(hub.hub.ledger.event_changes)[-1]))
    assert last["who"].endswith("on the director's page")
