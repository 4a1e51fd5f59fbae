"""A station the director has not accepted speaks for nobody (issue 26, items 5-9): made-up
stations (keys of their own, names that look like real ones, rows dated 2099, flags of their
choosing) count in no alarm, table, latest challenge or lexicon vote, before or after a restart;
they wait in a bounded panel the director answers with Accept or Reject; refusals are one alarm
per sender; every bound holds under concurrent requests; a replayed request is refused."""

from __future__ import annotations

import json
import threading

import pytest
from ghosts import Ghost, NotTaken, director

from adjudicator import wire
from adjudicator.hub import identity, stamps, waiting
from adjudicator.journal import Journal, chain, outbox
from adjudicator.link.forward import Forwarder
from adjudicator.judging.verdict import adjudicate


def journal_rows(tmp_path, lex, file: str, station: str, n: int = 3, table: str = "5"):
    with Journal.open(tmp_path / file) as journal:
        journal.forward()
        for i in range(n):
            journal.record(adjudicate(lex, ("QI",) if i % 2 else ("ZA", "QI")),
                           station=station, mode="station", table=table)
        return journal.journal_id(), outbox.pending(journal.conn, 0, 10_000)


def rechained(rows: list[dict], **change) -> list[dict]:
    """ROWS with CHANGE in each, chained again as a station would have written them."""
    out, prev = [], rows[0]["prev_hash"]
    for row in rows:
        row = dict(row, **change, prev_hash=prev)
        row["hash"] = prev = chain.link(prev, row)
        out.append(row)
    return out


def state(hub) -> dict:
    return hub.call(hub.hub.board.snapshot)


def real_station(tmp_path, hub, lex, name: str, n: int = 2, table: str = "5") -> Forwarder:
    """An honest station, pushed and accepted by the director."""
    journal_rows(tmp_path, lex, f"{name}.db", name, n, table)
    sender = Forwarder(str(tmp_path / f"{name}.db"), hub.url, hub.hub.station_token,
                       status=lambda: {"lexicon": lex.name, "fingerprint": lex.fingerprint})
    sender.push()
    assert director(hub.local_url, hub.hub.director_token, "accept", wire.key_id(sender.key)) == 200
    return sender


def test_a_made_up_station_counts_nowhere_until_accepted_also_after_a_restart(
        tmp_path, make_lexicon, start_hub):
    hub = start_hub(accept_new=False)
    lex = make_lexicon(["QI", "ZA"], name="CSW24")
    real = [real_station(tmp_path, hub, lex, f"Desk {i}", table=str(i)) for i in (1, 2)]
    # a ghost: 25 rows dated 2099 with the flags a station raises, and its own fingerprint
    jid, rows = journal_rows(tmp_path, lex, "ghost.db", "Desk 9", n=25, table="5")
    ghost_rows = rechained(rows, time_utc="2099-01-01T00:00:00+00:00", fingerprint="e" * 64,
                           flags=json.dumps(["rechecks differ: director to decide",
                                             "printer: out of paper"]))
    ghost = Ghost(hub.url, hub.hub.station_token, bytes([9]) * 32)
    assert ghost.rows(jid, "Desk 9", ghost_rows)["acked"] == 25
    for i in range(8):  # eight more, another fingerprint: they would outvote the hall
        Ghost(hub.url, hub.hub.station_token, bytes([20 + i]) * 32, f"127.0.0.{2 + i}").beat(
            f"vote{i}", f"Voter {i}", lexicon="NWL2023", fingerprint="e" * 64)

    def counts_nowhere(snap):
        assert sorted(s["name"] for s in snap["stations"]) == ["Desk 1", "Desk 2"]
        assert {d["name"] for t in snap["tables"] for d in t["devices"]} == {"Desk 1", "Desk 2"}
        assert {c["station"] for c in snap["latest"]} == {"Desk 1", "Desk 2"}
        assert not any("Desk 9" in a["station"] or "Voter" in a["station"]
                       for a in snap["alarms"]), snap["alarms"]
        assert not any("lexicon mismatch" in s["alarms"] for s in snap["stations"])
        panel = {w["name"]: w for w in snap["waiting"]}
        assert panel["Desk 9"]["rows"] == 25 and panel["Desk 9"]["address"] == "127.0.0.1"
        assert len(panel) == 9 and all(w["joined"] for w in panel.values())

    counts_nowhere(state(hub))
    path = hub.journal_path
    for sender in real:
        sender.stop()
    hub.stop()
    again = start_hub(path, accept_new=False)
    snap = state(again)
    assert not any(w["name"].startswith("Voter") for w in snap["waiting"])  # no row: not kept
    assert [w["rows"] for w in snap["waiting"] if w["name"] == "Desk 9"] == [25]
    assert {c["station"] for c in snap["latest"]} == {"Desk 1", "Desk 2"}
    # accepted: its rows join the board, flagged "clock ahead", never pinned on top
    assert director(again.local_url, again.hub.director_token, "accept", wire.key_id(bytes([9]) * 32)
                    ) == 200
    real[0] = Forwarder(str(tmp_path / "Desk 1.db"), again.url, again.hub.station_token)
    with Journal.open(tmp_path / "Desk 1.db") as journal:
        journal.record(adjudicate(lex, ("QI",)), station="Desk 1", mode="station", table="1")
    real[0].push()
    real[0].stop()
    snap = state(again)
    assert snap["latest"][0]["station"] == "Desk 1"  # received last: first
    assert [c for c in snap["latest"] if c["station"] == "Desk 9"][0]["flags"] == [
        "recheck differs", "printer: out of paper", "clock ahead"]


