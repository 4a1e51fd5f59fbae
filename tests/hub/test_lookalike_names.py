"""Names compared as people read them (issue 33 items 3 and 4): a station name that looks like an
accepted one (Unicode TR39's confusable skeleton, default-ignorable characters left out) is
refused; an accepted key's name is bound to it, kept across a restart, and changed only by the
director."""

from __future__ import annotations

import json
import urllib.request

import pytest

from odd_station import OddStation

from adjudicator import wire
from adjudicator.hub.waiting import LOOKS_LIKE
from adjudicator.text.lookalike import is_default_ignorable, name_key, same_to_the_eye, skeleton

LOOK_ALIKES = [("Desk 1\u034f", "Desk 1"), ("Desk 1\ufe0f", "Desk 1"), ("Desk 1\u180b", "Desk 1"),
               ("Desk\u28001", "Desk 1"), ("\u13a0esk 1", "Desk 1"), ("Desk \u0417", "Desk 3"),
               ("D\u0435sk 1", "Desk 1"), ("Desk\u200b 1", "Desk 1"), ("desk 1", "Desk 1"),
               ("\uff24esk 1", "Desk 1")]


def test_the_skeleton_is_unicodes():
    assert skeleton("\u13a0esk 1") == skeleton("Desk 1") == "Desk l"  # TR39: 1 reads as l
    assert skeleton("Desk \u0417") == "Desk 3"
    assert skeleton("Desk 1\u034f\ufe0f\u180b") == "Desk l"  # default-ignorable: left out
    assert all(map(is_default_ignorable, "\u034f\ufe0f\u180b\u200b\u2060\ufeff\u00ad"))
    assert not any(map(is_default_ignorable, "a \u2800\u0600\ufff9"))


@pytest.mark.parametrize("odd, real", LOOK_ALIKES)
def test_each_look_alike_reads_as_the_name_it_imitates(odd, real):
    assert same_to_the_eye(odd, real) and name_key(odd) == name_key(real)
    other = "Desk 3" if real == "Desk 1" else "Desk 1"
    assert not same_to_the_eye(odd, other)


