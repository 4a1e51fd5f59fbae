"""The director's page fits every screen (360 px to 1920 px) in Debian's chromium: each challenge's
verdict and flags always in view, long names cut to one line (whole on hover and focus), no row
left blank and tall; and a table judged from two phones is one table with both listed."""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from hub_process import HubProcess  # noqa: E402
from odd_station import OddStation  # noqa: E402
from web_helpers import browser  # noqa: E402,F401 (the fixture)

from adjudicator.journal.flags import RECHECKS_DIFFER, SPLIT_LOOKUP, UNKNOWN_RECHECK  # noqa: E402

WAIT = 20_000  # ms
WIDTHS = (360, 390, 1024, 1280, 1500, 1800, 1920)  # two columns from 1800
LONG_NAME = "Runner desk at the far end of the hall, beside the stage door (spare laptop)"


ROWS = """[...document.querySelectorAll("#latest tr")].map(tr => [tr.innerText,
  (() => {  // the row's height beyond what its cells hold: a blank band
    const boxes = [...tr.cells].map(td => {
      const range = document.createRange(); range.selectNodeContents(td);
      return range.getBoundingClientRect(); }).filter(r => r.height > 0);
    return tr.getBoundingClientRect().height - (Math.max(...boxes.map(r => r.bottom)) -
                                                Math.min(...boxes.map(r => r.top)));
  })(),
  [...tr.querySelectorAll("td.verdict, td.flags .flag-chip, td.words")].map(e => {
    const r = e.getBoundingClientRect();
    return [e.className, r.left, r.right, r.width > 0 && r.height > 0];
  })])"""
CUTS = """[...document.querySelectorAll("td .cut, li .cut")].map(e => {
  const r = e.getBoundingClientRect(); return [r.left, r.right]; })"""


@pytest.fixture
def hub(tmp_path):
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\n')
    proc = HubProcess(tmp_path / "hub.toml")
    yield proc
    proc.stop()


def busy_hall(hub) -> None:
    """Stations with long names, two phones at table 9, every kind of flag: a station's own
    (split look-up, rechecks differ, recheck of a challenge not there), the hub's cross-station
    split look-up, a long odd flag and more flags than a row lists; long words; odd tables."""
    now = datetime.now(timezone.utc) - timedelta(minutes=5)

    def at(seconds: int) -> dict:
        when = now + timedelta(seconds=seconds)
        return {"time_utc": when.isoformat(), "time_local": when.isoformat()}

    desk = OddStation(hub.url, hub.token, LONG_NAME)
    phones = OddStation(hub.url, hub.token, "Phones")
    other = OddStation(hub.url, hub.token, "Desk 2 " + "W" * 120)
    sends = [
        (desk, dict(game_table="12", **at(0))),
        (desk, dict(game_table="12", flags=f'["{RECHECKS_DIFFER}"]', recheck_of=1, **at(20))),
        (other, dict(game_table="12", station=other.name, **at(40))),  # the hub's split
        (phones, dict(game_table="9", station="Phones / phone-22d9d1", **at(60))),
        (phones, dict(game_table="9", station="Phones / phone-508aa6", acceptable=0,
                      flags=f'["{SPLIT_LOOKUP}"]', **at(70))),
        (desk, dict(game_table="Top table", flags=f'["{UNKNOWN_RECHECK}"]', **at(80))),
        (desk, dict(game_table="3", words=" ".join(["OXYPHENBUTAZONE"] * 8), **at(90))),
        (other, dict(game_table="²", station=other.name, **at(100))),
        (other, dict(game_table="4", station=other.name, acceptable=0, flags='["' + "printer "
                     "jammed while printing the slip, " * 6 + '", "a", "b", "c", "d", "e", "f",'
                     ' "g", "h", "i"]', **at(110))),
    ]
    for station, fields in sends:
        status, answer = station.send(**fields)
        assert status == 200, answer
    for station in (desk, phones, other):
        station.accept(hub.director_url)


def test_the_page_fits_every_screen_with_verdicts_and_flags_in_view(browser, hub, tmp_path):
    busy_hall(hub)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(hub.director_url)
        page.locator("#latest tr", has_text="recheck differs").wait_for(timeout=WAIT)
        page.locator("#latest tr", has_text="possible split look-up (table 12").wait_for(
            timeout=WAIT)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.wait_for_timeout(200)
            page.screenshot(path=str(tmp_path / f"director-{width}.png"), full_page=True)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"the page is {wide} px wide on a {width} px screen"
            rows = page.evaluate(ROWS)  # measured at once: the page redraws every second
            assert len(rows) == 9
            for text, blank, parts in rows:
                for part, left, right, shown in parts:
                    assert shown and 0 <= left and right <= width + 0.5, (width, text, part)
                assert blank < 20, (width, text, blank)  # a row no taller than what it holds
            for left, right in page.evaluate(CUTS):
                assert 0 <= left and right <= width + 0.5, (width, left, right)
        # a station's name is never cut (issue 43: two alike but for their ends read the same):
        # it wraps, whole, and stays whole and focused through the updates (and in its title)
        page.set_viewport_size({"width": 1024, "height": 900})
        name = page.locator("#latest td.station .cut", has_text="Runner desk").first
        assert name.get_attribute("title") == LONG_NAME
        assert name.inner_text() == LONG_NAME
        before = name.bounding_box()["height"]
        assert before > 30  # more than one line
        name.focus()
        page.wait_for_timeout(2500)  # the page is told something every second: still whole
        focused = page.locator("#latest td.station .cut:focus")
        assert focused.count() == 1 and focused.bounding_box()["height"] >= before
    finally:
        page.close()


def test_a_table_judged_from_two_phones_is_one_table(browser, hub):
    busy_hall(hub)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(hub.director_url)
        nine = page.locator("#tables tr", has_text="phone-22d9d1")
        nine.wait_for(timeout=WAIT)
        assert nine.locator("td.table").inner_text() == "9"
        assert "phone-508aa6" in nine.inner_text()
        assert page.locator("#tables tr", has_text="phone-508aa6").count() == 1
        tables = [t.inner_text() for t in page.locator("#tables td.table").all()]
        assert tables == ["3", "4", "9", "12", "Top table", "²"]  # numbers, then text
        twelve = page.locator("#tables tr").nth(3)
        assert LONG_NAME[:20] in twelve.inner_text() and "Desk 2" in twelve.inner_text()
        twelve.click()  # its latest challenges: from both stations
        from playwright.sync_api import expect

        expect(page.locator("#latest tr")).to_have_count(3, timeout=WAIT)
        assert "table 12" in page.locator("#only").inner_text()
        # the split look-up across the two stations stays an alarm
        page.locator("#alarms li:not(.more)", has_text="possible split look-up (table 12"
                     ).wait_for(state="attached", timeout=WAIT)  # (maybe among "N more")
    finally:
        page.close()
