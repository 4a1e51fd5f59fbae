"""Stations follow the hub's event (issue 27 item 3), as a director runs it: two divisions, a list
changed mid-event, a station left on the old list, one offline during the change, the PIN."""

from __future__ import annotations

import dataclasses

import pytest
from hub_process import wait_for
from tiny_shelf import shelve

from adjudicator.station import follow
from adjudicator import wire
from adjudicator.config.station import Config, load_config
from adjudicator.event.setup import Division, Event
from adjudicator.hub.board import Board
from adjudicator.hub.eventalarms import BEHIND_AFTER
from adjudicator.link.forward import Forwarder
from adjudicator.link.hubclient import HubUnreachable
from adjudicator.event.pin import hash_pin, verify_pin
from adjudicator.judging.rules import ChallengeRule
from adjudicator.station.service import open_station

OLD_PIN, NEW_PIN = "4711", "8642"


@pytest.fixture
def hall(tmp_path, monkeypatch):
    """The shelf (tmp HOME's, $ADJUDICATOR_SHELF) with three tiny lists, and the event."""
    shelf = tmp_path / "shelf"
    lists = {"ALPHA": shelve(shelf, "ALPHA", ["QI", "ZA"]),
             "ALPHA2": shelve(shelf, "ALPHA2", ["QI", "ZA", "ZO"]),
             "BETA": shelve(shelf, "BETA", ["CAT", "XU"])}
    event = Event("Club Open", (
        Division("A", "ALPHA", ChallengeRule.WORD5, ((1, 20),), lists["ALPHA"].fingerprint),
        Division("B", "BETA", ChallengeRule.DOUBLE, ((21, 40),), lists["BETA"].fingerprint)),
        pin_hash=hash_pin(OLD_PIN), version=1)
    monkeypatch.setattr(follow, "OFFLINE_AFTER", 0.3)
    return lists, event


def station_file(tmp_path, name: str, division: str, lexicon: str, hub) -> Config:
    """A station's config as `adjudicator join` leaves it (a comment the director wrote too)."""
    path = tmp_path / f"{name}.toml"
    path.write_text(f'# {name}: by the door\nstation = "{name}"\nlexicon = "{lexicon}"\n'
                    f'divisions = ["{division}"]\njournal = "{name}.db"\n'
                    f'hub = "{hub.url}"\nhub_token = "{hub.hub.station_token}"\n'
                    f'hub_fingerprint = "{hub.pin}"\n'
                    '[[division]]\nname = "A"\nlexicon = "ALPHA"\ntables = "1-20"\n'
                    '[[division]]\nname = "B"\nlexicon = "BETA"\ntables = "21-40"\n')
    return load_config(str(path))


def open_desk(tmp_path, name, division, lexicon, hub):
    station = open_station(station_file(tmp_path, name, division, lexicon, hub))
    station.hub_link.heartbeat_every = 0.2  # the hall's 5 s, quicker for the test
    return station


def desk_at_ready(tmp_path, event, hub, name: str):
    """A division-A station of the hub's EVENT, past its first Ready (the event taken)."""
    hub.hub.event = event
    desk = open_desk(tmp_path, name, "A", "ALPHA", hub)
    wait_for(lambda: desk.following.pending)
    desk.at_ready()
    return desk


def station_row(snapshot: dict, name: str) -> dict:
    return next(s for s in snapshot["stations"] if s["name"] == name)


