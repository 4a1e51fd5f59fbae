"""The hub as auditor (issue 32 items 4 and 5): every row against its table's division at the event
version in force when it was judged, whatever its station says it serves; lists by division in
heartbeats, checked division by division; the page's lists steady; the hub journal's exports."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest

from adjudicator import wire
from adjudicator.event.setup import Division, Event, to_dict
from adjudicator.event.history import GRACE, EventHistory, local_time
from adjudicator.hub.board import Board
from adjudicator.hub.identity import StationKey
from adjudicator.hub.hub_journal import HubJournal
from adjudicator.journal import Journal, export_journal, outbox
from adjudicator.link.status import lists_by_division
from adjudicator.judging.rules import ChallengeRule
from adjudicator.judging.verdict import adjudicate

T0 = datetime(2026, 11, 22, 20, 0, tzinfo=timezone.utc)
ALPHA, BETA, BETA2, OLD = "a1" * 32, "b1" * 32, "b2" * 32, "0d" * 32
V1 = Event("Club Open", (
    Division("A", "ALPHA", ChallengeRule.WORD5, ((1, 20),), ALPHA),
    Division("B", "BETA", ChallengeRule.DOUBLE, ((21, 40),), BETA)), version=1)
V2 = dataclasses.replace(V1, version=2, divisions=(
    V1.divisions[0], dataclasses.replace(V1.divisions[1], lexicon="BETA2", fingerprint=BETA2)))
CHANGE = T0 + timedelta(hours=1)  # division B: BETA -> BETA2


class Clock:
    now = 1000.0

    def __call__(self):
        return self.now


def row(station, table, at, lexicon, fingerprint, rule, seq=1):
    return {"station": station, "game_table": table, "acceptable": 1, "words": "QI",
            "time_utc": at.isoformat(), "lexicon_name": lexicon, "fingerprint": fingerprint,
            "rule": rule, "flags": "[]", "recheck_of": None, "origin_seq": seq, "seq": seq}


@pytest.fixture
def board():
    board = Board(clock=Clock(), wall=lambda: T0 + timedelta(hours=3))
    board.history = EventHistory([(T0, V1), (CHANGE, V2)])
    board.event_of = lambda: V2
    return board


def test_a_row_judged_with_the_old_list_after_the_change_is_flagged_and_an_alarm(board):
    since = local_time(CHANGE)
    board.add_rows("j1", [
        row("Desk 7", "25", T0 + timedelta(minutes=30), "BETA", BETA, "double", 1),  # before
        row("Desk 7", "25", CHANGE + timedelta(seconds=30), "BETA", BETA, "double", 2),  # taking it
        row("Desk 7", "25", CHANGE + timedelta(minutes=5), "BETA", BETA, "double", 3),  # wrong
        row("Desk 7", "25", CHANGE + timedelta(minutes=9), "BETA", BETA, "double", 4),  # again
        row("Desk 7", "26", CHANGE + timedelta(minutes=9), "BETA2", BETA2, "double", 5)])
    state = board.snapshot()
    said = f"judged with BETA; division B uses BETA2 since {since}"
    flagged = [(c["seq"], c["flags"]) for c in state["latest"] if c["flags"]]
    assert flagged == [(4, [said]), (3, [said])]
    first = state["alarms"][0]  # the most serious first: one line for both rows, counted
    assert (first["station"], first["table"], first["text"]) == (
        "Desk 7", "25", said + " (2 challenges)")
    assert [a for a in state["alarms"] if "judged with" in a["text"]] == [first]
    [desk] = state["stations"]
    assert desk["trouble"] == 0


def test_the_rule_is_checked_too_and_a_station_is_checked_whatever_it_serves(board):
    board.heartbeat("j2", {"station": "Desk 1", "last_seq": 0, "divisions": "A", "lists": [
        wire.list_entry("A", "ALPHA", ALPHA, "5-per-word")]})
    board.add_rows("j2", [
        row("Desk 1", "3", CHANGE, "ALPHA", ALPHA, "double", 1),  # division A: 5-per-word
        row("Desk 1", "30", CHANGE, "ALPHA", ALPHA, "5-per-word", 2),  # a B table, A's list
        row("Desk 1", "99", CHANGE, "MINE", "cc" * 32, "5-per-word", 3),  # no division: not
        row("Desk 1", None, CHANGE, "MINE", "cc" * 32, "5-per-word", 4),  # two lists, no table
        row("Desk 1", "4", CHANGE, "ALPHA", ALPHA, None, 5)])  # no rule said: its list only
    texts = {a["table"]: a["text"] for a in board.snapshot()["alarms"] if a["level"] == 0}
    since = local_time(T0)
    assert texts == {
        "3": f"judged under rule double; division A uses rule 5-per-word since {since}",
        "30": "judged with ALPHA under rule 5-per-word; division B uses BETA2 with rule "
              f"double since {local_time(CHANGE)}"}


def test_a_row_without_a_table_is_checked_when_the_event_has_one_list():
    one = Event("Club", (Division("A", "ALPHA", ChallengeRule.WORD5, (), ALPHA),), version=1)
    history = EventHistory([(T0, one)])
    assert history.check(None, T0.isoformat(), ALPHA, "5-per-word", "ALPHA") is None
    found = history.check("", T0.isoformat(), BETA, "5-per-word", "BETA")
    assert found.text(local_time) == f"judged with BETA; division A uses ALPHA since " \
                                     f"{local_time(T0)}"
    # just inside the grace either side of a change, either version's list is right
    history = EventHistory([(T0, V1), (CHANGE, V2)])
    assert history.check("25", (CHANGE - GRACE / 2).isoformat(), BETA2, "double", "B") is None
    assert history.check("25", (CHANGE + GRACE / 2).isoformat(), BETA, "double", "B") is None
    assert history.check("25", (CHANGE - GRACE * 2).isoformat(), BETA2, "double", "B")
    # a row judged before the hub had any event: nothing said which list
    assert history.check("25", (T0 - GRACE * 2).isoformat(), OLD, "double", "X") is None
    assert history.check("25", (T0 - GRACE / 2).isoformat(), OLD, "double", "X")


def test_heartbeats_carry_lists_by_division_and_a_wrong_second_division_is_named(board):
    beat = {"station": "Phones", "last_seq": 0, "divisions": "A,B", "locked": "yes",
            "event_version": "2", "lexicon": "ALPHA", "fingerprint": ALPHA,
            "lists": [wire.list_entry("A", "ALPHA", ALPHA, "5-per-word"),
                      wire.list_entry("B", "BETA", BETA, "double")]}
    wire.check_heartbeat({**beat, "journal_id": "j3"})
    board.heartbeat("j3", beat)
    [st] = board.snapshot()["stations"]
    assert st["alarms"] == ["judges with BETA, its division B uses BETA2",
                            "judges with an unrecognised list (BETA)"]  # no longer pinned
    assert st["division"] == "A, B" and st["trouble"] == 1
    lists = [(e["division"], e["lexicon"], e["rule"]) for e in st["lists"]]
    assert lists == [("A", "ALPHA", "5-per-word"), ("B", "BETA", "double")]
    # a row judged at an A table does not make the page flip to one list
    board.add_rows("j3", [row("Phones / web-1", "2", CHANGE, "ALPHA", ALPHA, "5-per-word")])
    board.heartbeat("j3", beat)
    again = board.snapshot()["stations"][0]
    assert again["lists"] == st["lists"]
    # the list fixed: no alarm
    fixed = {**beat, "lists": [beat["lists"][0], wire.list_entry("B", "BETA2", BETA2,
                                                                 "double")]}
    board.heartbeat("j3", fixed)
    assert board.snapshot()["stations"][0]["alarms"] == []


@pytest.mark.parametrize("bad", [
    {"division": "A", "lexicon": "X", "fingerprint": "", "rule": "", "more": ""},
    {"division": 1, "lexicon": "X", "fingerprint": "", "rule": ""},
    {"division": "A", "lexicon": "X" * 61, "fingerprint": "", "rule": ""},
    {"division": "A", "lexicon": "X", "fingerprint": "AB" * 32, "rule": ""},
    "A"])
def test_a_heartbeats_lists_are_checked_exactly(bad):
    with pytest.raises(wire.WireError):
        wire.check_heartbeat({"journal_id": "j", "last_seq": 0, "lists": [bad]})
    with pytest.raises(wire.WireError, match="at most 16"):
        wire.check_lists([wire.list_entry(str(i), "X", "", "") for i in range(17)])
    # an older station's heartbeat, one list and no lists: still taken
    wire.check_heartbeat({"journal_id": "j", "last_seq": 0, "lexicon": "X",
                          "fingerprint": ALPHA})


def test_a_station_says_its_lists_by_division_or_its_one_list():
    from adjudicator.station.lists import Served, TableLists, single

    lex = SimpleNamespace(name="ALPHA", fingerprint=ALPHA)
    beta = SimpleNamespace(name="BETA", fingerprint=BETA)
    served = (Served(V1.divisions[0], lex), Served(V1.divisions[1], beta))
    two = SimpleNamespace(lists=TableLists(V1, served), rule=None)
    assert lists_by_division(two) == [
        {"division": "A", "lexicon": "ALPHA", "fingerprint": ALPHA, "rule": "5-per-word"},
        {"division": "B", "lexicon": "BETA", "fingerprint": BETA, "rule": "double"}]
    one = SimpleNamespace(lists=single(lex, ChallengeRule.DOUBLE), rule="double")
    assert lists_by_division(one) == [
        {"division": "", "lexicon": "ALPHA", "fingerprint": ALPHA, "rule": "double"}]
    bare = SimpleNamespace(lists=single(lex), rule=None)  # `judge --journal`: no rule given
    assert lists_by_division(bare)[0]["rule"] == ""
    assert wire.check_lists(lists_by_division(two))


def journaled(tmp_path, lex, tables: tuple[str, ...]) -> HubJournal:
    """A hub journal holding an event (division A on LEX's list, tables 1-2; B on OTHER, table
    3) and Desk 1's accepted rows, each judged with LEX at one of TABLES."""
    event = Event("Club", (
        Division("A", "ALPHA", ChallengeRule.WORD5, ((1, 2),), lex.fingerprint),
        Division("B", "OTHER", ChallengeRule.WORD5, ((3, 3),), BETA)), version=1)
    hub = HubJournal(str(tmp_path / "hub.db"))
    hub.record_event(to_dict(event), "director", "event set")
    with Journal.open(tmp_path / "s.db") as journal:
        journal.forward()
        for table in tables:
            journal.record(adjudicate(lex, ("QI",)), station="Desk 1", mode="station",
                           table=table, rule="5-per-word")
        jid, rows = journal.journal_id(), outbox.pending(journal.conn, 0, 100)
    key = StationKey("k1", b"s" * 32, "Desk 1", "127.0.0.1", "2026-11-22T14:00:00Z",
                     accepted=True, journal_id=jid)
    hub.accept(jid, rows, station="Desk 1", key=key)
    hub.keep_key(key)
    return hub


