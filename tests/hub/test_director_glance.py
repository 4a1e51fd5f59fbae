"""The director's page at a glance with sixty stations and thirty alarms (issue 43 item 1), in
chromium, WebKitGTK and Firefox ESR: one summary line at the top; the stations waiting (Accept,
Reject) and the most serious alarms on the first screen at 1280x800; the alarm that says stations
wait leads to them; alarms one line a group that opens by keyboard; a group marked handled greyed
until its cause returns; nothing wider than the screen at 390, 768, 1280 and 1920 px. Positions
are measured with getBoundingClientRect in each engine."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from big_hall import ALARMS, STATIONS, BigHall  # noqa: E402
from engines import ENTER, engine  # noqa: E402,F401 (the fixture)
from running_hub import RunningHub  # noqa: E402
from web_helpers import axe_violations  # noqa: E402
from web_helpers import browser  # noqa: E402,F401 (the fixture)

from adjudicator.hub import eventalarms  # noqa: E402

SIZES = ((1280, 800), (390, 844), (768, 1024), (1920, 1080))
MEASURE = """() => {
  const box = e => e.getBoundingClientRect();
  const summary = document.getElementById("summary");
  const words = getComputedStyle(summary);
  return {
    summary: [summary.textContent.replace(/\\s+/g, " ").trim(), box(summary).height,
              parseFloat(words.fontSize)],
    buttons: [...document.querySelectorAll("#waiting button")].map(b => [b.textContent,
              box(b).top, box(b).bottom]),
    groups: [...document.querySelectorAll("#alarms > li")].map(li => [
      li.querySelector("summary, .line, a").textContent.replace(/\\s+/g, " ").trim(),
      box(li).top, box(li).bottom]),
    wide: document.documentElement.scrollWidth, width: window.innerWidth,
    height: window.innerHeight};
}"""
READY = """() => document.querySelectorAll("#waiting button.accept").length === 2 &&
  document.body.textContent.includes("Desk 05: silent") &&
  document.getElementById("live").textContent.trim() === "live" """
GROUP = """(station, kind) => {  // the group's line of STATION's alarm saying KIND
  const li = [...document.querySelectorAll("#alarms li:not(.more)")].find(li =>
    li.querySelector(":scope > .line, :scope > details > summary") &&
    li.textContent.includes(station + ": " + kind));
  return li ? [li.className, li.querySelector("button.handled").getAttribute("aria-pressed"),
               li.querySelector("button.handled").textContent] : null;
}"""


@pytest.fixture
def hall(tmp_path):
    behind, eventalarms.BEHIND_AFTER = eventalarms.BEHIND_AFTER, 0.0
    hub = RunningHub(str(tmp_path / "hub.db"))
    big = BigHall(hub)
    try:
        big.build()
        yield big
    finally:
        big.stop()
        hub.stop()
        eventalarms.BEHIND_AFTER = behind


def url(hall) -> str:
    return f"{hall.hub.local_url}/?key={hall.hub.hub.director_token}"


class Chromium:
    """Playwright's page as the checks use a page (the engines' Page: engines.py)."""

    name = "chromium"
    narrowest = 0

    def __init__(self, page):
        self.p = page

    def js(self, source: str, *args):
        return self.p.evaluate(f"(args) => ({source})(...args)", list(args))

    def set_size(self, width: int, height: int) -> None:
        self.p.set_viewport_size({"width": width, "height": height})

    def enter(self, css: str) -> None:
        self.p.locator(css).press("Enter")

    def click(self, css: str) -> None:
        self.p.locator(css).first.click()


class Driven:
    """An engine's page (WebKitGTK, Firefox) as the checks use a page."""

    def __init__(self, page):
        self.p, self.name = page, page.name
        # their windows are never narrower: WebKitGTK makes 390 px 447, Firefox 500 (the
        # phone's tests: test_phone_engines.py); 390 itself is measured in chromium
        self.narrowest = 500

    def js(self, source: str, *args):
        return self.p.js(f"return ({source})(...arguments);", *args)

    def set_size(self, width: int, height: int) -> None:
        self.p.set_size(width, height)

    def enter(self, css: str) -> None:
        self.p.type(css, ENTER)

    def click(self, css: str) -> None:
        self.p.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center'});",
                  css)
        self.p.click(css)


def wait(page, source: str, *args, what: str = "", seconds: float = 20.0):
    import time

    deadline = time.monotonic() + seconds
    while True:
        value = page.js(source, *args)
        if value:
            return value
        assert time.monotonic() < deadline, f"{page.name}: waited for {what or source}"
        time.sleep(0.1)