@pytest.mark.parametrize("name", ["Desk 1\u200b", "desk 1", "Desk\u00a01", "\uff24esk 1",
                                  "Desk 1\u202e", "D\u0435sk 1", "DESK 1",
                                  "D\u0395SK 1"])
def test_a_name_that_only_looks_like_an_accepted_one_is_refused(tmp_path, make_lexicon,
                                                                 start_hub, name):
    hub = start_hub(accept_new=False)
    lex = make_lexicon(["QI", "ZA"])
    real_station(tmp_path, hub, lex, "Desk 1").stop()
    jid, rows = journal_rows(tmp_path, lex, "fake.db", name, n=1)
    with pytest.raises(NotTaken) as refused:
        Ghost(hub.url, hub.hub.station_token, bytes([5]) * 32).rows(jid, name, rows)
    assert refused.value.status == 409 and "looks like 'Desk 1'" in refused.value.answer["error"]
    snap = state(hub)
    assert snap["waiting"] == [] and hub.hub.ledger.journal.count() == 2
    [alarm] = [a for a in snap["alarms"] if "looks like" in a["text"]]
    assert "\u200b" not in alarm["text"] + alarm["station"]  # drawn as its picture


def test_ghosts_from_one_address_leave_room_for_a_real_station_also_after_a_restart(
        tmp_path, make_lexicon, start_hub):
    hub = start_hub(accept_new=False)
    lex = make_lexicon(["QI", "ZA"])
    answers = []
    for i in range(64):  # one valid row each (kept in the hub journal), all from one address
        jid, rows = journal_rows(tmp_path, lex, f"g{i}.db", f"Ghost {i}", n=1)
        try:
            Ghost(hub.url, hub.hub.station_token, bytes([i]) * 32, "127.0.0.2").rows(
                jid, f"Ghost {i}", rows)
            answers.append(200)
        except NotTaken as e:
            answers.append(e.status)
    assert answers == [200] * waiting.MAX_PER_ADDRESS + [429] * (64 - waiting.MAX_PER_ADDRESS)
    path = hub.journal_path
    hub.stop()
    hub = start_hub(path, accept_new=False)
    real = Forwarder(str(tmp_path / "real.db"), hub.url, hub.hub.station_token)
    journal_rows(tmp_path, lex, "real.db", "Desk 4", n=1)
    real.push()  # from 127.0.0.1
    real.stop()
    assert "Desk 4" in [w["name"] for w in state(hub)["waiting"]]