def test_the_hub_journals_exports_carry_the_finding(tmp_path, make_lexicon):
    lex = make_lexicon(["QI", "ZA"])
    path = str(tmp_path / "hub.db")
    hub = journaled(tmp_path, lex, ("1", "3"))
    when = hub.event_changes()[0]["when"].replace("+00:00", "Z")
    hub.close()
    said = f"judged with {lex.name}; division B uses OTHER since {when}"
    cells = list(csv.DictReader(io.StringIO(export_journal(path, "csv"))))
    assert [(r["table"], r["wrong_list"]) for r in cells] == [("1", ""), ("3", said)]
    records = json.loads(export_journal(path, "json"))
    assert [(r["table"], r["wrong_list"]) for r in records] == [("1", ""), ("3", said)]


def test_a_restarted_hub_flags_the_rows_again_from_its_journal(tmp_path, make_lexicon):
    """The event's changes and times come from the hub journal: after a restart the board
    flags the same rows, before any station speaks."""
    from adjudicator.hub.server import Hub

    lex = make_lexicon(["QI", "ZA"])
    journaled(tmp_path, lex, ("3",)).close()
    hub = Hub(str(tmp_path / "hub.db"))
    try:
        [alarm] = [a for a in hub.board.snapshot()["alarms"] if a["level"] == 0]
        assert (alarm["station"], alarm["table"]) == ("Desk 1", "3")
        assert alarm["text"].startswith(f"judged with {lex.name}; division B uses OTHER since ")
    finally:
        hub.close()


def test_a_full_waiting_list_alarm_goes_once_there_is_room():
    from adjudicator.hub.waiting import MAX_PER_ADDRESS

    board = Board(clock=Clock(), wall=lambda: T0)
    keys = [SimpleNamespace(key_id=f"k{i}", name=f"New {i}", address="10.0.0.9", joined="",
                            takes="", accepted=False, state=0) for i in range(MAX_PER_ADDRESS)]
    for i, key in enumerate(keys):
        board.heartbeat(f"j{i}", {"station": key.name, "journal_id": f"j{i}", "last_seq": 0},
                        key=key)
    board.intruder("10.0.0.9", "New 9", "a new station refused: 8 new stations from 10.0.0.9 "
                   "already wait for the director", kind="waiting list full")
    assert any("already wait" in a["text"] for a in board.snapshot()["alarms"])
    board.accepted("k0")  # the director accepts one: there is room again
    texts = [a["text"] for a in board.snapshot()["alarms"]]
    assert not any("already wait" in t for t in texts), texts