def test_a_change_of_list_reaches_every_station_at_its_next_ready(tmp_path, hall, start_hub):
    lists, event = hall
    hub = start_hub()
    hub.hub.event = event
    desk1 = open_desk(tmp_path, "Desk 1", "A", "ALPHA", hub)
    desk4 = open_desk(tmp_path, "Desk 4", "A", "ALPHA", hub)
    desk7 = open_desk(tmp_path, "Desk 7", "B", "BETA", hub)
    desks = (desk1, desk4, desk7)
    try:
        # each takes the event as it is at its first Ready: the PIN, the name, its division's rule
        wait_for(lambda: all(d.following.pending for d in desks))
        for desk in desks:
            desk.at_ready()
        assert desk7.config.challenge_rule is ChallengeRule.DOUBLE
        assert verify_pin(OLD_PIN, desk1.config.pin_hash)
        snap = wait_for(lambda: (s := hub.call(hub.hub.board.snapshot)) and all(
            r["alarms"] == [] and r["lexicon"] for r in s["stations"]) and len(
            s["stations"]) == 3 and s)
        assert {r["name"] for r in snap["stations"]} == {"Desk 1", "Desk 4", "Desk 7"}
        snap = wait_for(lambda: (s := hub.call(hub.hub.board.snapshot)) and station_row(
            s, "Desk 7")["lists"] and s)  # its heartbeat's lists by division (issue 32)
        assert [(e["division"], e["lexicon"], e["rule"]) for e in station_row(
            snap, "Desk 7")["lists"]] == [("B", "BETA", "double")]

        # Desk 4 has an ALPHA2 of its own in its folder: not the event's (another fingerprint)
        own = tmp_path / "desk4-lists"
        shelve(own, "ALPHA2", ["QI", "ZA", "ZO", "XX"])
        desk4.config = desk4.config.with_changes(lexicon_dirs=(str(own),))

        # mid-event, Desk 1 shows a verdict: ZO is not in ALPHA
        shown = desk1.submit("zo")
        assert not shown.verdict.acceptable
        # the director changes division A's list, and the PIN
        divisions = (dataclasses.replace(event.divisions[0], lexicon="ALPHA2",
                                         fingerprint=lists["ALPHA2"].fingerprint),
                     event.divisions[1])
        changed = Event(event.name, divisions, hash_pin(NEW_PIN), event.version + 1)
        hub.call(setattr, hub.hub, "event", changed)
        wait_for(lambda: desk1.following.pending and desk1.following.pending.version == 2)
        # during the verdict (a recheck) nothing changes: the same list judges
        again = desk1.recheck(shown)
        assert not again.verdict.acceptable and desk1.lexicon.name == "ALPHA"
        # back at Ready: taken, said, written to the file (its comment kept), journaled
        said = desk1.at_ready()
        assert "list ALPHA -> ALPHA2" in said and "director PIN changed" in said
        assert desk1.submit("zo").verdict.acceptable
        assert verify_pin(NEW_PIN, desk1.config.pin_hash)  # F12 asks the new PIN
        assert not verify_pin(OLD_PIN, desk1.config.pin_hash)
        text = (tmp_path / "Desk 1.toml").read_text()
        assert text.startswith("# Desk 1: by the door\n") and 'lexicon = "ALPHA2"' in text
        reread = load_config(str(tmp_path / "Desk 1.toml"))  # a restart keeps it
        assert reread.lexicon == "ALPHA2" and verify_pin(NEW_PIN, reread.pin_hash)
        assert reread.event_divisions == divisions
        what, detail, _ = desk1.journal.events()[-1]
        assert what == "event changed by the director" and "ALPHA2" in detail
        assert follow.ready_text(desk1).startswith("The director changed the event")

        # Desk 7 (division B) gets the PIN, keeps its list; Desk 4 keeps ALPHA: an alarm by name
        for desk in (desk4, desk7):
            wait_for(lambda d=desk: d.following.pending)
            desk.at_ready()
        assert desk7.lexicon.name == "BETA" and verify_pin(NEW_PIN, desk7.config.pin_hash)
        # Desk 4's own ALPHA2 is not the one pinned: the event's, by its fingerprint, judges
        assert desk4.lexicon.fingerprint == lists["ALPHA2"].fingerprint
        assert verify_pin(NEW_PIN, desk4.config.pin_hash)
        assert desk4.submit("zo", table="3").verdict.acceptable
        snap = wait_for(lambda: (s := hub.call(hub.hub.board.snapshot)) and all(
            station_row(s, n)["lexicon"] == w for n, w in (("Desk 1", "ALPHA2"),
                                                            ("Desk 4", "ALPHA2"))) and s)
        for name in ("Desk 1", "Desk 4", "Desk 7"):
            assert station_row(snap, name)["alarms"] == []
    finally:
        for desk in desks:
            desk.close()


