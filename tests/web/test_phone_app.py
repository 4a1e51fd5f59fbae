"""The phone application in process: built from a config, mountable with another surface's routes
behind the same token, and every verdict in the journal (table, device) before a phone sees it."""

from __future__ import annotations

import asyncio
import io
import json

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from web_helpers import WORDS

from adjudicator.config.station import load_config
from adjudicator.journal import Journal
from adjudicator.lexicon.compile import compile_sources
from adjudicator.net.token import TokenStore
from adjudicator.phone.build import build_phone_app


def make_config(tmp_path, hold: float = 0):
    src = tmp_path / "tiny.txt"
    src.write_text("\n".join(WORDS) + "\n")
    compile_sources([str(src)], str(tmp_path / "tiny.lex"), name="TINY")
    path = tmp_path / "event.toml"
    path.write_text('event = "Unit Open"\nstation = "Phones"\n'
                    f'lexicon = "{tmp_path / "tiny.lex"}"\n'
                    f'journal = "{tmp_path / "journal.db"}"\n[timers]\nverdict_hold = {hold}\n'
                    "verdict_clear = 300\nentry_idle = 300\n")
    return load_config(str(path))


def test_another_surface_mounts_its_routes_behind_the_same_token(tmp_path):
    tokens = TokenStore(str(tmp_path / "event.token"))
    token = tokens.ensure()
    phone = build_phone_app(make_config(tmp_path), tokens=tokens, out=io.StringIO())

    async def hub(_request):
        return web.Response(text="hub")

    async def scenario():
        app = phone.make_app([web.get("/hub", hub)])
        async with TestClient(TestServer(app)) as client:
            assert (await client.get("/hub")).status == 403
            client.session.cookie_jar.update_cookies({"adjudicator_token": token})
            response = await client.get("/hub")
            assert (response.status, await response.text()) == (200, "hub")
            assert (await client.get("/")).status == 200

    try:
        asyncio.run(scenario())
    finally:
        phone.close()


def test_the_verdict_is_in_the_journal_with_table_and_device_before_the_phone_sees_it(tmp_path):
    config = make_config(tmp_path)
    tokens = TokenStore(str(tmp_path / "event.token"))
    token = tokens.ensure()
    phone = build_phone_app(config, tokens=tokens, out=io.StringIO())
    seen_in_journal = []

    async def scenario():
        async with TestClient(TestServer(phone.make_app())) as client:
            client.session.cookie_jar.update_cookies({"adjudicator_token": token})
            assert (await client.get("/")).status == 200  # the device cookie
            ws = await client.ws_connect("/ws")
            hello = json.loads((await ws.receive()).data)
            await ws.send_str(json.dumps({"t": "table", "table": "14", "round": "2"}))
            await ws.send_str(json.dumps({"t": "judge", "text": "qi zzz"}))
            while True:
                frame = json.loads((await ws.receive()).data)
                if "verdict" in frame:
                    break
            # The moment the verdict arrives, the row is already there.
            journal = Journal.open(config.journal)
            try:
                seen_in_journal.extend(journal.recent(5))
            finally:
                journal.close()
            await ws.close()
            return hello, frame

    try:
        hello, frame = asyncio.run(scenario())
    finally:
        phone.close()
    (row,) = seen_in_journal
    assert (row.words, row.acceptable, row.table, row.round) == (("QI", "ZZZ"), False, "14", "2")
    assert row.station == f"Phones / {hello['device']}" and row.mode == "smart device"
    assert frame["verdict"]["acceptable"] is False
    assert frame["verdict"]["record"].startswith(f"Challenge #{row.seq}")
    assert "ZZZ" not in json.dumps({k: v for k, v in frame["verdict"].items() if k != "words"})