def test_when_the_waiting_list_is_full_the_oldest_idle_station_makes_room(start_hub,
                                                                         monkeypatch):
    hub = start_hub(accept_new=False)
    ghosts = [Ghost(hub.url, hub.hub.station_token, bytes([i]) * 32,
                    f"127.0.0.{2 + i // waiting.MAX_PER_ADDRESS}") for i in range(64)]
    for i, ghost in enumerate(ghosts):
        ghost.beat(f"g{i}", f"Ghost {i}")
    late = Ghost(hub.url, hub.hub.station_token, bytes([99]) * 32, "127.0.0.99")
    with pytest.raises(NotTaken) as refused:
        late.beat("late", "Late")  # all busy: none makes room
    assert refused.value.status == 429
    ids = hub.hub.identities
    now = ids.clock()
    monkeypatch.setattr(ids, "clock", lambda: now + waiting.IDLE + 1)
    for ghost in ghosts[1:]:
        ghost.beat(f"g{ghosts.index(ghost)}", f"Ghost {ghosts.index(ghost)}")
    late.beat("late", "Late")  # Ghost 0 sent nothing for a while: it goes
    names = [w["name"] for w in state(hub)["waiting"]]
    assert "Late" in names and "Ghost 0" not in names and len(names) == 64


def test_reject_forgets_a_station_and_refuses_its_key_for_good(tmp_path, make_lexicon,
                                                               start_hub):
    hub = start_hub(accept_new=False)
    lex = make_lexicon(["QI", "ZA"])
    jid, rows = journal_rows(tmp_path, lex, "squat.db", "Desk 3", n=2)
    squatter = Ghost(hub.url, hub.hub.station_token, bytes([3]) * 32)
    squatter.rows(jid, "Desk 3", rows)
    key = wire.key_id(bytes([3]) * 32)
    assert director(hub.local_url, hub.hub.station_token, "reject", key) == 403  # not a station's
    assert director(hub.local_url, hub.hub.director_token, "reject", key) == 200
    assert state(hub)["waiting"] == []
    with pytest.raises(NotTaken) as refused:
        squatter.beat(jid, "Desk 3")
    assert refused.value.status == 403 and "rejected" in refused.value.answer["error"]
    # the name it held is free: the real Desk 3 takes it without a conflict
    real = real_station(tmp_path, hub, lex, "Desk 3", n=1)
    real.stop()
    path = hub.journal_path
    hub.stop()
    again = start_hub(path, accept_new=False)
    snap = state(again)
    assert [s["name"] for s in snap["stations"]] == ["Desk 3"]
    assert snap["stations"][0]["challenges"] == 1 and snap["waiting"] == []
    assert again.hub.ledger.journal.count() == 3  # its rows stay in the journal, for the record
    squatter.url = again.url
    with pytest.raises(NotTaken) as refused:
        squatter.beat(jid, "Desk 3")
    assert refused.value.status == 403


def test_refusals_are_one_alarm_per_sender_and_never_hide_a_key_conflict(
        tmp_path, make_lexicon, start_hub):
    hub = start_hub(accept_new=False)
    lex = make_lexicon(["QI", "ZA"])
    real_station(tmp_path, hub, lex, "Desk 1").stop()
    jid, rows = journal_rows(tmp_path, lex, "bad.db", "Bad", n=1)
    noisy = Ghost(hub.url, hub.hub.station_token, bytes([8]) * 32, "127.0.0.9")
    for n in range(1, 61):  # malformed, each with another row number
        with pytest.raises(NotTaken):
            noisy.rows(jid, "Bad", [dict(rows[0], seq=n, acceptable=2)])
    for i in range(60):  # without the token, from 60 addresses, names of their choosing
        wrong = Ghost(hub.url, "wrong", bytes([100 + i]) * 32, f"127.0.1.{i + 1}")
        with pytest.raises(NotTaken):
            wrong.beat("x", f"Desk {i} \u202e")
    jid2, rows2 = journal_rows(tmp_path, lex, "replaced.db", "Desk 1", n=1)
    replaced = Ghost(hub.url, hub.hub.station_token, bytes([11]) * 32, "127.0.0.11")
    with pytest.raises(NotTaken):
        replaced.rows(jid2, "Desk 1", rows2)
    alarms = state(hub)["alarms"]
    malformed = [a for a in alarms if "no station sends" in a["text"]]
    assert len(malformed) == 1 and "60 times" in malformed[0]["text"]
    wrong = [a for a in alarms if "wrong hub_token" in a["text"]]
    assert len(wrong) == 1 and "from 127.0.1.60, and 49 more senders" in wrong[0]["text"]
    assert wrong[0]["station"] == "Desk 59 \u2426"  # the bidi override drawn as its picture
    [conflict] = [a for a in alarms if a.get("key")]
    assert conflict["key"] == wire.key_id(bytes([11]) * 32)
    assert "another key claims the name 'Desk 1'" in conflict["text"]
    assert len(json.dumps(alarms)) < 10_000