def check_the_first_screen(page) -> None:
    """The summary line, the stations waiting and the most serious alarms on the first screen,
    and no sideways scroll at any size."""
    for width, height in SIZES:
        page.set_size(width, height)
        seen = wait(page, MEASURE.replace("() => {", "() => { if (window.innerWidth > "
                                          f"{max(width, page.narrowest)} || window.innerWidth"
                                          f" < {width - 20}) return null;", 1),
                    what="the new size")
        assert seen["wide"] <= seen["width"], (page.name, width, seen["wide"])
        if width != 1280:
            continue
        text, tall, font = seen["summary"]
        assert text.startswith("Club Open 2026 version 3: A: CSW24, 5-per-word; B: NWL2023, "
                               "double · "), text
        assert f"{STATIONS} stations: 55 live, 5 silent, 2 waiting" in text, text
        assert "Verdicts checked: " in text and text.endswith("1 disagrees · 3 on another list"), text
        assert tall < 2.2 * font, (page.name, "the summary is more than one line", tall)
        screen = seen["height"]
        assert [b[0] for b in seen["buttons"]] == ["Accept", "Reject"] * 2
        assert all(bottom <= screen for _, _, bottom in seen["buttons"]), (page.name, seen)
        groups = seen["groups"]
        assert groups[0][0] == "2 new stations wait for you: accept or reject them under " \
                               "Waiting for you"
        assert groups[1][0].startswith("Desk 09, table 13: said ACCEPTABLE for QZQZ")
        assert groups[2][0].startswith("Desk 31, table ") and "3 alarms" in groups[2][0]
        assert groups[-1][0].startswith(f"{25 - 10} more"), groups[-1]
        assert len(groups) == 11
        assert all(bottom <= screen for _, _, bottom in groups), (page.name, screen, groups)
    page.set_size(1280, 800)


def check_the_hand(page, hall) -> None:
    """The waiting alarm leads to the stations waiting; a group opens by keyboard; a group
    marked handled is greyed, kept through updates, and un-greyed when its cause returns."""
    page.click("#alarms > li:first-child a")
    wait(page, "() => document.activeElement.id === 'waiting-panel'", what="the waiting panel")
    page.enter("#alarms > li:nth-child(3) summary")
    wait(page, "() => document.querySelector('#alarms > li:nth-child(3) details').open",
         what="the group opened by Enter")
    shown = page.js("() => [...document.querySelectorAll('#alarms > li:nth-child(3) details "
                    "li')].map(li => li.getBoundingClientRect().height > 0 && li.textContent)")
    assert len(shown) == 3 and all("judged with NWL2020" in s for s in shown), shown
    page.enter("#alarms li.more > details > summary")  # the less serious: in view
    wait(page, "() => document.querySelector('#alarms li.more > details').open", what="more")
    assert page.js(GROUP, "Desk 14", "printer") == ["level-5", "false", "Mark handled"]
    page.click("#alarms li.more li.level-5 button.handled")  # the first less serious: Desk 14
    wait(page, f"() => ({GROUP})('Desk 14', 'printer')[0].includes('handled')",
         what="Desk 14's printer greyed")
    assert page.js(GROUP, "Desk 14", "printer")[1:] == ["true", "Handled ✓"]
    assert page.js("() => document.activeElement.dataset.focus || ''").startswith("handled:")
    last = page.js("() => [...document.querySelectorAll('#alarms li.more > details > ul > li')]"
                   ".pop().textContent")
    assert "Desk 14" in last and "printer" in last  # a handled group: listed last
    desk = hall.stations["Desk 14"]
    desk.beat(**{**desk.fields, "printer": "ready"})  # the cause ends...
    wait(page, f"() => !({GROUP})('Desk 14', 'printer')", what="Desk 14's printer fixed")
    assert page.js("() => document.querySelector('#alarms li.more > details').open")
    desk.beat(**desk.fields)  # ...and returns: not handled any more
    wait(page, f"() => ({GROUP})('Desk 14', 'printer')", what="Desk 14 out of paper again")
    assert page.js(GROUP, "Desk 14", "printer") == ["level-5", "false", "Mark handled"]


def test_sixty_stations_at_a_glance_in_chromium(browser, hall):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(url(hall))
        checked = Chromium(page)
        wait(checked, READY, what="the hall on the page")
        assert len(hall.hub.call(hall.hub.hub.board.snapshot)["alarms"]) == ALARMS
        check_the_first_screen(checked)
        check_the_hand(checked, hall)
        page.keyboard.press("Shift+Tab")  # by keyboard, every control shows the focus ring
        page.keyboard.press("Tab")
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
        page.locator("#alarms li.more > details > summary").focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("[document.activeElement.tagName, getComputedStyle("
                             "document.activeElement).outlineStyle]") == ["SUMMARY", "solid"]
        assert axe_violations(page) == []  # the groups' lines and Handled buttons named
        page.screenshot(path=str(Path(hall.hub.journal_path).parent / "glance.png"))
    finally:
        page.close()


def test_sixty_stations_at_a_glance_in_other_engines(engine, hall):
    engine.goto(url(hall))
    checked = Driven(engine)
    wait(checked, READY, what="the hall on the page")
    check_the_first_screen(checked)
    check_the_hand(checked, hall)