def _post(hub, path: str, body: dict):
    request = urllib.request.Request(f"{hub.url}{path}?key={hub.hub.director_token}",
                                     json.dumps(body).encode(), method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _accepted(hub, name: str) -> OddStation:
    station = OddStation(hub.url, hub.hub.station_token, name)
    assert station.beat()[0] == 200
    assert _post(hub, "/api/accept", {"station": wire.key_id(station.key)})[0] == 200
    return station


def test_every_look_alike_of_an_accepted_name_is_refused(start_hub, tmp_path):
    hub = start_hub(accept_new=False)
    _accepted(hub, "Desk 1")
    _accepted(hub, "Desk 3")
    for odd, real in LOOK_ALIKES:
        status, answer = OddStation(hub.url, hub.hub.station_token, odd).beat()
        assert status == 409 and f"looks like {real!r}" in answer["error"], (odd, answer)
    waiting = hub.call(lambda: hub.hub.board.snapshot()["waiting"])
    assert waiting == []  # none waits, drawn like the real one
    assert OddStation(hub.url, hub.hub.station_token, "Desk 2").beat()[0] == 200


def test_an_accepted_station_cannot_rename_itself_only_the_director_can(start_hub, tmp_path):
    hub = start_hub(accept_new=False)
    desk = _accepted(hub, "Desk 1")
    assert desk.send()[0] == 200
    status, answer = desk.beat(station="Desk 9")
    assert status == 409 and "only the director renames" in answer["error"]
    status, answer = desk.send(station="Desk 9")  # nor by its rows
    assert status == 409
    names = [s["name"] for s in hub.call(lambda: hub.hub.board.snapshot()["stations"])]
    assert names == ["Desk 1"]
    key = wire.key_id(desk.key)
    assert _post(hub, "/api/rename", {"station": key, "name": "Desk 3"})[0] == 200
    assert _post(hub, "/api/rename", {"station": key, "name": 5})[0] == 400
    assert _post(hub, "/api/rename", {"station": "nobody", "name": "Desk 4"})[0] == 404
    desk.name = "Desk 3"
    assert desk.beat()[0] == 200 and desk.send()[0] == 200
    names = [s["name"] for s in hub.call(lambda: hub.hub.board.snapshot()["stations"])]
    assert names == ["Desk 3"] and hub.hub.board.stations[desk.journal_id].challenges == 2
    other = _accepted(hub, "Desk 1")  # the old name is free
    status, answer = _post(hub, "/api/rename", {"station": wire.key_id(other.key),
                                                "name": "Desk 3"})
    assert (status, answer["error"]) == (  # said to the director, who chooses the name
        409, "'Desk 3' is another station's name: choose one that no other station holds")
    status, answer = _post(hub, "/api/rename", {"station": wire.key_id(other.key),
                                                "name": "DESK  3"})
    assert (status, answer["error"]) == (
        409, "'DESK  3' looks like 'Desk 3', another station's name: choose one that reads "
        "differently")


def test_the_director_may_change_only_how_a_name_is_written(start_hub, tmp_path):
    """Its own name in capitals is still its own: not refused as looking like another's."""
    hub = start_hub(accept_new=False)
    desk = _accepted(hub, "desk 1")
    assert desk.send()[0] == 200
    status, answer = _post(hub, "/api/rename", {"station": wire.key_id(desk.key), "name": "DESK 1"})
    assert (status, answer.get("name")) == (200, "DESK 1"), answer
    desk.name = "DESK 1"
    assert desk.beat()[0] == 200 and desk.send()[0] == 200
    names = [s["name"] for s in hub.call(lambda: hub.hub.board.snapshot()["stations"])]
    assert names == ["DESK 1"] and hub.hub.board.stations[desk.journal_id].challenges == 2


def test_a_restart_keeps_whose_name_is_whose(start_hub, tmp_path):
    hub = start_hub(accept_new=False)
    real = _accepted(hub, "Desk 5")  # accepted, no row sent yet
    hub.stop()
    again = start_hub(accept_new=False)
    ghost = OddStation(again.url, again.hub.station_token, "Desk 5")  # only the hub_token
    status, answer = ghost.beat()
    assert status == 409 and "belongs to another station's key" in answer["error"]
    assert ghost.send()[0] == 409
    real.url = again.url
    real.stamp = ""
    assert real.beat()[0] == 200
    status, answer = real.send()
    assert status == 200 and answer["acked"] == 1
    stations = again.call(lambda: again.hub.board.snapshot()["stations"])
    assert [(s["name"], s["challenges"]) for s in stations] == [("Desk 5", 1)]


def test_waiting_look_alikes_mark_only_the_newcomer(start_hub, tmp_path):
    """Stations waiting under names that read alike (neither accepted yet, so neither is
    refused): only the one that came later is marked, never the first; once the director
    accepts the name they imitate, every one still waiting is marked, never the accepted one,
    and Accept refuses them (issue 41 item 3)."""
    hub = start_hub(accept_new=False)
    early = OddStation(hub.url, hub.hub.station_token, "Desk 1\u034f")
    assert early.beat()[0] == 200
    assert OddStation(hub.url, hub.hub.station_token, "Desk 1\u0336").beat()[0] == 200
    assert OddStation(hub.url, hub.hub.station_token, "Desk 2").beat()[0] == 200

    def waiting():
        return [w["name"] for w in hub.call(lambda: hub.hub.board.snapshot()["waiting"])]
    assert waiting() == ["Desk 1\u034f", "Desk 1\u0336" + LOOKS_LIKE, "Desk 2"]
    real = OddStation(hub.url, hub.hub.station_token, "Desk 1")
    assert real.beat()[0] == 200
    assert waiting()[-1] == "Desk 1" + LOOKS_LIKE  # it came last: the panel cannot tell
    assert _post(hub, "/api/accept", {"station": wire.key_id(real.key)})[0] == 200
    assert waiting() == ["Desk 1\u034f" + LOOKS_LIKE, "Desk 1\u0336" + LOOKS_LIKE, "Desk 2"]
    status, answer = _post(hub, "/api/accept", {"station": wire.key_id(early.key)})
    assert status == 409 and "looks like 'Desk 1'" in answer["error"]
    stations = hub.call(lambda: hub.hub.board.snapshot()["stations"])
    assert [s["name"] for s in stations] == ["Desk 1"]
    assert early.beat()[0] == 409  # and from now on refused
