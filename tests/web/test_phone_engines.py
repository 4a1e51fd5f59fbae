"""The phone page's whole flow in the engines phones run besides chromium: WebKitGTK (Safari's
engine, as on iPhones) and Firefox ESR (WESPA 3.11.1(b): the opponent adjudicates the play).
Phone widths and touch stay tested in chromium (test_phone.py): WebKitGTK's window is at least
447 px wide and Firefox's 500, and neither is driven with touch here."""

from __future__ import annotations

import os
import shutil

from engines import engine  # noqa: F401 (the fixture)

from adjudicator.text.entry import MAX_ENTRY_CHARS
from adjudicator.journal import Journal

BLUE, ORANGE = "rgb(0, 90, 156)", "rgb(230, 159, 0)"  # ACCEPTABLE, UNACCEPTABLE


def journal_rows(server) -> list:
    journal = Journal.open(str(server.config.parent / "journal.db"))
    try:
        return [(r.words, r.acceptable, r.table, r.round) for r in reversed(journal.recent(20))]
    finally:
        journal.close()


def view(page) -> str:
    return page.js("return document.body.dataset.view;")


def wait_view(page, name: str) -> None:
    page.wait("return document.body.dataset.ready === '1' && document.body.dataset.view === "
              "arguments[0];", name, what=f"the {name} view")


def verdict_colour(page) -> str:
    return page.js("return getComputedStyle(document.getElementById('verdict')).backgroundColor;")


def shot(page, tmp_path, name: str) -> None:
    """A screenshot kept with the test (and copied to $ADJUDICATOR_ENGINE_SHOTS to look at)."""
    path = tmp_path / f"{page.name}-{name}.png"
    page.screenshot(path)
    assert path.stat().st_size > 1000
    if os.environ.get("ADJUDICATOR_ENGINE_SHOTS"):
        shutil.copy(path, os.environ["ADJUDICATOR_ENGINE_SHOTS"])


def test_the_phone_flow_from_table_to_verdict_reload_and_a_long_paste(engine, server, tmp_path):
    page = engine
    page.set_size(412, 915)  # WebKitGTK makes it 447 wide, Firefox 500: their smallest
    page.goto(server.url)
    page.clear_cookies()  # a device of its own, whatever an earlier test left
    page.goto(server.url)
    wait_view(page, "table")
    assert page.js("return document.activeElement.id;") == "table"
    shot(page, tmp_path, "table")

    page.type("#table", "12")
    page.type("#round", "3")
    page.click("#table-form button[type=submit]")
    wait_view(page, "ready")
    assert "Table 12 · Round 3" in page.text("#where")
    assert "tap ADJUDICATE" in page.text("#steps")

    page.type("#words", "qi za")
    page.wait("return document.body.dataset.view === 'entry';", what="the entry view")
    shot(page, tmp_path, "entry")
    page.click("#adjudicate")  # the opponent's tap
    wait_view(page, "verdict")
    shown = page.text("#verdict")
    assert "✔" in shown and "ACCEPTABLE" in shown and "UNACCEPTABLE" not in shown, shown
    assert "Words: QI ZA" in shown and "Its player scores 10 extra points" in shown
    assert verdict_colour(page) == BLUE
    shot(page, tmp_path, "acceptable")

    page.wait("const n = document.getElementById('next');"
              "return n.offsetParent !== null && n.getBoundingClientRect().height > 0;",
              what="NEXT after the hold")
    page.click("#next")
    wait_view(page, "ready")
    page.type("#words", "qi zzz", "\ue007")  # Enter judges like the button
    wait_view(page, "verdict")
    shown = page.text("#verdict")
    assert "✘" in shown and "UNACCEPTABLE" in shown and "comes off the board" in shown, shown
    assert verdict_colour(page) == ORANGE
    shot(page, tmp_path, "unacceptable")

    page.reload()  # a reload cannot hide a verdict
    wait_view(page, "verdict")
    assert "Words: QI ZZZ" in page.text("#verdict") and "UNACCEPTABLE" in page.text("#verdict")
    assert "Table 12" in page.text("#where")

    page.wait("return document.getElementById('next').offsetParent !== null;", what="NEXT")
    page.click("#next")
    wait_view(page, "ready")
    page.type("#words", "qi ")
    pasted = ("abcdefghijklmno " * 38)[:600]
    page.paste("#words", pasted)  # refused whole, with its real length
    error = page.wait_text("#error", "Not taken")
    assert "Not taken (600 characters)" in error and f"at most {MAX_ENTRY_CHARS}" in error, error
    assert page.value("#words") == "qi "  # nothing of the paste, nothing lost
    shot(page, tmp_path, "paste-refused")
    page.type("#words", "za", "\ue007")
    wait_view(page, "verdict")
    assert "Words: QI ZA" in page.text("#verdict")

    assert journal_rows(server) == [(("QI", "ZA"), True, "12", "3"),
                                    (("QI", "ZZZ"), False, "12", "3"),
                                    (("QI", "ZA"), True, "12", "3")]
    assert page.js("return location.href;") == server.base + "/"  # the token left the bar

    # issue 43 item 4: Change table starts the field empty, so "1" at table 12 is table 1
    page.wait("return document.getElementById('next').offsetParent !== null;", what="NEXT")
    page.click("#next")
    wait_view(page, "ready")
    page.click("#change")
    wait_view(page, "table")
    assert page.value("#table") == ""
    page.type("#table", "1", "\ue007")
    wait_view(page, "ready")
    assert page.text("#where").startswith("Table 1 ")
    assert "Now at table 1." in page.text("#seated")
