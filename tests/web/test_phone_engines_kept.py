"""What issue 43 added to the phone page, held in WebKitGTK and Firefox ESR too: words typed
survive a restart of the server and a lost ADJUDICATE says after 3 s that the link is slow; a
journal held locked by another program says "Still recording", then no verdict, words kept;
another phone's challenge at the table freshens this one's count; in Firefox's own forced
colours (its "override the page's colours" setting) every button keeps an edge and the verdict
its mark and word in a frame. (chromium: test_phone.py, test_phone_verdict.py.)"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import time
import warnings

import aiohttp
import pytest
from engines import ENTER, engine, start_firefox  # noqa: F401 (the fixture)
from test_phone_engines import wait_view
from test_phone_verdict_engines import judge, sit

EDGES = ("return arguments[0].map((id) => { const s = getComputedStyle("
         "document.getElementById(id)); return [id, parseFloat(s.borderTopWidth), "
         "s.borderTopStyle, s.borderTopColor]; });")


def test_words_typed_survive_a_server_restart_and_a_lost_tap_names_the_link(
        engine, start_server):  # noqa: F811 (the fixture)
    page = engine
    page.set_size(412, 915)
    server = start_server()
    sit(page, server, "7", "1")
    page.type("#words", "qi za")
    time.sleep(0.3)  # the typed frame sent
    os.killpg(server.proc.pid, signal.SIGKILL)
    wait_view(page, "connecting")
    start_server("--port", str(server.port))
    page.wait("return document.body.dataset.view === 'entry';", timeout=30,
              what="the entry again, on the new server")
    assert page.value("#words").upper() == "QI ZA"
    assert page.text("#where").startswith("Table 7")
    page.reload()  # the new server holds them too
    wait_view(page, "entry")
    assert page.value("#words").upper() == "QI ZA"
    page.click("#adjudicate")
    wait_view(page, "verdict")
    assert "Words: QI ZA" in page.text("#verdict")
    page.click("#next")
    wait_view(page, "ready")
    assert page.value("#words") == ""  # judged: not given back again
    # a judge frame lost on the way: nothing said at once, then the link named after 3 s
    page.js("const send = WebSocket.prototype.send; WebSocket.prototype.send = function (d) {"
            " if (!String(d).includes('\"judge\"')) send.call(this, d); };")
    page.type("#words", "cat", ENTER)
    assert page.text("#error") == ""
    said = page.wait_text("#error", "No answer yet", timeout=10)
    assert "Wi-Fi" in said and "call the director" in said and "words are kept" in said


async def _other_phone(server, table: str, plays: int) -> None:
    """Another device at TABLE (a websocket client, as the page is): PLAYS challenges."""
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar) as session:
        async with session.get(server.url) as response:
            assert response.status == 200
        async with session.ws_connect(server.base.replace("http", "ws", 1) + "/ws") as ws:
            async def until(wanted):
                while True:
                    frame = json.loads((await ws.receive(timeout=20)).data)
                    if wanted(frame):
                        return frame
            await until(lambda m: m["t"] == "state")
            await ws.send_str(json.dumps({"t": "table", "table": table}))
            await until(lambda m: m["t"] == "state" and m.get("view") == "ready")
            for _ in range(plays):
                await ws.send_str(json.dumps({"t": "judge", "text": "qi"}))
                held = await until(lambda m: m["t"] == "state" and "verdict" in m)
                await asyncio.sleep((held.get("remaining") or 0) + 0.1)
                await ws.send_str(json.dumps({"t": "expire"}))  # the hold over, as the page says
                await until(lambda m: m["t"] == "state" and m.get("view") == "verdict")
                await ws.send_str(json.dumps({"t": "next"}))
                await until(lambda m: m["t"] == "state" and m.get("view") == "ready")


def test_another_phones_challenge_at_the_table_freshens_the_count(
        engine, server):  # noqa: F811 (the fixture)
    page = engine
    page.set_size(412, 915)
    sit(page, server, "3", "1")
    assert page.text("#where").endswith("challenges here: 0")
    asyncio.run(_other_phone(server, "3", 2))
    page.wait("return document.getElementById('where').textContent"
              ".endsWith('challenges here: 2');", what="the fresh count")
    judge(page, "qi")
    assert "Challenge #3" in page.text("#record")


def test_in_firefoxs_forced_colours_buttons_keep_an_edge_and_the_verdict_a_frame(
        divisions_config, start_server):
    server = start_server()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:  # Settings, Colours, "Override the colours specified by the page": Always
            page, stop = start_firefox({"browser.display.document_color_use": 2})
        except Exception as error:  # noqa: BLE001 - any failure to start is a reason to skip
            pytest.skip(f"firefox could not start: {type(error).__name__}: {error}")
    try:
        page.set_size(500, 915)
        page.goto(server.url)
        wait_view(page, "table")
        assert page.js("return matchMedia('(forced-colors: active)').matches;")

        def edged(ids):
            for id_, width, style, colour in page.js(EDGES, ids):
                assert width >= 2 and style != "none" and colour not in (
                    "rgba(0, 0, 0, 0)", "transparent"), (id_, width, style, colour)

        page.js("document.querySelector('#table-form button.big').id = 'start';")
        edged(["start"])
        page.type("#table", "4", ENTER)
        wait_view(page, "ready")
        edged(["adjudicate", "change"])
        for words, mark, word, style in (("qi", "✔", "ACCEPTABLE", "solid"),
                                         ("qqq", "✘", "UNACCEPTABLE", "double")):
            judge(page, words)
            assert page.text("#mark") == mark and page.text("#word") == word
            background = page.js("return getComputedStyle(document.getElementById('verdict'))"
                                 ".backgroundColor;")
            for id_ in ("mark", "word"):
                assert page.js("return getComputedStyle(document.getElementById(arguments[0]))"
                               ".color;", id_) != background
            edged(["next", "recheck-button"])
            assert page.js(EDGES, ["verdict"])[0][2] == style
            page.type("#next", ENTER)
            wait_view(page, "ready")
    finally:
        stop()


def test_a_locked_journal_says_still_recording_then_no_verdict_and_keeps_the_words(
        engine, server):  # noqa: F811 (the fixture)
    page = engine
    page.set_size(412, 915)
    sit(page, server, "5", "1")
    page.type("#words", "qi za")
    lock = sqlite3.connect(str(server.config.parent / "journal.db"), isolation_level=None)
    try:
        lock.execute("BEGIN EXCLUSIVE")
        page.click("#adjudicate")
        page.wait_text("#error", "Still recording the verdict", timeout=15)
        assert "call the director" in page.text("#error")
        assert page.js("return document.body.dataset.view;") in ("ready", "entry")
        page.wait_text("#error", "NOT RECORDED, no verdict", timeout=15)
        assert page.value("#words").upper() == "QI ZA"
    finally:
        lock.execute("COMMIT")
        lock.close()
    page.click("#adjudicate")  # the lock gone: tried again, recorded, shown
    wait_view(page, "verdict")
    assert "Words: QI ZA" in page.text("#verdict")
