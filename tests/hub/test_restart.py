"""A restarted hub shows what it showed before, rebuilt from its journal alone (no heartbeat yet):
every station with its lexicon and when it was last heard, the lexicon-mismatch alarm, and the
latest challenges in the order the hub received them (its journal's order, issue 26: a station's
clock cannot pin a row on top)."""

from __future__ import annotations

import json
import time
import urllib.request
from datetime import datetime, timedelta, timezone

from adjudicator.hub.board import Board

T0 = datetime(2026, 11, 22, 14, 0, tzinfo=timezone.utc)


def row(seq, station, journal, minute, lexicon, fingerprint, words="QI", table="1"):
    return {"seq": seq, "origin_journal": journal, "origin_seq": seq, "station": station,
            "mode": "station", "game_table": table, "round": None, "words": words,
            "acceptable": 1, "time_utc": (T0 + timedelta(minutes=minute)).isoformat(),
            "lexicon_name": lexicon, "fingerprint": fingerprint, "flags": "[]",
            "recheck_of": None}


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_a_board_rebuilt_from_rows_alone_shows_lexicons_mismatch_last_heard_and_time_order():
    clock = Clock()
    board = Board(clock=clock, wall=lambda: T0 + timedelta(minutes=10))
    # the hub's journal order: station C pushed its old rows last (journal push, a late link)
    rows = [row(1, "Station A", "ja", 5, "CSW19", "aaaa"), row(2, "Station B", "jb", 6, "CSW19",
            "aaaa"), row(3, "Station A", "ja", 7, "CSW19", "aaaa", "ZA"),
            row(4, "Station C", "jc", 1, "TWL06", "cccc", "CAT"),
            row(5, "Station C", "jc", 2, "TWL06", "cccc", "JO")]
    for n, r in enumerate(rows[3:], 1):
        r["origin_seq"] = n
    rows[2]["origin_seq"], rows[1]["origin_seq"] = 2, 1
    board.restore(rows, {"ja": 2, "jb": 1, "jc": 2})
    snap = board.snapshot()
    by_name = {s["name"]: s for s in snap["stations"]}
    assert {n: (s["lexicon"], s["fingerprint"]) for n, s in by_name.items()} == {
        "Station A": ("CSW19", "aaaa"), "Station B": ("CSW19", "aaaa"),
        "Station C": ("TWL06", "cccc")}
    assert "lexicon mismatch" in by_name["Station C"]["alarms"]
    assert "lexicon mismatch" not in by_name["Station A"]["alarms"]
    assert [s["seen"] for s in (by_name["Station A"], by_name["Station B"],
                                by_name["Station C"])] == [180, 240, 480]  # last row's age
    assert [c["words"] for c in snap["latest"]] == ["JO", "CAT", "ZA", "QI", "QI"]
    assert [by_name[n]["acked"] for n in ("Station A", "Station B", "Station C")] == [2, 1, 2]
    assert snap["stations"][0]["name"] == "Station C"  # in trouble: first
    assert [s["mode"] for s in snap["stations"]] == ["station"] * 3


def test_rows_teach_the_lexicon_but_old_rows_never_overrule_a_newer_heartbeat():
    clock = Clock()
    now = [T0]
    board = Board(clock=clock, wall=lambda: now[0])
    board.add_rows("ja", [row(1, "Station A", "ja", 0, "CSW19", "aaaa")])
    assert board.snapshot()["stations"][0]["lexicon"] == "CSW19"
    assert board.snapshot()["stations"][0]["seen"] == 0  # rows sent now: heard now
    now[0] = T0 + timedelta(minutes=5)
    board.heartbeat("ja", {"station": "Station A", "lexicon": "CSW21", "fingerprint": "bbbb"})
    board.add_rows("ja", [row(2, "Station A", "ja", 1, "CSW19", "aaaa")])  # an old row, late
    assert board.snapshot()["stations"][0]["fingerprint"] == "bbbb"
    board.add_rows("ja", [row(3, "Station A", "ja", 6, "CSW24", "dddd")])  # judged since
    assert board.snapshot()["stations"][0]["fingerprint"] == "dddd"


