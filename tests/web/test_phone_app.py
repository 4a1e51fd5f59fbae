"""The phone application in process: built from a config, mountable with another surface's routes
behind the same token, and every verdict in the journal (table, device) before a phone sees it."""

from __future__ import annotations

import asyncio
import io
import json

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from web_helpers import WORDS

from adjudicator.config import load_config
from adjudicator.journal import Journal
from adjudicator.lexicon import compile_sources
from adjudicator.net.token import TokenStore
from adjudicator.phone.build import build_phone_app


def make_config(tmp_path):
    src = tmp_path / "tiny.txt"
    src.write_text("\n".join(WORDS) + "\n")
    compile_sources([str(src)], str(tmp_path / "tiny.lex"), name="TINY")
    path = tmp_path / "event.toml"
    path.write_text(f'event = "Unit Open"\nstation = "Phones"\nlexicon = "{tmp_path / "tiny.lex"}"\n'
                    f'journal = "{tmp_path / "journal.db"}"\n[timers]\nverdict_hold = 0\n')
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