def test_a_station_offline_during_the_change_takes_it_when_it_is_back(tmp_path, hall,
                                                                      start_hub):
    lists, event = hall
    hub = start_hub()
    desk = desk_at_ready(tmp_path, event, hub, "Desk 2")
    try:
        assert "Hub not reached" not in follow.ready_text(desk)
        link = desk.hub_link
        url, link.hub = link.hub, "http://127.0.0.1:9"  # the hall's cable pulled out
        wait_for(lambda: "Hub not reached" in follow.ready_text(desk))
        assert "Hub not reached since" in follow.ready_text(desk)
        assert "keeps its last settings" in follow.ready_text(desk)
        divisions = (dataclasses.replace(event.divisions[0], lexicon="ALPHA2",
                                         fingerprint=lists["ALPHA2"].fingerprint),
                     event.divisions[1])
        hub.call(setattr, hub.hub, "event", dataclasses.replace(event, divisions=divisions,
                                                                version=2))
        assert desk.at_ready() == "" and desk.lexicon.name == "ALPHA"  # its last settings
        link.hub = url  # plugged in again
        wait_for(lambda: desk.following.pending)
        assert "list ALPHA -> ALPHA2" in desk.at_ready()
        assert desk.lexicon.name == "ALPHA2" and desk.following.version == 2
        wait_for(lambda: "Hub not reached" not in follow.ready_text(desk))
    finally:
        desk.close()


def test_a_station_not_accepted_takes_no_part(tmp_path, hall, start_hub):
    _, event = hall
    hub = start_hub(accept_new=False)
    hub.hub.event = event
    desk = open_desk(tmp_path, "Desk 9", "A", "ALPHA", hub)
    try:
        snap = wait_for(lambda: (s := hub.call(hub.hub.board.snapshot))["waiting"] and s)
        wait_for(lambda: desk.hub_link.last_answer is not None or desk.hub_link.refused)
        assert desk.following.pending is None and desk.hub_link.event_version == -1
        assert snap["stations"] == [] and not any("Desk 9" in a["text"]
                                                  for a in snap["alarms"])
    finally:
        desk.close()


def test_the_alarms_replace_the_majority_vote_at_an_event(hall):
    lists, event = hall
    now = [100.0]
    board = Board(clock=lambda: now[0])
    beat = {"mode": "station", "lexicon": "ALPHA", "fingerprint": lists["ALPHA"].fingerprint,
            "divisions": "A", "locked": "yes", "event_version": "1", "last_seq": 0}
    board.heartbeat("j1", {**beat, "station": "Desk 1"})
    board.heartbeat("j2", {**beat, "station": "Desk 2", "locked": "no"})
    board.heartbeat("j3", {**beat, "station": "Desk 3", "lexicon": "BETA",
                           "fingerprint": lists["BETA"].fingerprint, "divisions": "B"})
    board.heartbeat("j4", {**beat, "station": "Desk 4", "lexicon": "MINE",
                           "fingerprint": "ab" * 32})
    # no event: the majority vote (ALPHA) names the two others
    alarms = {s["name"]: s["alarms"] for s in board.snapshot()["stations"]}
    assert alarms["Desk 3"] == ["lexicon mismatch"] == alarms["Desk 4"]
    board.event_of = lambda: event
    alarms = {s["name"]: s["alarms"] for s in board.snapshot()["stations"]}
    assert alarms == {
        "Desk 1": [], "Desk 2": ["not locked: no director PIN"], "Desk 3": [],
        "Desk 4": ["judges with MINE, its division A uses ALPHA",
                   "judges with an unrecognised list (MINE)"]}
    # a new version: a station still on the old one is named after a heartbeat or two
    board.event_of = lambda: dataclasses.replace(event, version=2)
    board.heartbeat("j1", {**beat, "station": "Desk 1"})
    assert station_row(board.snapshot(), "Desk 1")["alarms"] == []
    now[0] += BEHIND_AFTER + 1
    board.heartbeat("j1", {**beat, "station": "Desk 1"})
    assert station_row(board.snapshot(), "Desk 1")["alarms"] == [
        "runs event version 1, the hub's is 2"]
    board.heartbeat("j1", {**beat, "station": "Desk 1", "event_version": "2"})
    assert station_row(board.snapshot(), "Desk 1")["alarms"] == []


