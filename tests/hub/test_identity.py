"""Station identity (issue 20, item 4): a key made on first contact signs what a station sends;
the hub binds it to the station's name and journal id; a holder of the event token cannot post
rows that appear as an existing station's, nor grow the hub's state without bound, and every
attempt is an alarm on the page."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request

import pytest

from adjudicator import wire
from adjudicator.hub import identity, waiting
from adjudicator.hub.hub_journal import HubJournal
from adjudicator.hub.refusals import RowsRefused
from adjudicator.journal import Journal, chain, export_journal, outbox, verify
from adjudicator.link.forward import Forwarder
from adjudicator.link.hubclient import HubRefused, post
from adjudicator.judging.verdict import adjudicate

from ghosts import Ghost, NotTaken, director


def journal_rows(tmp_path, make_lexicon, file: str, station: str, n: int = 3):
    lex = make_lexicon(["QI", "ZA"])
    with Journal.open(tmp_path / file) as journal:
        journal.forward()
        for i in range(n):
            journal.record(adjudicate(lex, ("QI",) if i % 2 else ("ZA", "QI")),
                           station=station, mode="station", table="7")
        return journal.journal_id(), outbox.pending(journal.conn, 0, 100)


def as_key(hub, path: str, body: dict, key: bytes, first: bool = True) -> dict:
    """BODY signed with KEY as a station's sender signs it (asked for the hub's stamp first)."""
    body = dict(body, key=key.hex()) if first else body
    try:
        return post(hub.url, path, hub.hub.station_token, body, key=key)
    except HubRefused as e:
        if e.status != 401 or not e.stamp:
            raise
        return post(hub.url, path, hub.hub.station_token, body, key=key, stamp=f"{e.stamp}.1")


def accept(hub, key_id: str) -> None:
    assert director(hub.local_url, hub.hub.director_token, "accept", key_id) == 200


def alarm_texts(hub) -> list[str]:
    return [a["text"] for a in hub.call(hub.hub.board.snapshot)["alarms"]]


def test_the_event_token_cannot_post_rows_as_an_existing_station(tmp_path, make_lexicon,
                                                                 start_hub):
    hub = start_hub(accept_new=False)
    desk_id, desk_rows = journal_rows(tmp_path, make_lexicon, "desk1.db", "Desk 1")
    real = Forwarder(str(tmp_path / "desk1.db"), hub.url, hub.hub.station_token)
    assert real.push().acked == 3
    real.stop()
    accept(hub, wire.key_id(real.key))
    thief = bytes([7]) * 32
    fake_id, fake_rows = journal_rows(tmp_path, make_lexicon, "fake.db", "Desk 1")
    flipped = [dict(r, acceptable=1) for r in fake_rows]
    attempts = [
        # Desk 1's own rows (read off the network), sent again with another key
        ("/api/rows", {"journal_id": desk_id, "station": "Desk 1", "rows": desk_rows},
         409, "station journal .* belongs to another station's key"),
        # a journal of its own, under Desk 1's name (a forged ACCEPTABLE in it)
        ("/api/rows", {"journal_id": fake_id, "station": "Desk 1", "rows": flipped},
         409, "the station name 'Desk 1' belongs to another station's key"),
        ("/api/rows", {"journal_id": fake_id, "station": "Other", "rows": fake_rows},
         409, "the station name 'Desk 1' belongs to another station's key"),
        ("/api/heartbeat", {"journal_id": desk_id, "station": "Desk 1", "last_seq": 3},
         409, "belongs to another station's key"),
    ]
    for path, body, status, why in attempts:
        with pytest.raises(HubRefused, match=why) as refused:
            as_key(hub, path, body, thief)
        assert refused.value.status == status
    # signed with another key than the one it names; and no key at all
    body = {"journal_id": desk_id, "station": "Desk 1", "last_seq": 3}
    data = wire.encode(body)
    stamp = hub.call(hub.hub.stamps.issue) + ".1"
    request = urllib.request.Request(hub.url + "/api/heartbeat", data=data, method="POST",
                                     headers={"Authorization": f"Bearer {hub.hub.station_token}",
                                              wire.KEY_ID: wire.key_id(real.key),
                                              wire.STAMP: stamp,
                                              wire.SIGNATURE: wire.sign(thief, "/api/heartbeat",
                                                                        data, stamp)})
    with pytest.raises(urllib.error.HTTPError) as forged:
        urllib.request.urlopen(request, timeout=10)
    assert forged.value.code == 403
    with pytest.raises(HubRefused) as unknown:
        post(hub.url, "/api/heartbeat", hub.hub.station_token, body)
    assert unknown.value.status == 401

    assert hub.hub.ledger.journal.count() == 3
    texts = alarm_texts(hub)
    for said in (f"another key claims station journal {desk_id[:8]}",
                 "another key claims the name 'Desk 1'",
                 "a request not signed by its station's key"):
        assert any(said in t for t in texts), (said, texts)
    [station] = hub.call(hub.hub.board.snapshot)["stations"]
    assert station["name"] == "Desk 1" and station["challenges"] == 3
    hub.stop()
    assert verify(hub.journal_path).intact
    exported = json.loads(export_journal(hub.journal_path, "json"))
    assert {(r["station"], r["origin_journal"]) for r in exported} == {("Desk 1", desk_id)}
    assert [r["verdict"] for r in exported] == ["ACCEPTABLE", "ACCEPTABLE", "ACCEPTABLE"]


def test_new_stations_are_bounded_and_ids_without_rows_are_not_kept(tmp_path, start_hub):
    hub = start_hub(accept_new=False)
    answers = []
    per = waiting.MAX_PER_ADDRESS
    ghosts = [Ghost(hub.url, hub.hub.station_token, bytes([i]) * 32, f"127.0.0.{2 + i // per}")
              for i in range(identity.MAX_NEW + 6)]
    for i, ghost in enumerate(ghosts):  # every one busy: none may make room
        try:
            ghost.beat(f"ghost{i}", f"G{i}")
            answers.append(200)
        except NotTaken as e:
            answers.append(e.status)
    assert answers == [200] * identity.MAX_NEW + [429] * 6
    for n in range(5):  # one key's heartbeats under ever new journal ids: one station still
        ghosts[1].beat(f"again{n}", "G1")
    snap = hub.call(hub.hub.board.snapshot)
    assert len(snap["waiting"]) == identity.MAX_NEW and snap["stations"] == []
    assert any(f"a new station refused: {identity.MAX_NEW} new stations already wait" in t
               for t in alarm_texts(hub))
    hub.stop()
    again = HubJournal(hub.journal_path)  # keys that never sent a valid row were not kept
    assert again.keys() == ([], {})
    again.close()


def test_keys_that_never_sent_a_row_are_forgotten_after_a_while(start_hub, monkeypatch):
    hub = start_hub(accept_new=False)
    for i in range(3):
        as_key(hub, "/api/heartbeat", {"journal_id": f"quiet{i}", "station": f"Q{i}",
                                       "last_seq": 0}, bytes([i]) * 32)
    assert len(hub.call(hub.hub.board.snapshot)["waiting"]) == 3
    later = identity.time.monotonic() + identity.FORGET_AFTER + 1
    monkeypatch.setattr(hub.hub.identities, "clock", lambda: later)
    as_key(hub, "/api/heartbeat", {"journal_id": "quiet0", "station": "Q0", "last_seq": 0},
           bytes([0]) * 32)  # heard again: kept; the two quiet ones go, page and all
    assert hub.hub.identities.waiting() == 1
    assert [s["name"] for s in hub.call(hub.hub.board.snapshot)["waiting"]] == ["Q0"]


def test_the_director_accepts_a_new_station_and_it_stays_accepted(tmp_path, make_lexicon,
                                                                  start_hub):
    hub = start_hub(accept_new=False)
    journal_rows(tmp_path, make_lexicon, "desk2.db", "Desk 2", n=1)
    sender = Forwarder(str(tmp_path / "desk2.db"), hub.url, hub.hub.station_token)
    sender.push()
    sender.stop()
    snap = hub.call(hub.hub.board.snapshot)
    [station] = snap["waiting"]
    assert snap["stations"] == [] and snap["tables"] == [] and snap["latest"] == []
    assert station["address"] == "127.0.0.1" and station["joined"] and station["rows"] == 1

    def accept(key: str) -> int:
        request = urllib.request.Request(f"{hub.local_url}/api/accept?key={key}", method="POST",
                                         data=json.dumps({"station": station["key"]}).encode())
        try:
            with urllib.request.urlopen(request, timeout=10) as r:
                return r.status
        except urllib.error.HTTPError as e:
            return e.code
    assert accept(hub.hub.station_token) == 403  # a station cannot accept itself
    assert accept(hub.hub.director_token) == 200
    snap = hub.call(hub.hub.board.snapshot)
    [station] = snap["stations"]
    assert not station["new"] and station["alarms"] in (["silent"], []) and not snap["waiting"]
    assert station["challenges"] == 1 and len(snap["latest"]) == 1  # its row joins the board
    path = hub.journal_path
    hub.stop()
    again = start_hub(path, accept_new=False)
    [station] = again.call(again.hub.board.snapshot)["stations"]
    assert not station["new"] and station["name"] == "Desk 2"
    sender = Forwarder(str(tmp_path / "desk2.db"), again.url, again.hub.station_token)
    assert sender.push().acked == 1  # the same key, known: not sent again
    assert sender.known
    sender.stop()


def test_rows_of_a_journal_from_before_chained_ids_are_not_taken_under_a_second_id(
        tmp_path, make_lexicon):
    _, rows = journal_rows(tmp_path, make_lexicon, "old.db", "Old", n=2)
    legacy, prev = [], chain.GENESIS  # as an older adjudicator chained them: from 64 zeros
    for row in rows:
        row = dict(row, prev_hash=prev)
        row["hash"] = prev = chain.link(prev, row)
        legacy.append(row)
    hub = HubJournal(str(tmp_path / "hub.db"))
    assert hub.accept("a" * 32, legacy)[0] == 2
    with pytest.raises(RowsRefused, match="already sent as station journal a{32}"):
        hub.accept("b" * 32, legacy)
    assert hub.journal.count() == 2
    hub.close()


def test_without_the_token_the_hub_reads_no_body(start_hub):
    """A request with a wrong token is answered after its headers: the 8 MB it announces are
    never read (a few KB sent, the answer is already there, the connection closed)."""
    hub = start_hub(accept_new=False)
    sock = socket.create_connection(("127.0.0.1", hub.local_port), timeout=10)
    sock.sendall(b"POST /api/rows HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\n"
                 b"Content-Type: application/json\r\nContent-Length: 8000000\r\n\r\n"
                 + b"{" * 4096)
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        assert chunk, answer
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 403")
    sock.settimeout(10)
    closed = False
    try:
        while sock.recv(65536):
            pass
        closed = True
    except (ConnectionResetError, BrokenPipeError):
        closed = True
    sock.close()
    assert closed
    assert any("wrong hub_token (from 127.0.0.1)" in t for t in alarm_texts(hub))


def test_two_keys_racing_for_one_name_cannot_both_have_it(tmp_path, make_lexicon):
    """The hub journal checks the bindings again inside the write: two keys whose first rows
    were both let through before either was stored still do not share a name."""
    _, first = journal_rows(tmp_path, make_lexicon, "a.db", "Desk 9", n=1)
    jid_b, second = journal_rows(tmp_path, make_lexicon, "b.db", "Desk 9", n=1)
    hub = HubJournal(str(tmp_path / "hub.db"))
    a = identity.StationKey("a" * 16, b"a", "Desk 9", "x", "t")
    b = identity.StationKey("b" * 16, b"b", "Desk 9", "y", "t")
    with Journal.open(tmp_path / "a.db") as journal:
        jid_a = journal.journal_id()
    assert hub.accept(jid_a, first, key=a)[0] == 1
    with pytest.raises(RowsRefused, match="the station name 'Desk 9' belongs to another"):
        hub.accept(jid_b, second, key=b)
    with pytest.raises(RowsRefused, match="belongs to another station's key"):
        hub.accept(jid_a, first, key=b)
    assert hub.journal.count() == 1
    hub.close()


def test_a_hub_that_forgot_a_key_is_sent_it_again(tmp_path, start_hub):
    """A station that never sent a row is known to the hub in memory only: after a restart the
    hub answers 401 and the sender sends its key with its next message."""
    hub = start_hub(accept_new=False)
    port, path = hub.port, hub.journal_path
    Journal.open(tmp_path / "empty.db").close()
    sender = Forwarder(str(tmp_path / "empty.db"), hub.url, hub.hub.station_token)
    sender.beat()
    assert sender.known
    sender.beat()  # known: the key is not sent again
    hub.stop()
    again = start_hub(path, port=port, accept_new=False)
    sender.beat()  # asked for its key (401), it sends it again at once
    assert sender.known and len(again.call(again.hub.board.snapshot)["waiting"]) == 1
    sender.stop()


def test_first_contact_binds_before_the_first_row(tmp_path, make_lexicon, start_hub):
    """A station heard before it records anything owns its journal id and name from its first
    message: someone who reads them off the network cannot post rows there first."""
    hub = start_hub(accept_new=False)
    jid, rows = journal_rows(tmp_path, make_lexicon, "early.db", "Early", n=2)
    owner, thief = bytes([3]) * 32, bytes([4]) * 32
    as_key(hub, "/api/heartbeat", {"journal_id": jid, "station": "Early", "last_seq": 0}, owner)
    with pytest.raises(HubRefused, match="belongs to another station's key") as refused:
        as_key(hub, "/api/rows", {"journal_id": jid, "station": "Early", "rows": rows}, thief)
    assert refused.value.status == 409
    other_id, other = journal_rows(tmp_path, make_lexicon, "other.db", "Early", n=1)
    with pytest.raises(HubRefused, match="the station name 'Early' belongs to another"):
        as_key(hub, "/api/rows", {"journal_id": other_id, "station": "Early", "rows": other},
               thief)
    assert hub.hub.ledger.journal.count() == 0
    assert as_key(hub, "/api/rows", {"journal_id": jid, "station": "Early", "rows": rows},
                  owner, first=False)["acked"] == 2


def test_a_new_station_holds_a_bounded_number_of_rows_until_accepted(tmp_path, make_lexicon,
                                                                     start_hub, monkeypatch):
    from adjudicator.hub import server

    monkeypatch.setattr(server, "MAX_NEW_ROWS", 3)
    hub = start_hub(accept_new=False)
    journal_rows(tmp_path, make_lexicon, "busy.db", "Busy", n=5)
    sender = Forwarder(str(tmp_path / "busy.db"), hub.url, hub.hub.station_token, batch=3)
    with pytest.raises(HubRefused, match="a new station holds 3 rows at most") as refused:
        sender.push()
    assert refused.value.status == 429 and hub.hub.ledger.journal.count() == 3
    [station] = hub.call(hub.hub.board.snapshot)["waiting"]
    assert station["rows"] == 3
    hub.call(hub.hub.identities.accept, station["key"])
    assert sender.push().acked == 5
    sender.stop()


def test_the_director_lets_a_replaced_station_take_its_name(tmp_path, make_lexicon, start_hub):
    """A station whose journal was replaced comes with a new key under its old name: refused
    with an alarm the director can accept; then the new key sends under the name and the old
    key no longer can."""
    hub = start_hub(accept_new=False)
    journal_rows(tmp_path, make_lexicon, "old.db", "Desk 1", n=1)
    old = Forwarder(str(tmp_path / "old.db"), hub.url, hub.hub.station_token)
    old.push()
    journal_rows(tmp_path, make_lexicon, "new.db", "Desk 1", n=2)
    new = Forwarder(str(tmp_path / "new.db"), hub.url, hub.hub.station_token)
    with pytest.raises(HubRefused, match="ask the director to accept it in its place"):
        new.push()
    [alarm] = [a for a in hub.call(hub.hub.board.snapshot)["alarms"]
               if "claims the name 'Desk 1'" in a["text"]]
    assert alarm["key"] == wire.key_id(new.key)
    request = urllib.request.Request(f"{hub.local_url}/api/accept?key={hub.hub.director_token}",
                                     method="POST",
                                     data=json.dumps({"station": alarm["key"]}).encode())
    urllib.request.urlopen(request, timeout=10).close()
    assert not any("claims the name" in t for t in alarm_texts(hub))
    assert new.push().acked == 2
    with Journal.open(tmp_path / "old.db") as journal:
        journal.record(adjudicate(make_lexicon(["QI"]), ("QI",)), station="Desk 1",
                       mode="station")
    with pytest.raises(HubRefused, match="belongs to another station's key"):
        old.push()
    new.stop()
    old.stop()
    path = hub.journal_path
    hub.stop()
    assert HubJournal(path).keys()[1]["Desk 1"] == wire.key_id(new.key)  # kept over a restart
