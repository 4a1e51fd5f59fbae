"""Any text an honest station can send (a table "²", Arabic-Indic digits, 10,000 characters,
controls, bidi marks, lone surrogates) is shown and sorted by the hub, or refused with a 400
naming the field: /, /state and /events answer 200 after each, before and after a restart, and the
director's page renders it. What a table is: adjudicator/event/tables.py, one rule for both sides."""

from __future__ import annotations

import http.client
import json
import os
import sys
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from odd_station import OddStation  # noqa: E402
from web_helpers import browser  # noqa: E402,F401 (the fixture)

from adjudicator.event import tables  # noqa: E402
from adjudicator.hub import stream  # noqa: E402
from adjudicator.hub.board import Board  # noqa: E402
from adjudicator.text.visible import is_hidden  # noqa: E402

FULL = os.environ.get("ADJUDICATOR_FULL") == "1"
EXAMPLES = int(os.environ.get("ADJUDICATOR_FUZZ_FIELDS", 400 if FULL else 40))
ODD = ["²", "¹²", "１２", "١٢", "۱۲", "߁", "0", "00", "10000", "-1", "1e3", " 7 ", "07",
       "\u202eDesk 1", "Desk\u200b1", "\u2066x\u2069", "\ufeff", "\x00", "\x1b[2J", "\r\n",
       "\x7f", "\u0085", "\u2028", "\ud800", "\udfff", "\U0010ffff", "😀", "ﷺ", "𒐫" * 50,
       "x" * 10_000, "²" * 10_000, "[" * 5000 + "]" * 5000]
# every code point, lone surrogates included (hypothesis leaves them out unless asked)
ANY_CHAR = st.characters(exclude_categories=())
TEXT = st.one_of(st.sampled_from(ODD), st.text(ANY_CHAR, max_size=40),
                 st.builds(lambda c, n: c * n, st.sampled_from(ODD[:10]), st.integers(1, 600)))


def test_a_table_is_a_number_from_1_to_9999_in_ascii_digits_or_a_short_name():
    assert [tables.check_table(t) for t in ("7", "07", " 12 ", "9999", "A3", "Top table", "")] \
        == ["7", "7", "12", "9999", "A3", "Top table", ""]
    for odd in ("²", "１２", "١٢", "0", "10000", "-1", "x" * 17, "\x1b[2J", "\u202e1"):
        with pytest.raises(tables.TableError, match="is not a table: type a number from 1 "
                           "to 9999"):
            tables.check_table(odd)
    with pytest.raises(tables.TableError, match="Round '٣' is not a round"):
        tables.check_table("٣", "round")


@given(st.lists(TEXT, max_size=12))
def test_any_text_sorts_and_shows(texts):
    ordered = sorted(texts, key=tables.sort_key)  # never int("²")
    numbers = [t for t in ordered if tables.number(t) is not None]
    assert ordered[:len(numbers)] == numbers and [tables.number(t) for t in numbers] == sorted(
        tables.number(t) for t in numbers)
    for text in texts:
        shown = tables.shown(text)
        assert len(shown) <= tables.SHOWN + 1 and not any(map(is_hidden, shown))
        if tables.number(text) is not None:
            assert text.strip().isascii() and 1 <= tables.number(text) <= 9999
        try:
            kept = tables.check_table(text)
        except tables.TableError as e:
            assert e.code == "table" and "\x1b" not in str(e)
        else:  # what a station records is plain ASCII, short, and a table again
            assert kept == "" or (kept.isascii() and len(kept) <= 16 and kept.isprintable())
            assert tables.check_table(kept) == kept


FIELDS = ("game_table", "round", "station", "device", "words", "flags", "flag", "beat")


@given(st.sampled_from(FIELDS), TEXT)
def test_the_board_shows_any_field_a_station_sends(field, text):
    board = Board(names=lambda table, round_: "")
    board.heartbeat("j", {"station": "Desk 1"})
    board.add_rows("j", [_row(field, text)])
    board.add_rows("k", [_row("game_table", text)])
    board.heartbeat("j", _beat(text) if field == "beat" else {"station": "Desk 1"})
    state = board.snapshot()
    json.dumps(state)  # as /state sends it
    stream.encode(stream.full_message(state))  # as /events sends it


def _row(field: str, text: str) -> dict:
    row = {"station": "Desk 1", "game_table": "4", "round": None, "words": "QI ZA",
           "acceptable": 1, "time_utc": "2026-11-22T14:00:00+00:00", "flags": "[]",
           "recheck_of": None, "origin_seq": 1, "fingerprint": "ab" * 32}
    if field == "device":
        row["station"] = f"Phones / {text}"
    elif field == "flag":
        row["flags"] = json.dumps([text, text])
    elif field != "beat":
        row[field] = text
    return row


def _beat(text: str) -> dict:
    return {"station": text, "printer": text, "lexicon": text, "fingerprint": text,
            "sender": text, "clock": text, "mode": text, "status_problem": text}


