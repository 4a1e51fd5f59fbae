"""The director's page in Debian's chromium: live rows, alarms in words, behind its own key."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from hub_process import AttentiveDirector, HubProcess, accept_waiting  # noqa: E402
from web_helpers import browser  # noqa: E402,F401 (the fixture)

from adjudicator.link.forward import Forwarder  # noqa: E402
from adjudicator.journal import Journal  # noqa: E402
from adjudicator.judging.verdict import adjudicate  # noqa: E402

WAIT = 20_000  # ms: the bound of every wait (a slow shared machine)


@pytest.fixture
def hub(tmp_path):
    """A hub whose director accepts every new station at once."""
    proc = HubProcess(tmp_path / "hub.toml")
    director = AttentiveDirector(proc)
    yield proc
    director.stop()
    proc.stop()


@pytest.fixture
def bare_hub(tmp_path):
    """A hub whose director accepts nothing unless the test presses the button."""
    proc = HubProcess(tmp_path / "hub.toml")
    yield proc
    proc.stop()


def cells(row) -> list[str]:
    """A table row's cells' text, read at once (the page redraws every second)."""
    return row.evaluate("tr => [...tr.cells].map(td => td.innerText)")


def station(tmp_path, hub, name, lex, printer="ready"):
    path = tmp_path / f"{name}.db"
    journal = Journal.open(path)
    journal.forward()
    status = {"station": name, "lexicon": lex.name, "fingerprint": lex.fingerprint,
              "printer": printer}
    return journal, Forwarder(str(path), hub.url, hub.token, status=lambda: status)


def test_the_page_follows_the_hall_live_and_names_alarms_in_words(browser, hub, tmp_path,
                                                                  make_lexicon):
    csw = make_lexicon(["QI", "ZA", "CAT"], name="CSW24")
    page = browser.new_page()
    page.goto(hub.director_url)
    page.get_by_text("live", exact=True).wait_for(timeout=WAIT)
    assert page.locator("#alarms").inner_text().startswith("none")

    desk, desk_fwd = station(tmp_path, hub, "Desk 1", csw)
    desk.record(adjudicate(csw, ("QI", "ZA")), station="Desk 1", mode="station", table="12")
    desk_fwd.push()
    latest = page.locator("#latest tr").first
    latest.get_by_text("QI ZA").wait_for(timeout=WAIT)
    assert "ACCEPTABLE" in latest.inner_text() and "12" in latest.inner_text()

    # a second row arrives without a reload; the table's counts follow
    desk.record(adjudicate(csw, ("CAT", "QQ")), station="Desk 1", mode="station", table="12")
    desk_fwd.push()
    page.locator("#latest tr").first.get_by_text("CAT QQ").wait_for(timeout=WAIT)
    table, _, judged, *counts = cells(page.locator("#tables tr").first)
    assert (table, counts[:3]) == ("12", ["2", "1", "1"]) and judged.startswith("Desk 1 (2)")

    # another station judging with another list, its printer out of paper
    nwl = make_lexicon(["QI", "ZA"], name="NWL2023")
    other, other_fwd = station(tmp_path, hub, "Desk 2", nwl, printer="paper out")
    other_fwd.push()
    third, third_fwd = station(tmp_path, hub, "Desk 3", csw)
    third_fwd.push()
    alarms = page.locator("#alarms")
    alarms.get_by_text("Desk 2: lexicon mismatch").wait_for(timeout=WAIT)
    alarms.get_by_text("Desk 2: printer: out of paper").wait_for(timeout=WAIT)

    # rows known to be waiting at a station
    for _ in range(3):
        third.record(adjudicate(csw, ("QI",)), station="Desk 3", mode="station", table="4")
    third_fwd.beat()
    alarms.get_by_text("Desk 3: backlog 3").wait_for(timeout=WAIT)
    third_fwd.push()
    from playwright.sync_api import expect

    expect(alarms).not_to_contain_text("backlog", timeout=WAIT)
    for journal, fwd in ((desk, desk_fwd), (other, other_fwd), (third, third_fwd)):
        fwd.stop()
        journal.close()
    page.close()


def test_the_station_token_opens_no_page(browser, hub):
    page = browser.new_page()
    response = page.goto(f"{hub.local_url}/?key={hub.token}")
    assert response.status == 403
    assert "for the tournament director" in page.inner_text("body")
    assert "Latest challenges" not in page.content()
    page.close()


def test_the_page_rides_out_a_hub_restart_and_shows_the_journal_again(browser, tmp_path,
                                                                      make_lexicon):
    from playwright.sync_api import expect

    lex = make_lexicon(["QI", "ZA"], name="CSW24")
    hub = HubProcess(tmp_path / "hub.toml")
    port, page_port = (int(url.rsplit(":", 1)[1]) for url in (hub.url, hub.local_url))
    desk, fwd = station(tmp_path, hub, "Desk 5", lex)
    desk.record(adjudicate(lex, ("ZA", "QI")), station="Desk 5", mode="station", table="3")
    fwd.push()
    assert accept_waiting(hub.director_url) == 1
    page = browser.new_page()
    try:
        page.goto(hub.director_url)
        page.locator("#latest").get_by_text("ZA QI").wait_for(timeout=WAIT)
        hub.stop()
        expect(page.locator("#live")).to_have_text("hub not answering: retrying", timeout=WAIT)
        hub = HubProcess(tmp_path / "hub.toml", port=port,  # same journal: same key, rows
                         args=("--director-port", str(page_port)))
        expect(page.locator("#live")).to_have_text("live", timeout=WAIT)
        page.locator("#latest").get_by_text("ZA QI").wait_for(timeout=WAIT)
        table, _, judged, count, *_ = cells(page.locator("#tables tr").first)
        assert (table, count) == ("3", "1") and judged.startswith("Desk 5 (1)")
    finally:
        page.close()
        fwd.stop()
        desk.close()
        hub.stop()


def test_a_tables_latest_challenges_are_one_click_away(browser, hub, tmp_path, make_lexicon):
    lex = make_lexicon(["QI", "ZA", "CAT"], name="CSW24")
    desk, fwd = station(tmp_path, hub, "Desk 6", lex)
    for words, table in ((("QI",), "4"), (("CAT", "QQ"), "8"), (("ZA",), "4")):
        desk.record(adjudicate(lex, words), station="Desk 6", mode="station", table=table)
    fwd.push()
    page = browser.new_page()
    try:
        page.goto(hub.director_url)
        four = page.locator("#tables tr", has_text="ZA: ACCEPTABLE")
        four.wait_for(timeout=WAIT)
        table, _, judged, *counts = cells(four)
        assert (table, counts[:3]) == ("4", ["2", "2", "0"]) and judged.startswith("Desk 6 (2)")
        four.click()
        from playwright.sync_api import expect

        expect(page.locator("#latest tr")).to_have_count(2, timeout=WAIT)  # table 4's only
        assert "CAT QQ" not in page.locator("#latest").inner_text()
        assert "table 4" in page.locator("#only").inner_text()
        four.click()
        expect(page.locator("#latest tr")).to_have_count(3, timeout=WAIT)
    finally:
        page.close()
        fwd.stop()
        desk.close()


def test_a_new_station_waits_on_the_page_until_accepted(browser, bare_hub, tmp_path,
                                                         make_lexicon):
    """A station heard for the first time is only in the waiting panel (its address, when it
    joined, the rows it holds, its name with the invisible character drawn), counted nowhere,
    until the director presses Accept (its rows then join the board) or Reject (gone, refused
    from then on); the page posts with the director's key."""
    from playwright.sync_api import expect

    hub = bare_hub
    lex = make_lexicon(["QI"], name="CSW24")
    desk, fwd = station(tmp_path, hub, "Desk 8", lex)
    desk.record(adjudicate(lex, ("QI",)), station="Desk 8", mode="station", table="2")
    fwd.push()
    ghost, ghost_fwd = station(tmp_path, hub, "Desk 8\u200b", lex)
    ghost.record(adjudicate(lex, ("QI",)), station="Desk 8\u200b", mode="station", table="5")
    ghost_fwd.push()
    page = browser.new_page()
    try:
        page.goto(hub.director_url)
        panel = page.locator("#waiting-panel")
        expect(panel.locator("tr", has_text="Desk 8\u2426")).to_have_count(1, timeout=WAIT)
        expect(panel.locator("tbody tr")).to_have_count(2, timeout=WAIT)
        expect(panel.locator("tbody tr").first).to_contain_text("127.0.0.1")
        expect(page.locator("#latest tr")).to_have_count(0)
        expect(page.locator("#tables tr")).to_have_count(0)
        expect(page.locator("#stations tr")).to_have_count(0)
        page.screenshot(path=str(tmp_path / "waiting.png"), full_page=True)
        page.on("dialog", lambda dialog: dialog.accept())
        panel.locator("tr", has_text="Desk 8\u2426").get_by_role("button", name="Reject").click()
        expect(panel.locator("tbody tr")).to_have_count(1, timeout=WAIT)
        panel.get_by_role("button", name="Accept").click()
        expect(panel).to_be_hidden(timeout=WAIT)
        expect(page.locator("#latest tr td").nth(1)).to_have_text("Desk 8", timeout=WAIT)
        expect(page.locator("#stations tr")).to_have_count(1)
    finally:
        page.close()
        for journal, sender in ((desk, fwd), (ghost, ghost_fwd)):
            sender.stop()
            journal.close()


