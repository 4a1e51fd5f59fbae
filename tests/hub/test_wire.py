"""The wire format, checked in one place (adjudicator/wire.py), and the hub refusing a message
with a field of the wrong type or range BEFORE anything is stored (issue 20, item 3): a 400 with
one log line, an alarm on the page, and the hub journal still verifies and exports."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from hub_process import cli_env, wait_for

from adjudicator import wire
from adjudicator.journal import Journal, outbox
from adjudicator.link.forward import Forwarder
from adjudicator.link.hubclient import HubRefused, post
from adjudicator.judging.verdict import adjudicate

KEY = bytes(range(32))


def station_rows(tmp_path, make_lexicon, name="S1", n=2):
    lex = make_lexicon(["QI", "ZA"])
    with Journal.open(tmp_path / f"{name}.db") as journal:
        journal.forward()
        for _ in range(n):
            journal.record(adjudicate(lex, ("QI", "ZA")), station=name, mode="station",
                           table="4")
        return journal.journal_id(), outbox.pending(journal.conn, 0, 100)


def raw_post(url: str, path: str, token: str, data: bytes, key: bytes = KEY):
    """POST bytes as they are (a number like 1e400 cannot be made with json.dumps), signed."""
    request = urllib.request.Request(url + path, data=data, method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}",
        wire.KEY_ID: wire.key_id(key), wire.SIGNATURE: wire.sign(key, path, data)})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_a_journals_own_rows_pass_and_each_field_is_checked_exactly(tmp_path, make_lexicon):
    _, rows = station_rows(tmp_path, make_lexicon)
    for row in rows:
        assert wire.check_row(row) is row
    bad = [("game_table", 5, "game_table must be text, not a number"),
           ("acceptable", True, "acceptable must be 0 or 1, not true/false"),
           ("acceptable", 2, "acceptable must be 0 or 1"),
           ("seq", "abc", "seq must be a whole number, not text"),
           ("seq", None, "seq must be a whole number, not null"),
           ("seq", 1.0, "seq must be a whole number, not a number"),
           ("seq", 0, "seq must be from 1"),
           ("seq", 2**63, "seq must be from 1"),
           ("words", ["QI"], "words must be text, not a list"),
           ("words", "", "words is empty"),
           ("mode", "wizard", "mode must be one of"),
           ("hash", "XYZ", "hash must be 64 lowercase hex digits"),
           ("flags", "{}", "flags must be a JSON list of text"),
           ("recheck_of", 2, "recheck_of must be an earlier row"),
           ("secondary_agrees", False, "secondary_agrees must be 0 or 1"),
           ("round", 3, "round must be text"),
           ("flags", "[" * 5000 + "]" * 5000, "flags must be a JSON list of text"),  # nested
           ("flags", '["\\ud800"]', None), ("game_table", "\ud800", "game_table holds a lone "
                                                                    "surrogate")]
    for field, value, why in bad:
        if why is None:  # a flag "\ud800" written as JSON text: stored as such, shown as text
            assert wire.check_row(dict(rows[1], **{field: value}))
            continue
        with pytest.raises(wire.WireError, match=why):
            wire.check_row(dict(rows[1], **{field: value}))
    with pytest.raises(wire.WireError, match="has no seq"):
        wire.check_row({k: v for k, v in rows[0].items() if k != "seq"})
    with pytest.raises(wire.WireError, match="is not a row field"):
        wire.check_row(dict(rows[0], extra=1))


def test_heartbeats_and_answers_are_checked_exactly():
    beat = {"journal_id": "ab12", "station": "S", "last_seq": 3, "clock": "2026-01-01T00:00Z"}
    assert wire.check_heartbeat(beat) is beat
    for change, why in (({"last_seq": True}, "last_seq"), ({"last_seq": -1}, "last_seq"),
                        ({"last_seq": 1e400}, "last_seq"), ({"journal_id": 5}, "journal_id"),
                        ({"journal_id": "a b"}, "journal_id"), ({"printer": ["x"]}, "printer"),
                        ({"station": None}, "station"), ({"key": "short"}, "key"),
                        ({"surprise": 1}, "not a field")):
        with pytest.raises(wire.WireError, match=why):
            wire.check_heartbeat({**beat, **change})
    assert wire.check_ack({"acked": 4, "known": True}) == (4, True)
    for answer in ([1], {"acked": True}, {"acked": 1.0}, {"acked": -1}, {},
                   {"acked": 1, "known": 1}):
        with pytest.raises(wire.WireError):
            wire.check_ack(answer)
    for data in (b"\xff", b"NaN", b'{"acked": Infinity}', b"1" * 5000, b"[" * 100_000):
        with pytest.raises(wire.WireError):
            wire.decode(data)


def test_the_hub_refuses_each_mistyped_field_before_storing_and_still_verifies(
        tmp_path, make_lexicon, start_hub, capfd):
    jid, rows = station_rows(tmp_path, make_lexicon)
    hub = start_hub()
    token = hub.hub.station_token
    first = {"journal_id": jid, "station": "S1", "key": KEY.hex()}
    raw_rows = json.dumps({**first, "rows": rows}, separators=(",", ":"))
    assert '"seq":1,' in raw_rows
    cases = [("game_table", 5), ("acceptable", True), ("seq", "abc"), ("seq", None),
             ("words", ["QI", "ZA"])]
    for field, value in cases:
        body = {**first, "rows": [dict(rows[0], **{field: value})]}
        with pytest.raises(HubRefused, match=f"{field} must be") as refused:
            post(hub.url, "/api/rows", token, body, key=KEY)
        assert refused.value.status == 400
    no_seq = {**first, "rows": [{k: v for k, v in rows[0].items() if k != "seq"}]}
    with pytest.raises(HubRefused, match="has no seq"):
        post(hub.url, "/api/rows", token, no_seq, key=KEY)
    beat = ('{"journal_id": "%s", "station": "S1", "last_seq": 1e400, "key": "%s"}'
            % (jid, KEY.hex())).encode()
    assert raw_post(hub.url, "/api/heartbeat", token, beat)[0] == 400
    assert raw_post(hub.url, "/api/rows", token, raw_rows.replace(
        '"seq":1,', '"seq":1e400,', 1).encode())[0] == 400
    assert hub.hub.ledger.journal.count() == 0
    snap = hub.call(hub.hub.board.snapshot)
    assert snap["stations"] == []  # nothing kept for a message no station sends
    texts = [a["text"] for a in snap["alarms"]]  # one alarm, counted, with the latest reason
    assert texts == ["refused: a message no station sends (row #1 of the batch: seq must be a "
                     "whole number, not a number) (from 127.0.0.1, 8 times)"], texts
    # the same station's good rows are then taken, and the hub journal holds
    assert post(hub.url, "/api/rows", token, {**first, "rows": rows}, key=KEY)["acked"] == 2
    hub.stop()
    log = capfd.readouterr().err
    assert "Traceback" not in log and log.count(" refused /api/") == len(cases) + 3
    env = cli_env()
    checked = subprocess.run([sys.executable, "-m", "adjudicator", "journal", "verify",
                              hub.journal_path], capture_output=True, text=True, env=env)
    assert checked.returncode == 0 and "intact, 2 challenges" in checked.stdout
    exported = subprocess.run([sys.executable, "-m", "adjudicator", "journal", "export",
                               hub.journal_path, "--format", "json"], capture_output=True,
                              text=True, env=env)
    assert exported.returncode == 0
    assert [r["table"] for r in json.loads(exported.stdout)] == ["4", "4"]


def test_a_station_shows_the_hubs_refusal(tmp_path, make_lexicon, start_hub):
    """A row the hub will not take (here one changed in the outbox): the sender keeps the
    hub's reason, and its heartbeats still reach the page."""
    import sqlite3

    jid, rows = station_rows(tmp_path, make_lexicon, n=1)
    conn = sqlite3.connect(tmp_path / "S1.db")
    conn.execute("UPDATE outbox SET payload = ?", (json.dumps(dict(rows[0], game_table=5)),))
    conn.commit()
    conn.close()
    hub = start_hub()
    sender = Forwarder(str(tmp_path / "S1.db"), hub.url, hub.hub.station_token, poll=0.05)
    with pytest.raises(HubRefused, match="game_table must be text"):
        sender.push()
    assert sender.known  # its heartbeat was taken: only the row is refused
    sender.stop()
    assert hub.hub.ledger.journal.count() == 0
    live = Forwarder(str(tmp_path / "S1.db"), hub.url, hub.hub.station_token, poll=0.05,
                     heartbeat=0.1).start()
    try:  # the refusal stays on show while heartbeats go through, and reaches the page
        def shown():
            snap = hub.call(hub.hub.board.snapshot)
            alarms = [a for st in snap["stations"] for a in st["alarms"]]
            return any(a.startswith("sender: refused by the hub: not a station's message: "
                                    "row 1: game_table must be text") for a in alarms) and snap
        snap = wait_for(shown)
        for _ in range(10):
            assert live.refused.startswith("not a station's message: row 1: game_table")
            time.sleep(0.05)
    finally:
        live.stop()
    assert snap["stations"][0]["challenges"] == 0