def _fields(field: str, text: str) -> dict:
    """A row's fields for FIELD holding TEXT (a device: a phone's name under its server's)."""
    if field == "device":
        return {"station": f"Phones / {text}"}
    if field == "flag":
        return {"flags": json.dumps([text, "possible split look-up", text[:30]])}
    return {} if field == "beat" else {field: text}


def _answers(hub, key: str) -> None:
    """/, /state and the first message of /events answer 200 (and the JSON reads)."""
    for path in ("/", "/state"):
        with urllib.request.urlopen(f"{hub.url}{path}?key={key}", timeout=20) as r:
            assert r.status == 200
            body = r.read()
            if path == "/state":
                json.loads(body)
    conn = http.client.HTTPConnection("127.0.0.1", hub.local_port, timeout=20)
    try:
        conn.request("GET", f"/events?key={key}")
        response = conn.getresponse()
        assert response.status == 200
        data = b""
        while b"\n\n" not in data:
            chunk = response.read1(65536)
            assert chunk, "the stream ended before its first message"
            data += chunk
        assert json.loads(data.split(b"\n\n")[0].removeprefix(b"data: "))["full"]
    finally:
        conn.close()


def _page_renders(browser, hub, key: str) -> None:
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1024, "height": 800})
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{hub.local_url}/?key={key}")
        page.get_by_text("live", exact=True).wait_for(timeout=20_000)
        page.locator("#latest tr").first.wait_for(timeout=20_000)
        page.locator("#tables tr").first.wait_for(timeout=20_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= 1024
        assert not errors, errors
    finally:
        page.close()


def test_a_hub_shows_any_field_a_station_sends_before_and_after_a_restart(start_hub,
                                                                          browser, tmp_path):
    hub = start_hub(tmp_path / "hub.db")
    key = hub.hub.director_token
    desk = OddStation(hub.url, hub.hub.station_token)
    assert desk.send()[0] == 200
    desk.accept(f"{hub.local_url}/?key={key}")  # accepted: its rows count everywhere on the board
    taken, refused, errors = [], [], []
    page = browser.new_page(viewport={"width": 1024, "height": 800})  # open all along
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{hub.local_url}/?key={key}")
    page.get_by_text("live", exact=True).wait_for(timeout=20_000)

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(FIELDS), TEXT)
    def sends(field, text):
        who = desk  # a name is a key's own (one name a key): a new name comes with a new key
        if field in ("station", "device"):
            who = OddStation(hub.url, hub.hub.station_token,
                             text if field == "station" else f"Phones / {text}")
        status, answer = who.send(**_fields(field, text))
        named = field in ("station", "device")  # another key's name, or a look-alike: 409
        assert status in ((200, 400, 409) if named else (200, 400)), (status, answer)
        if status == 400:  # never 500, never a stuck chain (422)
            refused.append(answer["error"])
            assert "not a station's message" in answer["error"]
        elif status == 409:
            assert "name" in answer["error"], answer
        else:
            taken.append(field)
            if who is not desk:
                who.accept(f"{hub.local_url}/?key={key}")
        status, answer = desk.beat(**(_beat(text) if field == "beat" else {}))
        assert status in ((200, 400, 409) if field == "beat" else (200, 400)), (status, answer)
        _answers(hub, key)
        assert not errors, errors  # the open page drew every change so far
        assert page.locator("#live").inner_text() == "live"

    sends()
    page.wait_for_timeout(1500)  # the last change drawn too
    assert not errors and page.locator("#latest tr").count() > 0, errors
    page.close()
    for field, text in [("game_table", "²"), ("round", "²"), ("words", "x" * 10_000),
                        ("flag", "\x1b[2J" * 1000)]:
        assert desk.send(**_fields(field, text))[0] == 200, field  # shown, not refused
    odd_name = OddStation(hub.url, hub.hub.station_token, "\u202eDesk ²")
    assert odd_name.send()[0] == 200  # a name with a bidi mark: shown with its picture
    odd_name.accept(f"{hub.local_url}/?key={key}")
    for field, text, why in [("game_table", "\ud800", "game_table holds a lone surrogate"),
                             ("flags", "[" * 5000 + "]" * 5000, "flags must be a JSON list"),
                             ("game_table", "x" * 10_000, "game_table is longer than 500")]:
        status, answer = desk.send(**{field: text})
        assert status == 400 and why in answer["error"], (field, answer)
    _answers(hub, key)
    _page_renders(browser, hub, key)
    port = hub.port
    hub.stop()
    hub = start_hub(tmp_path / "hub.db", port=port)  # the rows come back from its journal
    _answers(hub, key)
    state = json.loads(urllib.request.urlopen(f"{hub.local_url}/state?key={key}",
                                              timeout=20).read())
    assert "²" in [t["table"] for t in state["tables"]]
    assert [t["table"] for t in state["tables"]][0] == "4"  # numbers first
    _page_renders(browser, hub, key)