def test_a_station_claiming_a_taken_name_can_be_accepted_in_its_place(browser, bare_hub,
                                                                      tmp_path, make_lexicon):
    from playwright.sync_api import expect

    hub = bare_hub
    lex = make_lexicon(["QI"], name="CSW24")
    first, first_fwd = station(tmp_path, hub, "Desk 7", lex)
    first.record(adjudicate(lex, ("QI",)), station="Desk 7", mode="station", table="1")
    first_fwd.push()
    assert accept_waiting(hub.director_url) == 1
    path = tmp_path / "replaced.db"
    second = Journal.open(path)
    second.forward()
    second.record(adjudicate(lex, ("QI",)), station="Desk 7", mode="station", table="1")
    second_fwd = Forwarder(str(path), hub.url, hub.token)
    try:
        second_fwd.push()
    except Exception:  # noqa: BLE001 - refused: the name is Desk 7's
        pass
    page = browser.new_page()
    try:
        page.goto(hub.director_url)
        alarm = page.locator("#alarms li", has_text="another key claims the name 'Desk 7'")
        alarm.wait_for(timeout=WAIT)
        page.screenshot(path=str(tmp_path / "claim.png"), full_page=True)
        alarm.get_by_role("button", name="Accept in its place").click()
        expect(page.locator("#alarms")).not_to_contain_text("claims the name", timeout=WAIT)
        assert second_fwd.push().acked == 1
    finally:
        page.close()
        for journal, fwd in ((first, first_fwd), (second, second_fwd)):
            fwd.stop()
            journal.close()


