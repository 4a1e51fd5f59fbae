"""Names compared as people read them at every door (issue 41 items 3 and 4): a heartbeat, the
director's Accept and Rename refuse a name that reads like an accepted station's (the skeleton,
and what it misses: к, κ, ᴋ, ĸ, ƽ, a combining long stroke) or mixes scripts (TR39)."""

from __future__ import annotations

import pytest

from odd_station import OddStation
from test_lookalike_names import _accepted, _post

from adjudicator import wire
from adjudicator.text.lookalike import mixed_scripts, name_key

MISSED = ["Des\u043a 5", "Des\u03ba 5", "Des\u1d0b 5", "Des\u0138 5", "Desk \u01bd",
          "Desk 5\u0336", "De\u0336sk 5"]  # Cyrillic к, Greek κ, ᴋ, ĸ, ƽ, U+0336


@pytest.mark.parametrize("odd", MISSED)
def test_what_the_skeleton_missed_reads_as_the_name(odd):
    assert name_key(odd) == name_key("Desk 5")
    assert name_key(odd) != name_key("Desk 6")


def test_a_mixed_script_name_is_named_and_one_script_is_not():
    assert mixed_scripts("D\u0435sk 9") == ("CYRILLIC", "LATIN")
    assert mixed_scripts("Des\u03ba 5") == ("GREEK", "LATIN")
    for plain in ("Desk 5", "\u0421\u0442\u043e\u043b 5", "\u6771\u4eac\u3072\u3089 2",
                  "\uff24esk 5", "Caf\u00e9 2", "\u1d0besk"):
        assert mixed_scripts(plain) == (), plain


@pytest.mark.parametrize("odd", MISSED)
def test_each_is_refused_beside_an_accepted_desk_5(start_hub, tmp_path, odd):
    hub = start_hub(accept_new=False)
    _accepted(hub, "Desk 5")
    status, answer = OddStation(hub.url, hub.hub.station_token, odd).beat()
    assert status == 409 and "looks like 'Desk 5'" in answer["error"], answer
    assert hub.call(lambda: hub.hub.board.snapshot()["waiting"]) == []


def test_a_mixed_script_name_is_refused_at_the_door_even_alone(start_hub, tmp_path):
    hub = start_hub(accept_new=False)
    status, answer = OddStation(hub.url, hub.hub.station_token, "D\u0435sk 7").beat()
    assert status == 409 and "mixes scripts (Cyrillic and Latin)" in answer["error"]
    alarms = [a["text"] for a in hub.call(lambda: hub.hub.board.snapshot()["alarms"])]
    assert any("a name that mixes scripts" in a for a in alarms), alarms


def test_accept_refuses_a_look_alike_that_waited_before_the_name_was_accepted(start_hub,
                                                                             tmp_path):
    """'Desk 5' + a long stroke waits, then the real 'Desk 5' is accepted: Accept on the
    look-alike is refused (it answered 200 and its ZZXQ ACCEPTABLE was listed under it)."""
    hub = start_hub(accept_new=False)
    rogue = OddStation(hub.url, hub.hub.station_token, "Desk 5\u0336")
    assert rogue.send(words="ZZXQ")[0] == 200
    _accepted(hub, "Desk 5")
    status, answer = _post(hub, "/api/accept", {"station": wire.key_id(rogue.key)})
    assert status == 409 and "looks like 'Desk 5'" in answer["error"], answer
    state = hub.call(hub.hub.board.snapshot)
    assert [s["name"] for s in state["stations"]] == ["Desk 5"]
    assert state["latest"] == [] and len(state["waiting"]) == 1
    assert rogue.send(words="ZZXQ")[0] == 409  # and refused from now on


def test_rename_refuses_a_mixed_script_name_and_accept_then_keeps_one_desk_9(start_hub,
                                                                            tmp_path):
    """Renaming a station to 'Dеsk 9' (Cyrillic е) while 'Desk 9' waits is refused; a rename
    to a one-script look-alike is taken, and then 'Desk 9' cannot be accepted beside it."""
    hub = start_hub(accept_new=False)
    other = _accepted(hub, "Desk 3")
    waiting = OddStation(hub.url, hub.hub.station_token, "Desk 9")
    assert waiting.beat()[0] == 200
    key = wire.key_id(other.key)
    status, answer = _post(hub, "/api/rename", {"station": key, "name": "D\u0435sk 9"})
    assert status == 409 and "mixes scripts" in answer["error"], answer
    status, answer = _post(hub, "/api/rename", {"station": key, "name": "Desk 9\u0336"})
    assert status == 200, answer
    status, answer = _post(hub, "/api/accept", {"station": wire.key_id(waiting.key)})
    assert status == 409 and "looks like 'Desk 9\u0336'" in answer["error"], answer
    names = [s["name"] for s in hub.call(lambda: hub.hub.board.snapshot()["stations"])]
    assert names == ["Desk 9\u0336"]
