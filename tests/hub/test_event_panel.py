"""The director's Event panel in Debian's chromium: the event shown, a list changed and saved."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from test_event_join import lists, started  # noqa: E402,F401 (the fixture)
from web_helpers import browser  # noqa: E402,F401 (the fixture)

WAIT = 20_000  # ms: the bound of every wait (a slow shared machine)


def test_the_director_changes_a_divisions_list_on_the_page(browser, start_hub, tmp_path,
                                                          lists):
    hub = started(start_hub, tmp_path)
    page = browser.new_page()
    try:
        page.goto(f"{hub.url}/?key={hub.hub.director_token}")
        page.wait_for_function("() => document.querySelectorAll('#divisions tr').length === 2",
                               timeout=WAIT)
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
    finally:
        page.close()
