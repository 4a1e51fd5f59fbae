"""The director's page in WebKitGTK (Safari's engine) and Firefox ESR: rows arrive live as a
station posts them, and a new station is accepted with its Accept button. Elements are found by
what they say (a row's words, a button named Accept beside the station's name), not by layout."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from engines import engine  # noqa: E402,F401 (the fixture)
from hub_process import HubProcess  # noqa: E402

from adjudicator.journal import Journal  # noqa: E402
from adjudicator.link.forward import Forwarder  # noqa: E402
from adjudicator.judging.verdict import adjudicate  # noqa: E402

# The Accept buttons for STATION: a button named exactly "Accept" whose nearest row, item or
# box (up to three levels) names the station.
ACCEPT_BUTTONS = """() => {
  const name = arguments[0];
  return [...document.querySelectorAll('button')].filter(b => {
    if (b.textContent.trim() !== 'Accept' || b.offsetParent === null) return false;
    let e = b.parentElement;
    for (let i = 0; i < 3 && e; i++, e = e.parentElement) {
      if (e.textContent.includes(name)) return true;
    }
    return false;
  });
}"""


@pytest.fixture
def hub(tmp_path):
    proc = HubProcess(tmp_path / "hub.toml")
    yield proc
    proc.stop()


def shot(page, tmp_path, name: str) -> None:
    path = tmp_path / f"{page.name}-{name}.png"
    page.screenshot(path)
    assert path.stat().st_size > 1000
    if os.environ.get("ADJUDICATOR_ENGINE_SHOTS"):
        shutil.copy(path, os.environ["ADJUDICATOR_ENGINE_SHOTS"])


def body_has(page, text: str) -> None:
    page.wait("return document.body.innerText.includes(arguments[0]);", text,
              what=f"{text!r} on the page")


def test_rows_arrive_live_and_a_new_station_is_accepted(engine, hub, tmp_path, make_lexicon):
    page = engine
    page.set_size(1280, 900)
    page.goto(hub.director_url)
    page.wait("const e = document.getElementById('live');"
              "return !!e && e.textContent.trim() === 'live';", what="the live feed")
    assert "QI ZA" not in page.text("body")

    lex = make_lexicon(["QI", "ZA", "CAT"], name="CSW24")
    path = tmp_path / "desk.db"
    desk = Journal.open(path)
    desk.forward()
    status = {"station": "Desk 8", "lexicon": lex.name, "fingerprint": lex.fingerprint,
              "printer": "ready"}
    fwd = Forwarder(str(path), hub.url, hub.token, status=lambda: status)
    try:
        desk.record(adjudicate(lex, ("QI", "ZA")), station="Desk 8", mode="station", table="12")
        fwd.push()
        # a new station waits for the director (issue 26): its row counts nowhere until then
        page.wait(f"return ({ACCEPT_BUTTONS})().length > 0;", "Desk 8",
                  what="an Accept button for Desk 8")
        assert "QI ZA" not in page.text("body")
        shot(page, tmp_path, "director-new-station")
        buttons = page.js(f"return ({ACCEPT_BUTTONS})();", "Desk 8")
        page.js("arguments[0].scrollIntoView({block: 'center'});", buttons[0])
        buttons[0].click()
        page.wait(f"return ({ACCEPT_BUTTONS})().length === 0;", "Desk 8",
                  what="no Accept button for Desk 8 once accepted")
        body_has(page, "QI ZA")  # accepted: its row on the board, the page never reloaded
        desk.record(adjudicate(lex, ("CAT", "QQ")), station="Desk 8", mode="station",
                    table="12")
        fwd.push()
        body_has(page, "CAT QQ")  # and live from then on
        assert "UNACCEPTABLE" in page.text("body")
        shot(page, tmp_path, "director-accepted")
        # issue 43 item 1: the board is drawn anew every second ("last heard"); a button
        # tabbed to keeps the focus through it, and Enter then opens the rename field
        focus = "return (document.activeElement && document.activeElement.dataset.focus) || '';"
        page.js("document.querySelector('#stations button.rename').focus();")
        page.js("document.querySelector('#stations tr').dataset.old = '1';")
        page.wait("return !document.querySelector('#stations tr[data-old]');",
                  what="the stations drawn anew")
        assert page.js(focus).startswith("rename:")
        page.js("document.activeElement.click();")
        page.wait("return (document.activeElement.dataset.focus || '').startsWith("
                  "'rename-field:');", what="the rename field, focused")
        page.js("document.activeElement.value = 'Desk 8 at the door';")
        page.js("document.querySelector('#stations tr').dataset.old = '1';")
        page.wait("return !document.querySelector('#stations tr[data-old]');",
                  what="the stations drawn anew")
        assert page.js(focus).startswith("rename-field:")
        assert page.js("return document.activeElement.value;") == "Desk 8 at the door"
        shot(page, tmp_path, "director-renaming")
        page.js("document.querySelector('.rename-form button[type=button]').click();")
        page.reload()  # the hub kept it: a fresh page offers no Accept for Desk 8 either
        body_has(page, "CAT QQ")
        page.wait("const e = document.getElementById('live');"
                  "return !!e && e.textContent.trim() === 'live';", what="the live feed")
        assert page.js(f"return ({ACCEPT_BUTTONS})().length;", "Desk 8") == 0
    finally:
        fwd.stop()
        desk.close()
