"""Issue 32 item 2: a change a station cannot take whole. The division whose new list cannot be
had (not on the shelf, the hub could not send it) keeps judging with the list it has, under the
event's new rule, and says so; its config names what it judges with, so it starts again as it
runs; the change is tried again later and then taken."""

from __future__ import annotations

import dataclasses

import pytest
from tiny_shelf import shelve

from adjudicator.station import follow
from adjudicator.config.station import load_config
from adjudicator.errors import FileAccessError
from adjudicator.event.setup import Division, Event
from adjudicator.station.lists import lists_for
from adjudicator.judging.rules import ChallengeRule
from adjudicator.station.service import open_station


@pytest.fixture
def event_station(tmp_path):
    """A station serving divisions A (ALPHA) and B (BETA); GAMMA exists only elsewhere."""
    shelf = tmp_path / "lists"
    alpha, beta = shelve(shelf, "ALPHA", ["QI", "CAT"]), shelve(shelf, "BETA", ["QI"])
    gamma = shelve(tmp_path / "hubs", "GAMMA", ["QI", "ZO"])
    path = tmp_path / "desk.toml"
    path.write_text(f'station = "Desk"\nlexicon_dirs = ["{shelf}"]\njournal = "desk.db"\n'
                    '[[division]]\nname = "A"\nlexicon = "ALPHA"\ntables = "1-20"\n'
                    f'fingerprint = "{alpha.fingerprint}"\n'
                    '[[division]]\nname = "B"\nlexicon = "BETA"\ntables = "21-40"\n'
                    f'challenge_rule = "double"\nfingerprint = "{beta.fingerprint}"\n')
    station = open_station(load_config(str(path)), link="none")
    event = Event("Open", (station.config.event_divisions[0], Division(
        "B", "GAMMA", ChallengeRule.TURN5, ((21, 40),), gamma.fingerprint)), version=2)
    yield station, event, gamma, path
    station.close()


def test_a_division_whose_list_cannot_be_had_keeps_its_list_and_says_so(event_station,
                                                                        monkeypatch):
    station, event, gamma, path = event_station

    def unreachable(fingerprint):
        raise FileAccessError("the hub at http://hub:8080 cannot be reached")

    monkeypatch.setattr(follow, "hub_fetch", lambda config: unreachable)
    follow.offer(station, event, now=100.0)
    said = follow.take(station, now=100.0)
    assert "division B: challenge rule double -> 5-per-turn" in said
    assert "division B: the event's list GAMMA could not be had: it judges with BETA" in said
    kept = station.lists.find("B")
    assert kept.lexicon.name == "BETA" and kept.division.challenge_rule is ChallengeRule.TURN5
    outcome = station.submit("zo", table="25")
    assert not outcome.verdict.acceptable and outcome.verdict.lexicon.name == "BETA"
    assert station.journal.get(outcome.seq).rule == "5-per-turn"
    assert "Not the event's list: division B:" in follow.ready_text(station, now=100.0)
    # the config names the list it judges with: a restart starts, and judges as it ran
    written = load_config(str(path)).event_divisions[1]
    assert (written.lexicon, written.challenge_rule) == ("BETA", ChallengeRule.TURN5)
    again = lists_for(load_config(str(path)))
    assert again.choose("25").lexicon.fingerprint == kept.lexicon.fingerprint
    # the same version is not tried again at once; after RETRY_AFTER it is, and taken
    follow.offer(station, event, now=100.0 + follow.RETRY_AFTER / 2)
    assert station.following.pending is None
    def fetched(fingerprint):  # as link/join.fetch_list does: checked, onto the shelf
        import shutil

        return shutil.copy(gamma.path, str(path.parent / "lists" / "GAMMA.lex"))

    monkeypatch.setattr(follow, "hub_fetch", lambda config: fetched)
    follow.offer(station, event, now=100.0 + follow.RETRY_AFTER + 1)
    said = follow.take(station, now=100.0 + follow.RETRY_AFTER + 1)
    assert "division B: list BETA -> GAMMA" in said
    assert station.submit("zo", table="25").verdict.acceptable
    assert not station.lists.kept and "Not the event's list" not in follow.ready_text(station)
    assert load_config(str(path)).event_divisions[1].lexicon == "GAMMA"
    restarted = lists_for(load_config(str(path)))
    assert restarted.choose("25").lexicon.fingerprint == gamma.fingerprint


def test_a_division_new_to_a_station_without_its_list_changes_nothing(event_station,
                                                                      monkeypatch):
    """A division this station never judged, its list not to be had: the change is not taken
    at all (nothing to keep), and the station says why; its config is unchanged."""
    station, event, gamma, path = event_station
    before = path.read_text()
    c = Division("C", "GAMMA", ChallengeRule.WORD5, ((41, 60),), gamma.fingerprint)
    monkeypatch.setattr(follow, "hub_fetch", lambda config: None)
    follow.offer(station, dataclasses.replace(event, divisions=(*event.divisions, c)),
                 now=5.0)
    said = follow.take(station, now=5.0)
    assert "could not be taken" in said and "keeps its settings" in said
    assert path.read_text() == before
    assert station.lists.find("B").division.challenge_rule is ChallengeRule.DOUBLE