def test_a_waiting_station_holds_its_most_rows_under_concurrent_batches(tmp_path, make_lexicon,
                                                                        start_hub):
    hub = start_hub(accept_new=False)
    lex = make_lexicon(["QI", "ZA"])
    jid, rows = journal_rows(tmp_path, lex, "flood.db", "Flood", n=identity.MAX_NEW_ROWS + 100)
    flood = Ghost(hub.url, hub.hub.station_token, bytes([6]) * 32)
    flood.beat(jid, "Flood")
    results = []

    def send():
        mine = Ghost(hub.url, hub.hub.station_token, bytes([6]) * 32)
        mine.known = True
        try:
            results.append(mine.rows(jid, "Flood", rows)["acked"])
        except NotTaken as e:
            results.append(e.status)
    threads = [threading.Thread(target=send) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert hub.hub.ledger.journal.count() == identity.MAX_NEW_ROWS, results
    assert [w["rows"] for w in state(hub)["waiting"]] == [identity.MAX_NEW_ROWS]


def test_a_key_sends_under_one_name_and_one_station_view(tmp_path, make_lexicon, start_hub):
    hub = start_hub(accept_new=False)
    lex = make_lexicon(["QI", "ZA"])
    jid, rows = journal_rows(tmp_path, lex, "many.db", "Desk 3", n=30)
    many = rechained([dict(r, station=f"Desk {3 + i}") for i, r in enumerate(rows)])
    squatter = Ghost(hub.url, hub.hub.station_token, bytes([4]) * 32)
    with pytest.raises(NotTaken) as refused:
        squatter.rows(jid, "Desk 3", many)
    assert refused.value.status == 409 and "one name" in refused.value.answer["error"]
    assert hub.hub.ledger.journal.count() == 0
    for n in range(300):  # heartbeats under ever new journal ids: one waiting station
        squatter.beat(f"fresh{n}", "Desk 3")
    snap = state(hub)
    assert len(snap["waiting"]) == 1 and snap["stations"] == []


def test_a_waiting_station_keeps_its_heartbeats_pace_and_sends_its_rows_once_accepted(
        tmp_path, make_lexicon, start_hub, monkeypatch):
    from adjudicator.hub import server
    from hub_process import wait_for

    monkeypatch.setattr(server, "MAX_NEW_ROWS", 3)
    hub = start_hub(accept_new=False)
    lex = make_lexicon(["QI", "ZA"])
    journal_rows(tmp_path, lex, "live.db", "Live", n=6)
    beats = []
    original = hub.hub.board.waiting.heartbeat
    monkeypatch.setattr(hub.hub.board.waiting, "heartbeat",
                        lambda key, beat: beats.append(1) or original(key, beat))
    sender = Forwarder(str(tmp_path / "live.db"), hub.url, hub.hub.station_token,
                       heartbeat=0.3, poll=0.05).start()
    try:
        wait_for(lambda: sender.refused)  # its rows beyond 3 wait for the director
        start = len(beats)
        wait_for(lambda: len(beats) >= start + 10, timeout=30)  # the beats go on at pace
        assert hub.hub.ledger.journal.count() == 3
        assert sender._rows_pause == sender.heartbeat_every  # rows tried at each heartbeat
        [station] = state(hub)["waiting"]
        assert director(hub.local_url, hub.hub.director_token, "accept", station["key"]) == 200
        wait_for(lambda: sender.acked == 6)
    finally:
        sender.stop()
    assert state(hub)["stations"][0]["challenges"] == 6


def test_a_replayed_request_is_refused_and_said_once(start_hub, monkeypatch, capfd):
    hub = start_hub()
    desk = Ghost(hub.url, hub.hub.station_token, bytes([1]) * 32)
    desk.beat("desk", "Desk 1", last_seq=0)
    path, headers, data = desk.last_request  # what a listener on the Wi-Fi saw
    heard = state(hub)["stations"][0]["heard"]
    status, answer = desk.send_raw(path, headers, data)  # at once: already taken
    assert status == 401 and "already taken" in answer["error"]
    later = stamps.time.time() + stamps.WINDOW + 5
    monkeypatch.setattr(hub.hub.stamps, "wall", lambda: later)
    for _ in range(3):  # later: too old
        status, answer = desk.send_raw(path, headers, data)
        assert status == 401 and "too old" in answer["error"]
    assert state(hub)["stations"][0]["heard"] == heard
    [alarm] = [a for a in state(hub)["alarms"] if "replay" in a["text"]]
    assert "4 times" in alarm["text"]
    desk.beat("desk", "Desk 1", last_seq=0)  # the station itself signs again: taken
    hub.stop()
    log = capfd.readouterr().err
    assert log.count("refused /api/heartbeat") == 2  # "taken" once, "too old" once


def test_a_station_without_a_stamp_signs_as_before():
    """A hub older than stamps never gives one: the station signs path and body only."""
    key = bytes([1]) * 32
    assert wire.sign(key, "/api/rows", b"{}", "") == wire.sign(key, "/api/rows", b"{}")
    assert wire.signed_by(key, "/api/rows", b"{}", wire.sign(key, "/api/rows", b"{}"))


def test_a_squatters_row_never_counts_in_the_table_it_took(tmp_path, make_lexicon, start_hub):
    """A key that took "Desk 3" first (one row, not accepted): the real Desk 3 is refused with
    an alarm, the director accepts it in its place, and Desk 3's table counts its rows only."""
    hub = start_hub(accept_new=False)
    lex = make_lexicon(["QI", "ZA"])
    jid, rows = journal_rows(tmp_path, lex, "squat.db", "Desk 3", n=1, table="3")
    Ghost(hub.url, hub.hub.station_token, bytes([4]) * 32, "127.0.0.4").rows(jid, "Desk 3", rows)
    journal_rows(tmp_path, lex, "desk3.db", "Desk 3", n=2, table="3")
    real = Forwarder(str(tmp_path / "desk3.db"), hub.url, hub.hub.station_token)
    with pytest.raises(Exception, match="belongs to another station's key"):
        real.push()
    [conflict] = [a for a in state(hub)["alarms"] if a.get("key")]
    assert director(hub.local_url, hub.hub.director_token, "accept", conflict["key"]) == 200
    assert real.push().acked == 2
    real.stop()
    snap = state(hub)
    assert [(t["table"], t["challenges"], [(d["name"], d["challenges"]) for d in t["devices"]])
            for t in snap["tables"]] == [("3", 2, [("Desk 3", 2)])]
    assert [w["rows"] for w in snap["waiting"]] == [1]  # the squatter still waits, counted nowhere


def test_concurrent_first_batches_under_two_journals_bind_one(tmp_path, make_lexicon,
                                                              start_hub):
    """One key's first batches for two journals at once: the hub journal keeps one of them
    (checked in the write: both pass the event loop's look before either is stored)."""
    hub = start_hub(accept_new=False)
    lex = make_lexicon(["QI", "ZA"])
    sent = [journal_rows(tmp_path, lex, f"j{i}.db", "Twice", n=200) for i in range(2)]
    results = []

    def send(jid, rows):
        one = Ghost(hub.url, hub.hub.station_token, bytes([12]) * 32)
        try:
            results.append(one.rows(jid, "Twice", rows)["acked"])
        except NotTaken as e:
            results.append(e.status)
    for _ in range(3):
        threads = [threading.Thread(target=send, args=s) for s in sent]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    held = {r[0] for r in hub.hub.ledger.journal._query(
        "SELECT DISTINCT origin_journal FROM challenges")}
    assert len(held) == 1 and hub.hub.ledger.journal.count() == 200, results


def test_a_stored_station_that_made_room_stays_out_after_a_restart(tmp_path, make_lexicon,
                                                                   start_hub, monkeypatch):
    """Eight waiting stations from one address, each with a row, all quiet for a while: a ninth
    from there takes the place of the first to join, whose rows then count nowhere, also after
    a restart (kept as dropped in the hub journal); it may come back and wait again."""
    hub = start_hub(accept_new=False)
    lex = make_lexicon(["QI", "ZA"])
    ghosts = []
    for i in range(waiting.MAX_PER_ADDRESS):
        jid, rows = journal_rows(tmp_path, lex, f"q{i}.db", f"Quiet {i}", n=1)
        ghosts.append(Ghost(hub.url, hub.hub.station_token, bytes([40 + i]) * 32, "127.0.0.5"))
        ghosts[-1].rows(jid, f"Quiet {i}", rows)
    ids = hub.hub.identities
    for i, key in enumerate(sorted(ids.keys.values(), key=lambda k: k.key_id)):
        key.joined = f"2026-11-22T14:0{i}:00+00:00"  # one a minute: the first is the oldest
    first = min(ids.keys.values(), key=lambda k: k.joined).name
    now = ids.clock()
    monkeypatch.setattr(ids, "clock", lambda: now + waiting.IDLE + 1)
    jid, rows = journal_rows(tmp_path, lex, "ninth.db", "Ninth", n=1)
    Ghost(hub.url, hub.hub.station_token, bytes([60]) * 32, "127.0.0.5").rows(jid, "Ninth", rows)
    names = sorted(w["name"] for w in state(hub)["waiting"])
    assert first not in names and "Ninth" in names and len(names) == waiting.MAX_PER_ADDRESS
    path = hub.journal_path
    hub.stop()
    again = start_hub(path, accept_new=False)
    assert sorted(w["name"] for w in state(again)["waiting"]) == names
    assert again.hub.ledger.journal.count() == waiting.MAX_PER_ADDRESS + 1  # its row is kept
    back = next(g for g in ghosts if wire.key_id(g.key) not in
                {w["key"] for w in state(again)["waiting"]})
    back.url, back.address, back.stamp = again.url, "127.0.0.6", ""
    back.beat(again.hub.identities.dropped[wire.key_id(back.key)].journal_id, first)
    assert wire.key_id(back.key) in {w["key"] for w in state(again)["waiting"]}


def test_first_rows_stored_while_the_director_accepts_are_on_the_board(start_hub, monkeypatch):
    """A station heard first by its heartbeat (its journal not bound yet) sends its first row
    while the director's Accept is being written: the row is on the board at once, not only in
    the hub's journal (the page's first row never showed, a race seen in CI)."""
    from odd_station import OddStation

    hub = start_hub(accept_new=False)
    desk = OddStation(hub.url, hub.hub.station_token, "Desk 1")
    assert desk.beat()[0] == 200  # waiting, its journal not yet bound to its key
    ledger = hub.hub.ledger
    keep_key, sent = ledger.keep_key, {}

    def slow_keep_key(*args):  # the rows' POST reaches the writer meanwhile, queued behind
        thread = threading.Thread(target=lambda: sent.update(answer=desk.send(game_table="7")))
        thread.start()
        thread.join(0.5)
        return keep_key(*args)

    monkeypatch.setattr(ledger, "keep_key", slow_keep_key)
    assert director(hub.local_url, hub.hub.director_token, "accept", wire.key_id(desk.key)) == 200
    for _ in range(100):
        if "answer" in sent:
            break
        threading.Event().wait(0.05)
    assert sent["answer"][0] == 200
    tables = {t["table"]: t for t in state(hub)["tables"]}
    assert tables["7"]["challenges"] == 1  # counted once, not lost and not twice
    assert [c["table"] for c in state(hub)["latest"]] == ["7"]
