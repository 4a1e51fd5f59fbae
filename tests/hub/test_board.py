"""The director's board: alarms in words, from rows and heartbeats (a fake clock, no network)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from adjudicator.hub.board import Board
from adjudicator.journal.flags import RECHECKS_DIFFER, SPLIT_LOOKUP

T0 = datetime(2026, 11, 22, 14, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def row(station, table, seconds, acceptable=True, flags=(), recheck_of=None, origin_seq=1):
    return {"station": station, "game_table": table, "acceptable": int(acceptable),
            "time_utc": (T0 + timedelta(seconds=seconds)).isoformat(), "words": "QI ZA",
            "flags": json.dumps(list(flags)), "recheck_of": recheck_of, "origin_seq": origin_seq}


def alarms(board, name):
    return next(s["alarms"] for s in board.snapshot()["stations"] if s["name"] == name)


def test_a_station_is_silent_only_after_15_seconds_without_a_heartbeat():
    clock = Clock()
    board = Board(clock=clock, wall=lambda: T0)
    board.heartbeat("a", {"station": "Desk 1", "clock": T0.isoformat()})
    clock.now += 15.0
    assert alarms(board, "Desk 1") == []
    clock.now += 0.5
    assert alarms(board, "Desk 1") == ["silent"]
    board.heartbeat("a", {"station": "Desk 1"})
    assert alarms(board, "Desk 1") == []


def test_lexicon_mismatch_names_the_odd_station_out_from_one_heartbeat():
    board = Board(clock=Clock(), wall=lambda: T0)
    for jid, name in (("a", "Desk 1"), ("b", "Desk 2")):
        board.heartbeat(jid, {"station": name, "lexicon": "CSW24", "fingerprint": "f" * 64})
    assert not any(s["alarms"] for s in board.snapshot()["stations"])
    board.heartbeat("c", {"station": "Desk 3", "lexicon": "NWL2023", "fingerprint": "e" * 64})
    assert alarms(board, "Desk 3") == ["lexicon mismatch"] and alarms(board, "Desk 1") == []
    board.heartbeat("b", {"station": "Desk 2", "lexicon": "NWL2023", "fingerprint": "e" * 64})
    assert alarms(board, "Desk 1") == ["lexicon mismatch"] and alarms(board, "Desk 3") == []
    board.heartbeat("d", {"station": "Desk 4", "lexicon": "CSW24", "fingerprint": "f" * 64})
    assert all("lexicon mismatch" in s["alarms"] for s in board.snapshot()["stations"])  # a tie


def test_backlog_is_what_the_station_recorded_beyond_what_the_hub_holds():
    board = Board(clock=Clock(), wall=lambda: T0)
    board.add_rows("a", [row("Desk 1", "3", 0, origin_seq=1)], acked=1)
    board.heartbeat("a", {"station": "Desk 1", "last_seq": 13})
    assert alarms(board, "Desk 1") == ["backlog 12"]
    board.add_rows("a", [row("Desk 1", "3", i, origin_seq=i) for i in range(2, 14)], acked=13)
    assert alarms(board, "Desk 1") == []


def test_printer_states_and_a_wrong_clock_are_said_in_words():
    board = Board(clock=Clock(), wall=lambda: T0)
    board.heartbeat("a", {"station": "Desk 1", "printer": "printer cover open",
                          "clock": (T0 + timedelta(minutes=5)).isoformat()})
    assert alarms(board, "Desk 1") == ["printer: cover open", "clock ahead by 5 min"]
    board.heartbeat("a", {"station": "Desk 1", "printer": "ready",
                          "clock": (T0 + timedelta(seconds=51800)).isoformat()})
    assert alarms(board, "Desk 1") == ["clock ahead by 14 h 23 min"]  # issue 43: not 51800 s
    board.heartbeat("a", {"station": "Desk 1", "printer": "ready",
                          "clock": (T0 - timedelta(seconds=95)).isoformat()})
    assert alarms(board, "Desk 1") == ["clock behind by 1 min 35 s"]
    board.heartbeat("a", {"station": "Desk 1", "printer": "ready", "clock": T0.isoformat()})
    assert alarms(board, "Desk 1") == []


def test_a_clock_error_reads_in_days_hours_and_minutes():
    from adjudicator.hub.alarmlist import skew_words

    assert [skew_words(s) for s in (61, 600, 3600, 51800, -7260, 90000, 2 * 86400)] == [
        "1 min 1 s", "10 min", "1 h", "14 h 23 min", "2 h 1 min", "1 day 1 h", "2 days"]


def test_station_flags_and_a_split_look_up_across_two_stations_are_alarms():
    board = Board(clock=Clock(), wall=lambda: T0 + timedelta(hours=1))
    board.add_rows("a", [row("Desk 1", "12", 0),
                         row("Desk 1", "12", 20, flags=[RECHECKS_DIFFER], recheck_of=1)])
    board.add_rows("b", [row("Desk 2", "12", 60)])  # the same table, another station, 60 s on
    board.add_rows("b", [row("Desk 2", "14", 70), row("Desk 2", "14", 75, flags=[SPLIT_LOOKUP])])
    board.add_rows("a", [row("Desk 1", "20", 400)])  # table 20 nowhere else: nothing
    texts = [(a["station"], a["table"], a["text"]) for a in board.snapshot()["alarms"]
             if "time" in a]
    assert texts == [  # one line a table and kind, newest first
        ("Desk 2", "14", "possible split look-up"),
        ("Desk 2", "12", "possible split look-up (table 12 at Desk 1 and Desk 2)"),
        ("Desk 1", "12", "recheck differs"),
    ]
    # more split look-ups at table 12: still one line, counted, naming the stations
    board.add_rows("a", [row("Desk 1", "12", 90)])
    board.add_rows("b", [row("Desk 2", "12", 100)])
    texts = [(a["table"], a["text"]) for a in board.snapshot()["alarms"] if "time" in a]
    assert texts == [("12", "possible split look-up: 3 challenges (Desk 2 and Desk 1)"),
                     ("14", "possible split look-up"), ("12", "recheck differs")]


def test_counts_per_table_with_the_stations_that_judged_there():
    board = Board(clock=Clock(), wall=lambda: T0)
    board.add_rows("a", [row("Desk 1", "3", 0), row("Desk 1", "3", 100, acceptable=False),
                         row("Desk 1", None, 200)])
    board.add_rows("b", [row("Desk 2", "03", 300)])  # "03" is table 3 (adjudicator/event/tables.py)
    tables = {t["table"]: (t["challenges"], t["acceptable"], t["unacceptable"],
                           [(d["name"], d["challenges"]) for d in t["devices"]])
              for t in board.snapshot()["tables"]}
    assert tables == {"3": (3, 2, 1, [("Desk 1", 2), ("Desk 2", 1)]),
                      "no table": (1, 1, 0, [("Desk 1", 1)])}


def test_an_empty_station_heard_under_a_new_journal_id_is_not_shown_twice():
    board = Board(clock=Clock(), wall=lambda: T0)
    board.heartbeat("empty-id", {"station": "Desk 1", "last_seq": 0, "lexicon": "CSW24"})
    board.heartbeat("other", {"station": "Desk 2", "last_seq": 0})
    board.add_rows("fixed-id", [row("Desk 1", "3", 0)], acked=1)
    assert [s["lexicon"] for s in board.snapshot()["stations"]] == ["CSW24", ""]  # carried over
    board.heartbeat("fixed-id", {"station": "Desk 1", "last_seq": 1})
    assert sorted(s["id"] for s in board.snapshot()["stations"]) == ["fixed-id", "other"]


def test_a_challenge_on_the_page_is_its_words_and_one_verdict_nothing_per_word():
    board = Board(clock=Clock(), wall=lambda: T0)
    board.add_rows("a", [row("Desk 1", "3", 0, acceptable=False)])
    [entry] = board.snapshot()["latest"]
    assert set(entry) == {"time", "station", "table", "words", "verdict", "recheck", "flags",
                          "seq", "new"}
    assert (entry["words"], entry["verdict"]) == ("QI ZA", "UNACCEPTABLE")


def test_a_phone_servers_rows_under_device_names_join_its_heartbeat_station():
    board = Board(clock=Clock(), wall=lambda: T0)
    board.heartbeat("empty-id", {"station": "Phones", "last_seq": 0, "lexicon": "CSW24"})
    board.add_rows("fixed-id", [row("Phones / web-1-2", "9", 0)], acked=1)
    [station] = board.snapshot()["stations"]
    assert (station["id"], station["name"], station["lexicon"]) == ("fixed-id", "Phones",
                                                                     "CSW24")


def test_a_sender_with_a_wrong_token_is_named_for_a_minute():
    clock = Clock()
    board = Board(clock=clock, wall=lambda: T0)
    board.wrong_token("10.0.0.5", "Desk 3")
    assert [(a["station"], a["text"]) for a in board.snapshot()["alarms"]] == [
        ("Desk 3", "wrong hub_token (from 10.0.0.5)")]
    clock.now += 61
    assert board.snapshot()["alarms"] == []


def test_a_table_judged_from_two_phones_is_one_table_and_a_split_stays_an_alarm():
    """Table 9 judged from two phones of one phone server (one journal, device-named rows) is
    one table listing both devices; the same table at another station within 90 s is still a
    possible split look-up; tables list in number order, then any other text (hub/tables.py)."""
    board = Board(clock=Clock(), wall=lambda: T0)
    board.add_rows("p", [row("Phones / phone-22d9d1", "9", 0),
                         row("Phones / phone-508aa6", "9", 30, acceptable=False)])
    board.add_rows("a", [row("Desk 1", "09", 60), row("Desk 1", "²", 70),
                         row("Desk 1", "10", 80), row("Desk 1", "A3", 90)])
    state = board.snapshot()
    assert [t["table"] for t in state["tables"]] == ["9", "10", "A3", "²"]
    nine = state["tables"][0]
    assert (nine["challenges"], nine["acceptable"], nine["unacceptable"]) == (3, 2, 1)
    assert [(d["name"], d["challenges"]) for d in nine["devices"]] == [
        ("Desk 1", 1), ("Phones / phone-22d9d1", 1), ("Phones / phone-508aa6", 1)]
    assert [c["words"] for c in nine["recent"]] == ["QI ZA"] * 3
    assert [a["text"] for a in state["alarms"] if "time" in a] == [
        "possible split look-up (table 9 at Phones / phone-508aa6 and Desk 1)"]