def test_recheck_from_a_phone_points_at_the_first_challenge_and_a_held_verdict_ignores_taps(
        tmp_path):
    """WESPA 3.10.9: RECHECK judges the same words again, journaled as a recheck of the first."""
    config = make_config(tmp_path, hold=0.3)
    tokens = TokenStore(str(tmp_path / "event.token"))
    token = tokens.ensure()
    phone = build_phone_app(config, tokens=tokens, out=io.StringIO())

    async def next_state(ws) -> dict:
        while True:
            frame = json.loads((await ws.receive()).data)
            if frame["t"] == "state":
                return frame

    async def scenario():
        async with TestClient(TestServer(phone.make_app())) as client:
            client.session.cookie_jar.update_cookies({"adjudicator_token": token})
            await client.get("/")
            ws = await client.ws_connect("/ws")
            await ws.send_str(json.dumps({"t": "table", "table": "8"}))
            await ws.send_str(json.dumps({"t": "judge", "text": "cat"}))
            while (frame := await next_state(ws)).get("view") != "verdict-held":
                pass
            await ws.send_str(json.dumps({"t": "recheck"}))  # held: ignored
            assert (await next_state(ws))["view"] == "verdict-held"
            await asyncio.sleep(0.35)
            await ws.send_str(json.dumps({"t": "expire"}))
            assert (await next_state(ws))["view"] == "verdict"
            await ws.send_str(json.dumps({"t": "recheck"}))
            frame = await next_state(ws)
            await ws.close()
            return frame

    try:
        frame = asyncio.run(scenario())
    finally:
        phone.close()
    assert frame["verdict"]["recheck"] == "RECHECK OF #1"
    journal = Journal.open(config.journal)
    try:
        first, second = reversed(journal.recent(5))
    finally:
        journal.close()
    assert (first.words, second.words) == (("CAT",), ("CAT",))
    assert second.recheck_of == first.seq and second.table == "8"


def test_an_unexpected_failure_is_one_log_line_and_the_page_carries_on(tmp_path, monkeypatch):
    from adjudicator.station.service import Station

    config = make_config(tmp_path)
    tokens = TokenStore(str(tmp_path / "event.token"))
    token = tokens.ensure()
    log = io.StringIO()
    phone = build_phone_app(config, tokens=tokens, out=log)
    real_submit = Station.submit
    calls = []

    def flaky(self, text, **kwargs):
        calls.append(text)
        if len(calls) == 1:
            raise MemoryError("simulated")
        return real_submit(self, text, **kwargs)

    monkeypatch.setattr(Station, "submit", flaky)

    async def scenario():
        async with TestClient(TestServer(phone.make_app())) as client:
            client.session.cookie_jar.update_cookies({"adjudicator_token": token})
            await client.get("/")
            ws = await client.ws_connect("/ws")
            await ws.send_str(json.dumps({"t": "table", "table": "2"}))
            await ws.send_str(json.dumps({"t": "judge", "text": "qi"}))
            await ws.send_str(json.dumps({"t": "judge", "text": "qi"}))
            while True:
                frame = json.loads((await ws.receive()).data)
                if "verdict" in frame:
                    await ws.close()
                    return frame

    try:
        frame = asyncio.run(scenario())
    finally:
        phone.close()
    assert frame["verdict"]["acceptable"] is True and len(calls) == 2
    assert "judge failed: MemoryError: simulated" in log.getvalue()
    assert "Traceback" not in log.getvalue()


def test_a_judge_frame_too_long_is_refused_with_its_real_length(tmp_path):
    """Issue 21 (12): the server cut a frame's text to 400 characters before the station counted
    it, so 600 characters were refused as "400 characters". The count is the real one."""
    config = make_config(tmp_path)
    tokens = TokenStore(str(tmp_path / "event.token"))
    token = tokens.ensure()
    phone = build_phone_app(config, tokens=tokens, out=io.StringIO())

    async def scenario():
        async with TestClient(TestServer(phone.make_app())) as client:
            client.session.cookie_jar.update_cookies({"adjudicator_token": token})
            await client.get("/")
            ws = await client.ws_connect("/ws")
            hello = json.loads((await ws.receive()).data)
            await ws.send_str(json.dumps({"t": "table", "table": "8"}))
            await ws.send_str(json.dumps({"t": "judge", "text": "qi " * 200}))
            while "error" not in (frame := json.loads((await ws.receive()).data)) \
                    or not frame["error"]:
                pass
            await ws.close()
            return hello, frame

    try:
        hello, frame = asyncio.run(scenario())
    finally:
        phone.close()
    assert frame["error"].startswith("Not taken (600 characters)"), frame["error"]
    assert frame["view"] in ("ready", "entry")
    # The page refuses a paste before it reaches the box, in the same words (phone.js).
    assert hello["max_entry"] == 136
    assert hello["too_long"].format(n="600 characters") == frame["error"]
    journal = Journal.open(config.journal)
    try:
        assert journal.recent(5) == []  # never judged
    finally:
        journal.close()