def test_the_latest_challenges_are_in_the_order_the_hub_received_them():
    """A row dated in 2099 by its station's clock is flagged "clock ahead", never on top."""
    board = Board(wall=lambda: T0 + timedelta(minutes=10))
    board.add_rows("ja", [row(1, "Station A", "ja", 5, "CSW19", "aaaa", "ZA")])
    future = row(2, "Station B", "jb", 1, "CSW19", "aaaa", "QI")
    future["time_utc"] = "2099-01-01T00:00:00+00:00"
    board.add_rows("jb", [future])
    board.add_rows("ja", [row(3, "Station A", "ja", 6, "CSW19", "aaaa", "JO")])
    snap = board.snapshot()
    assert [c["words"] for c in snap["latest"]] == ["JO", "QI", "ZA"]
    assert snap["latest"][1]["flags"] == ["clock ahead"]
    assert {(a["station"], a["text"]) for a in snap["alarms"]} >= {("Station B", "clock ahead")}
    for r in (dict(future, seq=4), row(5, "Station A", "ja", 7, "CSW19", "aaaa", "CAT")):
        board.add_rows(str(r["origin_journal"]), [r])
    assert [c["words"] for c in board.snapshot()["latest"]][:2] == ["CAT", "QI"]


def test_a_hub_killed_and_restarted_shows_every_station_before_any_heartbeat(
        tmp_path, make_lexicon):
    from hub_process import HubProcess, accept_waiting

    from adjudicator.link.forward import Forwarder
    from adjudicator.journal import Journal
    from adjudicator.judging.verdict import adjudicate

    csw = make_lexicon(["QI", "ZA", "CAT"], name="CSW19")
    twl = make_lexicon(["QI", "ZA"], name="TWL06")
    assert csw.fingerprint != twl.fingerprint
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\n')
    stations = [("Station A", csw, "1"), ("Station B", csw, "2"), ("Station C", twl, "3")]
    for i, (name, lex, table) in enumerate(stations):
        with Journal.open(tmp_path / f"s{i}.db") as journal:
            journal.forward()
            for words in (("QI",), ("ZA",)):
                journal.record(adjudicate(lex, words), station=name, mode="station",
                               table=table)
                time.sleep(0.01)
    hub = HubProcess(tmp_path / "hub.toml")
    try:
        for i in (2, 0, 1):  # C's rows are the oldest but arrive first
            fwd = Forwarder(str(tmp_path / f"s{i}.db"), hub.url, hub.token)
            fwd.push()  # a `journal push`: its heartbeat says no lexicon
            fwd.stop()
        assert accept_waiting(hub.director_url) == 3
    finally:
        hub.stop(kill=True)
    hub = HubProcess(tmp_path / "hub.toml")
    try:
        url = hub.director_url.replace("/?key=", "/state?key=")
        with urllib.request.urlopen(url, timeout=10) as r:  # the first request after start
            snap = json.loads(r.read())
    finally:
        hub.stop()
    by_name = {s["name"]: s for s in snap["stations"]}
    assert {n: s["lexicon"] for n, s in by_name.items()} == {
        "Station A": "CSW19", "Station B": "CSW19", "Station C": "TWL06"}
    assert by_name["Station C"]["fingerprint"] == twl.fingerprint[:12]
    assert "lexicon mismatch" in by_name["Station C"]["alarms"]
    assert "lexicon mismatch" not in by_name["Station A"]["alarms"]
    assert all(s["seen"] is not None for s in snap["stations"])  # not "never"
    # the latest challenges as the hub received them (issue 26): C's arrived first
    assert [c["station"] for c in snap["latest"]] == ["Station B"] * 2 + ["Station A"] * 2 + [
        "Station C"] * 2
