"""The phone server forwards to the director's hub: every phone's row, under the server's journal."""

from __future__ import annotations

import asyncio
import io
import json

from aiohttp.test_utils import TestClient, TestServer
from hub_process import wait_for

from adjudicator.config.station import Config
from adjudicator.net.token import TokenStore
from adjudicator.phone.build import build_phone_app


def test_every_phones_row_reaches_the_hub(tmp_path, make_lexicon, start_hub):
    hub = start_hub()
    lex = make_lexicon(["QI", "ZA"], name="TWL-TINY")
    cfg = Config(station="Phones", journal=str(tmp_path / "phones.db"), lexicon=lex.path,
                 hub=hub.url, hub_token=hub.hub.station_token)
    tokens = TokenStore(str(tmp_path / "phones.token"))
    token = tokens.ensure()
    phone = build_phone_app(cfg, tokens=tokens, out=io.StringIO())

    async def two_phones():
        async with TestClient(TestServer(phone.make_app())) as a, \
                TestClient(TestServer(phone.make_app())) as b:
            for client, table in ((a, "3"), (b, "4")):
                client.session.cookie_jar.update_cookies({"adjudicator_token": token})
                await client.get("/")
                ws = await client.ws_connect("/ws")
                await ws.send_str(json.dumps({"t": "table", "table": table}))
                await ws.send_str(json.dumps({"t": "judge", "text": "qi za"}))
                while "verdict" not in json.loads((await ws.receive()).data):
                    pass
                await ws.close()

    try:
        asyncio.run(two_phones())
        snap = wait_for(lambda: len((s := hub.call(hub.hub.board.snapshot))["tables"]) == 2
                        and s["stations"][0]["lexicon"] and s)
    finally:
        phone.close()
    assert sorted(t["table"] for t in snap["tables"]) == ["3", "4"]
    assert all(d["name"].startswith("Phones / phone-") for t in snap["tables"]
               for d in t["devices"])
    [server] = snap["stations"]  # one journal: one station on the hub, however many phones
    assert (server["name"], server["lexicon"], server["challenges"]) == ("Phones", "TWL-TINY", 2)
    assert "silent" not in server["alarms"]