def test_a_table_that_is_not_one_is_refused_on_the_phone_with_why(tmp_path):
    """The phone's table "²" (or "١٢") is what the hub could not sort as a table: the table
    chooser stays, saying what a table is (adjudicator/event/tables.py); "07" sits at table 7."""
    config = make_config(tmp_path)
    tokens = TokenStore(str(tmp_path / "event.token"))
    token = tokens.ensure()
    phone = build_phone_app(config, tokens=tokens, out=io.StringIO())

    async def scenario():
        async with TestClient(TestServer(phone.make_app())) as client:
            client.session.cookie_jar.update_cookies({"adjudicator_token": token})
            assert (await client.get("/")).status == 200
            ws = await client.ws_connect("/ws")
            frames = [json.loads((await ws.receive()).data) for _ in range(2)]  # hello, state
            for table in ("²", "١٢", "07"):
                await ws.send_str(json.dumps({"t": "table", "table": table, "round": "1"}))
                frames.append(json.loads((await ws.receive()).data))
            await ws.close()
            return frames

    try:
        frames = asyncio.run(scenario())
    finally:
        phone.close()
    states = [f for f in frames if f.get("t") == "state"][-3:]
    assert [s["view"] for s in states[:2]] == ["table", "table"]
    assert "'²' is not a table: type a number from 1 to 9999" in states[0]["error"]
    assert "'١٢' is not a table" in states[1]["error"]
    assert states[2]["table"] == "7" and states[2]["view"] != "table"


def test_a_page_that_names_its_table_is_seated_there_by_a_server_that_forgot_it(tmp_path):
    """Issue 36 (4): a restarted server knows no phone. A page that reconnects naming its table
    (/ws?table=12&round=3) sits there again, checked as a typed table ("²" refused with why);
    a device the server already seats keeps its own table, whatever the page names."""
    config = make_config(tmp_path)
    tokens = TokenStore(str(tmp_path / "event.token"))
    token = tokens.ensure()
    out = io.StringIO()
    phone = build_phone_app(config, tokens=tokens, out=out)

    async def first_state(client, query: str) -> dict:
        ws = await client.ws_connect("/ws" + query)
        frames = [json.loads((await ws.receive()).data) for _ in range(2)]  # hello, state
        await ws.close()
        return frames[1]

    async def scenario():
        states = []
        async with TestClient(TestServer(phone.make_app())) as client:
            client.session.cookie_jar.update_cookies({"adjudicator_token": token})
            assert (await client.get("/")).status == 200  # the device's cookie
            states.append(await first_state(client, "?table=%C2%B2&round=3"))
            states.append(await first_state(client, "?table=12&round=3"))
            states.append(await first_state(client, "?table=30&round=1"))
            states.append(await first_state(client, ""))
        return states

    try:
        refused, seated, kept, plain = asyncio.run(scenario())
    finally:
        phone.close()
    assert refused["view"] == "table" and "'²' is not a table" in refused["error"]
    assert (seated["view"], seated["table"], seated["round"]) == ("ready", "12", "3")
    assert (kept["table"], kept["round"]) == ("12", "3")  # the server's seat wins
    assert (plain["table"], plain["round"]) == ("12", "3")
    assert "table from a reconnecting page: bad table or round" in out.getvalue()
