"""The director's page in Debian's chromium with one station's flood of odd tables: the tables the
page can show are listed, the rest counted in words under them ("and 440 more tables"), and the
honest desk's table is among those listed (issue 41 item 6)."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from hub_process import HubProcess  # noqa: E402
from odd_station import OddStation  # noqa: E402
from web_helpers import browser  # noqa: E402,F401 (the fixture)

from adjudicator import wire  # noqa: E402

WAIT = 20_000  # ms


@pytest.fixture
def hub(tmp_path):
    proc = HubProcess(tmp_path / "hub.toml")
    yield proc
    proc.stop()


def _accepted(hub: HubProcess, name: str) -> OddStation:
    station = OddStation(hub.url, hub.token, name)
    assert station.beat()[0] == 200
    url = hub.director_url.replace("/?key=", "/api/accept?key=")
    urllib.request.urlopen(urllib.request.Request(url, method="POST", data=json.dumps(
        {"station": wire.key_id(station.key)}).encode()), timeout=20).close()
    return station


def test_tables_beyond_what_the_page_shows_are_counted_in_words(browser, hub):
    assert _accepted(hub, "Desk 7").send(game_table="7")[0] == 200
    flood = _accepted(hub, "Flood")
    for start in range(0, 500, 100):
        rows = []
        for i in range(start, start + 100):
            row = flood.row(game_table="\u0416" * 496 + f"{i:04d}")
            flood.seq, flood.last = row["seq"], row["hash"]
            rows.append(row)
        assert flood.post("/api/rows", {"journal_id": flood.journal_id, "station": "Flood",
                                        "key": flood.key.hex(), "rows": rows})[0] == 200
    with urllib.request.urlopen(hub.director_url.replace("/?key=", "/state?key="),
                                timeout=20) as r:
        state = json.loads(r.read())
    more = state["tables_more"]
    assert more > 0 and len(state["tables"]) + more == 501
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(hub.director_url)
        said = page.locator("#tables-more")
        said.filter(has_text="more tables").wait_for(timeout=WAIT)
        assert said.inner_text().startswith(f"and {more:,} more tables")
        assert page.locator("#tables tr").count() == len(state["tables"])
        assert page.locator("#tables tr", has_text="Desk 7").count() == 1
    finally:
        page.close()
