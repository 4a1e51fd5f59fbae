"""One phone server for every division (issue 27, item 4): a phone chooses its table and the
table's division decides the list, said before the first challenge and with every verdict; the
journal row names the list and the rule used; a table in no division is refused at the chooser."""

from __future__ import annotations

import asyncio
import io
import json

from aiohttp.test_utils import TestClient, TestServer

from adjudicator.config.station import load_config
from adjudicator.journal import Journal
from adjudicator.lexicon.compile import compile_sources
from adjudicator.net.token import TokenStore
from adjudicator.phone.build import build_phone_app


def two_division_config(tmp_path):
    """Tables 1-20 judge with ALPHA (ZO good), tables 21-40 with BETA (ZO not)."""
    folder = tmp_path / "lists"
    folder.mkdir()
    for name, words in (("ALPHA", ["ZO", "QI", "CAT"]), ("BETA", ["QI", "CAT"])):
        (tmp_path / f"{name}.txt").write_text("\n".join(words) + "\n")
        compile_sources([str(tmp_path / f"{name}.txt")], str(folder / f"{name}.lex"), name=name)
    path = tmp_path / "event.toml"
    path.write_text(f'event = "Club Open 2026"\nstation = "Phones"\nlexicon_dirs = ["{folder}"]\n'
                    f'journal = "{tmp_path / "journal.db"}"\n'
                    "[timers]\nverdict_hold = 0\nverdict_clear = 300\nentry_idle = 300\n"
                    '[[division]]\nname = "A"\nlexicon = "ALPHA"\ntables = "1-20"\n'
                    'challenge_rule = "5-per-word"\n'
                    '[[division]]\nname = "B"\nlexicon = "BETA"\ntables = "21-40"\n'
                    'challenge_rule = "double"\n')
    return load_config(str(path))


async def next_state(ws) -> dict:
    while True:
        frame = json.loads((await ws.receive()).data)
        if frame["t"] == "state":
            return frame


def test_the_table_decides_the_list_before_the_first_challenge_and_with_every_verdict(tmp_path):
    config = two_division_config(tmp_path)
    tokens = TokenStore(str(tmp_path / "event.token"))
    token = tokens.ensure()
    out = io.StringIO()
    phone = build_phone_app(config, tokens=tokens, out=out)
    seen = {}

    async def phone_at(client, table: str, words: str) -> tuple[dict, dict, dict]:
        client.session.cookie_jar.clear()
        client.session.cookie_jar.update_cookies({"adjudicator_token": token})
        await client.get("/")
        ws = await client.ws_connect("/ws")
        hello = json.loads((await ws.receive()).data)
        assert (await next_state(ws))["view"] == "table"  # the chooser first
        await ws.send_str(json.dumps({"t": "table", "table": table}))
        ready = await next_state(ws)
        await ws.send_str(json.dumps({"t": "judge", "text": words}))
        while "verdict" not in (verdict := await next_state(ws)):
            pass
        await ws.close()
        return hello, ready, verdict

    async def scenario():
        async with TestClient(TestServer(phone.make_app())) as client:
            seen["a"] = await phone_at(client, "5", "zo")
            seen["b"] = await phone_at(client, "25", "zo")
            client.session.cookie_jar.clear()
            client.session.cookie_jar.update_cookies({"adjudicator_token": token})
            await client.get("/")
            ws = await client.ws_connect("/ws")
            await ws.receive()
            await next_state(ws)
            await ws.send_str(json.dumps({"t": "table", "table": "45"}))
            seen["refused"] = await next_state(ws)
            await ws.send_str(json.dumps({"t": "judge", "text": "zo"}))  # no table: ignored
            await ws.close()

    try:
        asyncio.run(scenario())
    finally:
        phone.close()
    hello, ready_a, verdict_a = seen["a"]
    assert hello["event"] == "Club Open 2026"
    assert hello["divisions"] == ("Divisions: A (tables 1-20): ALPHA · "
                                  "B (tables 21-40): BETA")
    assert ready_a["view"] == "ready" and ready_a["division"] == "A"
    assert ready_a["judges"].startswith("Division A · Judged with ALPHA — UNRECOGNISED LIST")
    _, ready_b, verdict_b = seen["b"]
    assert ready_b["judges"].startswith("Division B · Judged with BETA")
    assert verdict_a["verdict"]["acceptable"] and not verdict_b["verdict"]["acceptable"]
    assert verdict_a["verdict"]["lexicon"].startswith("Division A · ALPHA")
    assert verdict_b["verdict"]["lexicon"].startswith("Division B · BETA")
    assert " · BETA · " in verdict_b["verdict"]["record"]
    refused = seen["refused"]
    assert refused["view"] == "table" and "Table 45 is in no division here" in refused["error"]
    with Journal.open(config.journal) as journal:
        rows = list(reversed(journal.recent(10)))
    assert [(r.table, r.lexicon_name, r.rule, r.acceptable) for r in rows] == [
        ("5", "ALPHA", "5-per-word", True), ("25", "BETA", "double", False)]
    assert phone.setup[:3] == ["Event: Club Open 2026",
                               f"Division A (tables 1-20): ALPHA — UNRECOGNISED LIST — "
                               f"{rows[0].fingerprint[:12]} · 5-per-word",
                               f"Division B (tables 21-40): BETA — UNRECOGNISED LIST — "
                               f"{rows[1].fingerprint[:12]} · double"]
    assert phone.setup[3:] == [f"Journal: {config.journal}",
                               "Hub: none (rows stay in this journal)"]