def test_a_page_beyond_the_cap_of_live_views_says_so_then_follows_when_one_closes(browser, hub):
    import socket

    from adjudicator.hub.stream import MAX_STREAMS

    port = int(hub.local_url.rsplit(":", 1)[1])
    key = hub.director_url.split("key=")[1]
    others = []
    for _ in range(MAX_STREAMS):
        s = socket.create_connection(("127.0.0.1", port), timeout=20)
        s.sendall(f"GET /events?key={key} HTTP/1.1\r\nHost: hub\r\n\r\n".encode())
        assert s.recv(1024).startswith(b"HTTP/1.1 200")
        others.append(s)
    page = browser.new_page()
    page.goto(hub.director_url)
    page.locator("#live").get_by_text("Too many live views").wait_for(timeout=WAIT)
    assert "close the director's page in another tab" in page.locator("#live").inner_text()
    others.pop().close()
    page.get_by_text("live", exact=True).wait_for(timeout=WAIT)  # it tries again by itself
    for s in others:
        s.close()


def test_the_page_warns_while_tshs_file_does_not_read_and_stops_when_it_does(browser, tmp_path):
    import json

    from playwright.sync_api import expect

    good = "newt = " + json.dumps({"config": {}, "divisions": [{"name": "A", "players": [
        None, {"id": 1, "name": "Smith, Ann", "pairings": [2], "etc": {"board": [1]}},
        {"id": 2, "name": "Jones, Bo", "pairings": [1], "etc": {"board": [1]}}]}]}) + ";\n"
    (tmp_path / "tourney.js").write_text(good)
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\ntsh = "tourney.js"\n')
    proc = HubProcess(tmp_path / "hub.toml")
    try:
        page = browser.new_page()
        page.goto(proc.director_url)
        page.get_by_text("live", exact=True).wait_for(timeout=WAIT)
        notice = page.locator("#notice")
        expect(notice).to_be_hidden()
        (tmp_path / "tourney.js").write_text(good[:40])  # tsh caught mid-write
        expect(notice).to_be_visible(timeout=WAIT)
        assert notice.inner_text().startswith("tsh file unreadable since ")
        assert "cut short" in notice.inner_text() and "last good reading" in notice.inner_text()
        (tmp_path / "tourney.js").write_text(good)
        expect(notice).to_be_hidden(timeout=WAIT)
    finally:
        proc.stop()
