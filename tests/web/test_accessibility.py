"""An axe-core audit of every view of the phone page and of the director's page, in Debian's
chromium at phone sizes with touch: no violation, whatever its impact (issue 21, item 12)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from web_helpers import axe_violations

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hub"))

from test_phone import enter, open_page, sit_at, verdict_text


@pytest.mark.parametrize("viewport", [{"width": 320, "height": 568}, {"width": 390, "height": 844}],
                         ids=lambda v: f"{v['width']}x{v['height']}")
def test_every_view_of_the_phone_page_passes_an_axe_audit(enable_config, start_server,
                                                          new_device, viewport):
    """Today: `page-has-heading-one` on the entry view; the refusal was plain text (no title, no
    language, no heading). Every view, as a player meets it, is audited."""
    server = start_server()
    page = new_device(viewport=viewport)
    found: dict[str, list[str]] = {}

    def audit(view: str) -> None:
        found[view] = axe_violations(page)

    page.goto(f"{server.base}/?token=wrong")  # an old link: the refusal page (403)
    audit("refusal")
    open_page(page, server)
    assert page.evaluate("document.body.dataset.view") == "table"
    audit("table chooser")
    page.tap("button[type=submit] >> text=START")  # no table typed: "Type the table number."
    page.wait_for_selector("#table-error:not(:empty)")
    audit("table chooser, nothing typed")
    sit_at(page, "12", "3")
    audit("entry")
    enter(page, "qi cat5")
    audit("entry, typed")
    page.tap("#adjudicate")
    page.wait_for_selector("#error:not(:empty)")
    audit("malformed")
    page.fill("#words", "")
    enter(page, "quixotic jo")
    page.tap("#adjudicate")
    verdict_text(page)
    page.wait_for_selector("body[data-view=verdict] #next")
    audit("verdict acceptable")
    page.tap("#recheck-button")
    page.wait_for_selector("body[data-view=verdict] #recheck:not(:empty)")
    audit("recheck")
    page.tap("#next")
    enter(page, "qi zzz")
    page.tap("#adjudicate")
    page.wait_for_selector("body[data-view=verdict] #next")
    assert "UNACCEPTABLE" in page.inner_text("#word")
    audit("verdict unacceptable")
    page.tap("#next")
    for _ in range(2):  # the same device opens the judge twice more: the first page is told
        open_page(page.context.new_page(), server)
    page.wait_for_selector("body[data-view=notice]")
    audit("notice: opened again")
    page = page.context.pages[-1]
    server.stop()  # the laptop goes away: "Connection lost: reconnecting…"
    page.wait_for_selector("body[data-view=connecting]")
    audit("connection lost")
    assert found == {view: [] for view in found}, {v: f for v, f in found.items() if f}
    assert len(found) == 11


def test_the_directors_page_passes_an_axe_audit(browser, tmp_path):
    """Today: `color-contrast` (serious) on 2 nodes, the clock on the dark header and the hint
    under the tables. A hall with alarms, flags, both verdicts and a chosen table."""
    from hub_process import HubProcess
    from hub_screenshot import accept_all_but_one, ghost, hall, tsh_file

    tsh_file(tmp_path)
    hub = HubProcess(tmp_path / "hub.toml")
    page = browser.new_page(viewport={"width": 1280, "height": 820})
    try:
        beats = hall(tmp_path, hub)
        accept_all_but_one(hub)
        ghost(tmp_path, hub)  # the waiting panel shown too
        page.goto(hub.director_url)
        page.locator("#alarms li", has_text="printer: out of paper").wait_for(timeout=20_000)
        page.locator("#tables tr", has_text="Station 1").first.wait_for(timeout=20_000)
        time.sleep(0.5)  # the clock has ticked once
        whole = axe_violations(page)
        page.locator("#tables tr", has_text="Station 1").first.click()
        page.wait_for_selector("#tables tr.chosen")
        chosen = axe_violations(page)
        for forwarder in beats:
            forwarder.stop()
    finally:
        page.close()
        hub.stop()
    assert whole == [] and chosen == [], whole + chosen
