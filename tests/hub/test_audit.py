"""The hub judges every row again (issue 40 items 1, 2, 5, 6): with its table's division's list and
rule at the versions in force by the hub's clock, whatever the station says of itself."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from tiny_shelf import shelve

from adjudicator.event.setup import Division, Event
from adjudicator.event.history import AGREES, DISAGREES, OTHER_LIST, UNCHECKED, EventHistory
from adjudicator.hub import audit as audit_module
from adjudicator.hub.audit import Audit
from adjudicator.station.lists import DivisionError, TableLists, Served
from adjudicator.judging.rules import ChallengeRule
from adjudicator.event.tables import TableError, check_table

T0 = datetime(2026, 11, 28, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def lists(tmp_path):
    shelf = tmp_path / "shelf"
    return {"ALPHA": shelve(shelf, "ALPHA", ["QI", "ZA"]),
            "ALPHA2": shelve(shelf, "ALPHA2", ["QI", "ZA", "ZO"]),
            "BETA": shelve(shelf, "BETA", ["CAT", "XU", "ABO"])}


def event_of(lists, version: int, a: str = "ALPHA", rule_b=ChallengeRule.DOUBLE) -> Event:
    return Event("Club", (
        Division("A", a, ChallengeRule.WORD5, ((1, 20),), lists[a].fingerprint),
        Division("B", "BETA", rule_b, ((21, 40),), lists["BETA"].fingerprint)),
        version=version)


class Clock:
    def __init__(self, when: datetime):
        self.now = when

    def __call__(self) -> datetime:
        return self.now


def make_audit(lists, versions, clock) -> Audit:
    history = EventHistory(versions)
    paths = {lex.fingerprint: lex.path for lex in lists.values()}
    return Audit(lambda: history, paths.get, clock)


def row(lex, words: str, acceptable: bool, table="3", rule="5-per-word", seq=1,
        time_utc=None) -> dict:
    return {"words": words, "acceptable": int(acceptable), "game_table": table,
            "fingerprint": lex.fingerprint, "lexicon_name": lex.name, "rule": rule,
            "origin_seq": seq, "time_utc": time_utc or T0.isoformat()}


def test_an_honest_row_agrees_and_a_station_that_lies_disagrees(lists):
    clock = Clock(T0 + timedelta(minutes=5))
    audit = make_audit(lists, [(T0, event_of(lists, 1))], clock)
    alpha = lists["ALPHA"]
    assert audit.check("j1", row(alpha, "QI ZA", True)).state == AGREES
    assert audit.check("j1", row(alpha, "QI ZO", False)).state == AGREES
    # its name, fingerprint and rule are the division's: only its look-up lied
    lied = audit.check("j1", row(alpha, "QZQZ", True, table="7"))
    assert lied.state == DISAGREES and lied.division == "A" and lied.list_name == "ALPHA"
    assert lied.why == ("said ACCEPTABLE for QZQZ at table 7; division A's ALPHA says "
                        "UNACCEPTABLE")
    real = audit.check("j1", row(lists["BETA"], "ABO", False, table="27", rule="double"))
    assert real.state == DISAGREES and "division B's BETA says ACCEPTABLE" in real.why


def test_a_row_with_another_list_or_rule_is_named_with_the_list_in_force_then(lists):
    clock = Clock(T0 + timedelta(hours=1))
    changed = T0 + timedelta(minutes=30)
    audit = make_audit(lists, [(T0, event_of(lists, 1)),
                               (changed, event_of(lists, 2, a="ALPHA2"))], clock)
    # a heartbeat at the change showed the row did not exist yet: judged after it
    audit.heard("j1", 0, ["A"])
    other = audit.check("j1", row(lists["ALPHA"], "QI", True), claimed=1)
    assert other.state == OTHER_LIST and other.list_name == "ALPHA2" and other.version == 2
    assert other.text(lambda when: when.strftime("%H:%M")) == (
        "judged with ALPHA; division A uses ALPHA2 since 09:30 (it says it was judged under "
        "event version 1, older than the one in force)")
    wrong_rule = audit.check("j1", row(lists["ALPHA2"], "QI", True, rule="double"), claimed=2)
    assert wrong_rule.state == OTHER_LIST and "rule double; division A uses rule 5-per-word" \
        in wrong_rule.why
    assert audit.check("j1", row(lists["ALPHA2"], "ZO", True), claimed=2).state == AGREES


def test_the_hub_clock_decides_a_day_slow_station_is_caught(lists):
    """The row's own time says a day before the change; the hub heard the station after it,
    its journal without this row: the row was judged under the new version."""
    clock = Clock(T0)
    changed = T0 + timedelta(minutes=30)
    audit = make_audit(lists, [(T0, event_of(lists, 1)),
                               (changed, event_of(lists, 2, a="ALPHA2"))], clock)
    clock.now = changed + audit_module.GRACE + timedelta(seconds=5)
    audit.heard("slow", 4, ["A"])  # its journal held 4 rows then
    clock.now += timedelta(seconds=30)
    a_day_ago = (T0 - timedelta(days=1)).isoformat()
    stale = audit.check("slow", row(lists["ALPHA"], "ZO", False, seq=5, time_utc=a_day_ago))
    assert stale.state == DISAGREES and stale.version == 2  # ALPHA2 holds ZO
    # row 4 existed before that heartbeat: it may have been judged before the change
    early = audit.check("slow", row(lists["ALPHA"], "ZO", False, seq=4, time_utc=a_day_ago))
    assert early.state == AGREES and early.version == 1


def test_within_grace_of_a_change_either_version_agrees(lists):
    clock = Clock(T0)
    changed = T0 + timedelta(minutes=30)
    audit = make_audit(lists, [(T0, event_of(lists, 1)),
                               (changed, event_of(lists, 2, a="ALPHA2"))], clock)
    clock.now = changed + timedelta(seconds=10)
    audit.heard("d", 2, ["A"])
    assert audit.check("d", row(lists["ALPHA"], "QI", True, seq=3)).state == AGREES
    assert audit.check("d", row(lists["ALPHA2"], "ZO", True, seq=4)).state == AGREES


def test_rows_the_hub_cannot_judge_say_why(lists, tmp_path):
    clock = Clock(T0 + timedelta(minutes=1))
    event = event_of(lists, 1)
    no_beta = {lists["ALPHA"].fingerprint: lists["ALPHA"].path}
    audit = Audit(lambda: EventHistory([(T0, event)]), no_beta.get, clock)
    lacking = audit.check("j", row(lists["BETA"], "CAT", True, table="22", rule="double"))
    assert lacking.state == UNCHECKED and "the hub lacks division B's list BETA" in lacking.why
    odd = audit.check("j", row(lists["ALPHA"], "QI", True, table="²"))
    assert odd.state == UNCHECKED and "is in no division of event version 1" in odd.why
    for read_as_12 in ("１２", "12\u200b", "\u20601\ufeff2"):  # issue 41: table 12, checked
        assert audit.check("j", row(lists["ALPHA"], "QI", True, table=read_as_12)).state == \
            AGREES
    words = audit.check("j", row(lists["ALPHA"], "QI5", True))
    assert words.state == UNCHECKED and "not a play" in words.why
    before = Audit(lambda: EventHistory([(T0, event)]), no_beta.get, Clock(T0 - timedelta(1)))
    assert before.check("j", row(lists["ALPHA"], "QI", True)).state == UNCHECKED


def test_a_row_without_a_table_is_judged_with_its_stations_division(lists):
    clock = Clock(T0 + timedelta(minutes=1))
    audit = make_audit(lists, [(T0, event_of(lists, 1))], clock)
    audit.heard("b-only", 0, ["B"])
    lied = audit.check("b-only", row(lists["BETA"], "QZQZ", True, table=None, rule="double"))
    assert lied.state == DISAGREES and lied.division == "B"
    fine = audit.check("b-only", row(lists["BETA"], "XU", True, table=None, rule="double"))
    assert fine.state == AGREES
    audit.heard("both", 0, ["A", "B"])
    both = audit.check("both", row(lists["BETA"], "XU", True, table=None, rule="double"))
    assert both.state == UNCHECKED and "serves several divisions" in both.why


TABLES = {"A3": "A", "25": "B", "": None, " 7 ": "A", "41": None, "B 12": "B", "Top": None}


def test_one_rule_for_a_tables_division_at_the_station_and_the_hub(lists):
    """The same tables fed to the station's lists and the hub's audit give one answer."""
    event = event_of(lists, 1)
    station = TableLists(event, (Served(event.divisions[0], lists["ALPHA"]),
                                 Served(event.divisions[1], lists["BETA"])))
    clock = Clock(T0 + timedelta(minutes=1))
    audit = make_audit(lists, [(T0, event)], clock)
    for table, division in TABLES.items():
        assert event.division_for_table(table) == (event.division(division) if division
                                                   else None), table
        try:
            chosen = station.choose(check_table(table)).division
        except DivisionError:
            chosen = None
        assert chosen == division, table
        lex = lists["ALPHA"] if division != "B" else lists["BETA"]
        found = audit.check("j", row(lex, "QI", True, table=table,
                                     rule="double" if division == "B" else "5-per-word"))
        assert (found.division or None) == division, (table, found)
    # fullwidth digits, invisible characters: read alike at both ends (tables.as_read); the
    # station refuses them (the player types it again), the hub counts them at table 12
    for odd in ("１２", "12\u200b"):
        with pytest.raises(TableError, match="it reads as 12"):
            check_table(odd)
        assert event.division_for_table(odd) == event.division_for_table("12") == \
            event.division("A")
    assert event.division_for_table("²") is None


def tampered(station, real_lists) -> None:
    """STATION's look-up altered in memory: its lists, names and fingerprints genuine, QZQZ
    found and ZA not (a lexicon object of its own: the hub's, in this process, stays honest)."""
    from adjudicator.lexicon.compiled import Lexicon

    served = []
    for s in station.lists.served:
        own = Lexicon.load(s.lexicon.path)
        own.check_words()
        honest = own.contains
        own.contains = lambda w, honest=honest: w == "QZQZ" or (w != "ZA" and honest(w))
        served.append(s._replace(lexicon=own))
    station.lists = TableLists(station.lists.event, tuple(served), station.lists.secondary)


def test_a_station_tampered_in_memory_is_caught_at_a_real_hub(tmp_path, start_hub, monkeypatch):
    """Two desks of division A at a real hub: the honest one's rows agree; the tampered one's
    QZQZ ACCEPTABLE and ZA UNACCEPTABLE are flagged on the page and in the hub's export."""
    import csv
    import io

    from hub_process import wait_for
    from test_follow import open_desk

    from adjudicator.station import follow
    from adjudicator.journal import export_journal

    monkeypatch.setattr(follow, "OFFLINE_AFTER", 0.3)
    shelf = tmp_path / "shelf"
    alpha = shelve(shelf, "ALPHA", ["QI", "ZA"])
    beta = shelve(shelf, "BETA", ["CAT", "XU"])
    event = Event("Club Open", (
        Division("A", "ALPHA", ChallengeRule.WORD5, ((1, 20),), alpha.fingerprint),
        Division("B", "BETA", ChallengeRule.DOUBLE, ((21, 40),), beta.fingerprint)), version=1)
    hub = start_hub()
    hub.call(setattr, hub.hub, "event_lists", {alpha.fingerprint: alpha.path,
                                               beta.fingerprint: beta.path})
    hub.call(setattr, hub.hub, "event", event)
    honest = open_desk(tmp_path, "Desk 1", "A", "ALPHA", hub)
    liar = open_desk(tmp_path, "Desk Q", "A", "ALPHA", hub)
    for desk in (honest, liar):
        wait_for(lambda desk=desk: desk.following.pending)
        desk.at_ready()
    tampered(liar, None)
    assert honest.submit("qi za", table="3").verdict.acceptable
    assert not honest.submit("qzqz", table="4").verdict.acceptable
    assert liar.submit("qzqz", table="7").verdict.acceptable  # the lie
    assert not liar.submit("za", table="8").verdict.acceptable  # and a real word refused
    assert liar.submit("qi", table="9").verdict.acceptable  # an honest verdict of the liar's

    def done():
        s = hub.call(hub.hub.board.snapshot)
        return s if s["checked"]["rows"] == 5 else None
    snap = wait_for(done)
    assert snap["checked"] == {"rows": 5, "agree": 3, "disagree": 2, "other_list": 0,
                               "unchecked": 0}
    first = snap["alarms"][:2]
    assert {(a["station"], a["text"]) for a in first} == {
        ("Desk Q", "said ACCEPTABLE for QZQZ at table 7; division A's ALPHA says UNACCEPTABLE"),
        ("Desk Q", "said UNACCEPTABLE for ZA at table 8; division A's ALPHA says ACCEPTABLE")}
    assert all(a["level"] == -1 for a in first)
    assert [a["text"] for a in snap["alarms"] if a["station"] == "Desk 1"] == [
        "not locked: no director PIN"]  # (the event sets none) and nothing of its rows
    flagged = {(c["station"], c["words"]): c["flags"] for c in snap["latest"]}
    assert flagged[("Desk Q", "QZQZ")][0].startswith("the hub's check: said ACCEPTABLE")
    assert flagged[("Desk 1", "QZQZ")] == [] and flagged[("Desk Q", "QI")] == []
    hub.stop()
    import sqlite3

    with sqlite3.connect(hub.journal_path) as conn:  # each row said the version it was under
        said = conn.execute("SELECT event_version FROM hub_audit ORDER BY seq").fetchall()
    assert said == [(1,)] * 5
    cells = list(csv.DictReader(io.StringIO(export_journal(hub.journal_path, "csv"))))
    checks = {(c["station"], c["words"]): c["hub_check"] for c in cells}
    assert checks[("Desk 1", "QI ZA")] == "agrees" and checks[("Desk Q", "QI")] == "agrees"
    assert checks[("Desk Q", "QZQZ")] == ("disagrees: said ACCEPTABLE for QZQZ at table 7; "
                                          "division A's ALPHA says UNACCEPTABLE")
    assert checks[("Desk Q", "ZA")].startswith("disagrees: said UNACCEPTABLE for ZA")


def test_the_hubs_judgement_is_kept_across_a_restart(tmp_path, start_hub):
    """A restarted hub shows each row's judgement as it was made when the row came (kept in its
    journal), not made again with whatever lists it holds now."""
    from hub_process import wait_for
    from odd_station import OddStation

    shelf = tmp_path / "shelf"
    alpha = shelve(shelf, "ALPHA", ["QI", "ZA"])
    event = Event("Club", (Division("A", "ALPHA", ChallengeRule.WORD5, (), alpha.fingerprint),),
                  version=1)
    path = tmp_path / "hub.db"
    hub = start_hub(path)
    hub.call(setattr, hub.hub, "event_lists", {alpha.fingerprint: alpha.path})
    hub.call(setattr, hub.hub, "event", event)
    desk = OddStation(hub.url, hub.hub.station_token, "Desk 3")
    status, _ = desk.send(words="QZQZ", acceptable=1, game_table="5", lexicon_name="ALPHA",
                          fingerprint=alpha.fingerprint, rule="5-per-word")
    assert status == 200
    wait_for(lambda: hub.call(hub.hub.board.snapshot)["checked"]["disagree"] == 1)
    hub.stop()
    again = start_hub(path)  # the hub's lists not given again: nothing to judge with now
    snap = again.call(again.hub.board.snapshot)
    assert snap["checked"]["disagree"] == 1
    assert snap["alarms"][0]["text"].startswith("said ACCEPTABLE for QZQZ at table 5")


def test_a_one_shot_judge_naming_no_division_raises_no_stale_list_alarm(lists):
    """A `judge --config` laptop says no division in its push: the list it last judged with is
    its table's to decide (each row checked), not compared with every division at once (issue
    40: 'its divisions A, B, C use ...' stayed after it followed); one naming its division is."""
    from adjudicator.hub.eventalarms import event_alarms
    from adjudicator.hub.stationview import StationView

    event = event_of(lists, 2)
    laptop = StationView("j1")
    laptop.lexicon, laptop.fingerprint = "BETA", lists["BETA"].fingerprint
    assert not any("judges with" in a for a in event_alarms(laptop, event, 0.0))
    laptop.divisions = "A"
    assert "judges with BETA, its division A uses ALPHA" in event_alarms(laptop, event, 0.0)


def test_one_stations_flood_of_flagged_rows_never_pushes_anothers_alarm_off(lists):
    """Alarms kept per station, ordered by when the hub took the row: 300 rows of a flooding
    station at distinct tables dated 2099 leave the honest desk's one disagreement on the page
    (issue 41 item 2, for the hub's own judgements)."""
    from adjudicator.event.history import Check
    from adjudicator.hub.board import Board
    from adjudicator.hub.kept import MAX_WRONG
    from adjudicator.hub.hub_journal import CHECK

    board = Board()

    def flagged(station: str, seq: int, table: str, when: str, why: str) -> dict:
        check = Check(DISAGREES, why, "A", "ALPHA", 1, T0.isoformat())
        return {"seq": seq, "origin_journal": station, "origin_seq": seq, "station": station,
                "time_utc": when, "time_local": when, "mode": "station", "game_table": table,
                "round": None, "words": "QZQZ", "acceptable": 1, "lexicon_name": "ALPHA",
                "fingerprint": lists["ALPHA"].fingerprint, "rule": "5-per-word",
                "recheck_of": None, "secondary_agrees": None, "flags": "[]",
                CHECK: check.to_json()}
    board.add_rows("desk7", [flagged("Desk 7", 1, "3", T0.isoformat(), "said ACCEPTABLE for "
                                     "QZQZ at table 3; division A's ALPHA says UNACCEPTABLE")])
    board.add_rows("flood", [flagged("Flood", n, f"T{n}", f"2099-01-01T00:00:{n % 60:02}Z",
                                     f"flood {n}") for n in range(1, 301)])
    alarms = [a for a in board.snapshot()["alarms"] if a["level"] == -1]
    assert sum(a["station"] == "Flood" for a in alarms) == MAX_WRONG
    assert [a["text"] for a in alarms if a["station"] == "Desk 7"] == [
        "said ACCEPTABLE for QZQZ at table 3; division A's ALPHA says UNACCEPTABLE"]
    assert alarms[0]["text"] == "flood 300"  # the latest the hub took first, not by 2099


def test_a_table_written_fullwidth_or_with_an_invisible_is_its_table_at_a_real_hub(
        tmp_path, start_hub, lists):
    """Issue 41 item 8: '１２' and '12' + U+200B were tables of their own, in no division, never
    checked, '１２' read as 12 on the page; now each is table 12 (one row on the page), in
    division A, checked (a lie caught there too) and flagged as written otherwise."""
    from hub_process import wait_for
    from odd_station import OddStation

    hub = start_hub()
    hub.call(setattr, hub.hub, "event_lists", {lex.fingerprint: lex.path
                                               for lex in lists.values()})
    hub.call(setattr, hub.hub, "event", event_of(lists, 1))
    desk = OddStation(hub.url, hub.hub.station_token, "Desk 3")
    alpha = lists["ALPHA"]
    for table, words in (("12", "QI"), ("\uff11\uff12", "ZA"), ("12\u200b", "QZQZ")):
        status, _ = desk.send(words=words, acceptable=1, game_table=table, lexicon_name="ALPHA",
                              fingerprint=alpha.fingerprint, rule="5-per-word")
        assert status == 200
    wait_for(lambda: hub.call(hub.hub.board.snapshot)["checked"]["rows"] == 3)
    snap = hub.call(hub.hub.board.snapshot)
    assert snap["checked"] == {"rows": 3, "agree": 2, "disagree": 1, "other_list": 0,
                               "unchecked": 0}
    assert [(t["key"], t["challenges"]) for t in snap["tables"]] == [("12", 3)]
    flags = [f for c in snap["latest"] for f in c["flags"]]
    assert "table written otherwise ('１２', read as 12)" in flags
    assert "table written otherwise ('12␦', read as 12)" in flags
    assert snap["alarms"][0]["text"].startswith("said ACCEPTABLE for QZQZ at table 12")