def test_a_bad_event_in_an_answer_is_refused_like_any_bad_answer(tmp_path):
    sender = Forwarder(str(tmp_path / "j.db"), "http://127.0.0.1:9", "t")
    taken = []
    sender.on_event = taken.append
    for bad in ({"event": {"name": 5}, "division": []}, [], {"event": {}},
                {"event": {}, "division": [{"name": "A", "lexicon": "X",
                                            "challenge_rule": "nonsense"}]},
                {"event": {}, "division": []}):
        with pytest.raises(HubUnreachable, match="not the hub's answer"):
            sender._answer({"acked": 0, "known": True, "event": bad}, "/api/heartbeat")
    assert taken == []
    good = {"event": {"name": "Open", "pin_hash": "", "version": 3},
            "division": [{"name": "A", "lexicon": "CSW24", "challenge_rule": "double"}]}
    sender._answer({"acked": 0, "known": True, "event": good}, "/api/heartbeat")
    assert [e.version for e in taken] == [3] and wire.event_of({"acked": 0}) is None
    sender.on_event = lambda e: 1 / 0  # a station that fails to take it: the sender lives on
    sender._answer({"acked": 0, "known": True, "event": {**good, "event": {
        "name": "Open", "pin_hash": "", "version": 4}}}, "/api/heartbeat")
    assert "could not be taken" in sender.problem


def test_a_directors_edit_between_the_hubs_word_and_ready_is_kept(tmp_path, hall):
    lists, event = hall
    path = tmp_path / "desk.toml"
    path.write_text('station = "Desk 3"\nlexicon = "BETA"\ndivisions = ["B"]\n'
                    '[[division]]\nname = "B"\nlexicon = "BETA"\n')
    desk = open_station(load_config(str(path)), journal=None)
    try:
        desk.follow(event)  # the sender's thread prepares it...
        desk.config = desk.config.with_changes(station="Desk 3 (door)")  # ...director mode saves
        said = desk.at_ready()
        assert desk.config.station == "Desk 3 (door)" and desk.config.divisions == ("B",)
        assert desk.config.challenge_rule is ChallengeRule.DOUBLE and "double" in said
        assert load_config(str(path)).station == "Desk 3 (door)"
    finally:
        desk.close()


def test_a_rejected_station_says_the_hub_refused_it_not_that_it_was_not_reached(
        tmp_path, hall, start_hub):
    """Issue 33 item 8: reached and refused is not "not reached"."""
    from ghosts import director

    hub = start_hub(accept_new=False)
    desk = open_desk(tmp_path, "Desk 5", "A", "ALPHA", hub)
    try:
        waiting = wait_for(lambda: hub.call(hub.hub.board.snapshot)["waiting"])
        assert director(hub.local_url, hub.hub.director_token, "reject", waiting[0]["key"]) == 200
        said = wait_for(lambda: (t := follow.ready_text(desk)) and "refused" in t and t)
        assert said.startswith("The hub refused this station (the director rejected this "
                               "station")
        assert "not reached" not in said
    finally:
        desk.close()
