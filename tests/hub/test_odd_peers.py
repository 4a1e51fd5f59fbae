"""Odd values from a peer are plain errors (issue 33 item 7): every field a station or a director's
page sends is type-checked to a 4xx, never a 500, and hub.toml keeps its size across saves."""

from __future__ import annotations

import json

import pytest

from odd_station import OddStation
from test_event_join import get, lists, post, started  # noqa: F401 (lists: the fixture)

from adjudicator import wire


@pytest.mark.parametrize("fields, said", [
    ({"event_version": "²"}, "event_version must be a number"),
    ({"event_version": "١٢"}, "event_version must be a number"),
    ({"event_version": "-1"}, "event_version must be a number"),
    ({"event_version": 3}, "event_version must be text"),
    ({"locked": "maybe"}, "locked must be yes or no"),
    ({"divisions": ["A"]}, "divisions must be text"),
    ({"last_seq": "1"}, "last_seq must be a whole number"),
    ({"last_seq": True}, "last_seq must be a whole number"),
])
def test_an_odd_heartbeat_field_is_a_400_naming_it(start_hub, tmp_path, fields, said):
    hub = start_hub()
    station = OddStation(hub.url, hub.hub.station_token)
    status, answer = station.beat(**fields)
    assert status == 400 and said in answer["error"], answer
    status, answer = station.beat(event_version="7", locked="yes")  # the same station, honest
    assert status == 200, answer


def test_wire_takes_an_honest_heartbeats_event_fields():
    beat = {"journal_id": "j1", "last_seq": 0, "event_version": "12", "locked": "no",
            "divisions": "A,B"}
    assert wire.check_heartbeat(beat) is beat


@pytest.mark.parametrize("change", [
    {"name": 7, "divisions": [{"name": "A", "lexicon": "TINYA"}]},
    {"name": ["X"], "divisions": [{"name": "A", "lexicon": "TINYA"}]},
    {"name": "X", "divisions": [{"name": 1, "lexicon": "TINYA"}]},
    {"name": "X", "divisions": [{"name": "A", "lexicon": "TINYA", "challenge_rule": 5}]},
    {"name": "X", "divisions": [{"name": "A", "lexicon": "TINYA", "challenge_rule": ["x"]}]},
    {"name": "X", "divisions": [{"name": "A", "lexicon": "TINYA", "tables": 5}]},
    {"name": "X", "divisions": [{"name": "A", "lexicon": "TINYA", "tables": {"a": 1}}]},
    {"name": "X", "divisions": [{"name": "A", "lexicon": ["TINYA"]}]},
    {"name": "X", "divisions": {"name": "A"}},
    {"name": "X", "version": "²", "divisions": [{"name": "A", "lexicon": "TINYA"}]},
    {"name": "X", "version": 1.5, "divisions": [{"name": "A", "lexicon": "TINYA"}]},
    {"name": "X", "pin": 1234, "divisions": [{"name": "A", "lexicon": "TINYA"}]},
    {"name": "X", "pin": "²²²²²²", "divisions": [{"name": "A", "lexicon": "TINYA"}]},
    "text", 5, None,
])
def test_an_odd_panel_field_is_a_400(start_hub, tmp_path, lists, change):  # noqa: F811
    hub = started(start_hub, tmp_path)
    before = (tmp_path / "hub.toml").read_text()
    status, body = post(f"{hub.local_url}/api/event?key={hub.hub.director_token}", change)
    assert status == 400 and json.loads(body)["error"], body
    assert hub.hub.event.version == 1 and (tmp_path / "hub.toml").read_text() == before


def test_hub_toml_keeps_its_size_across_saves(start_hub, tmp_path, lists):  # noqa: F811
    hub = started(start_hub, tmp_path)
    key = hub.hub.director_token
    lines = len((tmp_path / "hub.toml").read_text().splitlines())
    for i in range(20):
        state = json.loads(get(f"{hub.local_url}/api/event?key={key}")[1])
        change = {"name": f"Club Open {i}", "version": state["event"]["event"]["version"],
                  "divisions": [{"name": d["name"], "lexicon": d["lexicon"],
                                 "challenge_rule": d["challenge_rule"], "tables": d["tables"]}
                                for d in state["event"]["division"]]}
        status, body = post(f"{hub.local_url}/api/event?key={key}", change)
        assert status == 200, body
    assert hub.hub.event.version == 21
    assert len((tmp_path / "hub.toml").read_text().splitlines()) == lines
