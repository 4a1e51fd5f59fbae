"""The director renames a station on the hub's page: the station keeps sending (rows it judged
under its old name too), takes the new name at its next Ready, and the hub keeps both across a
restart. Before, a renamed station was refused by the hub until someone edited it by hand, and
its journal's own name kept it refused even then."""

from __future__ import annotations

import json
import urllib.request

import pytest
from hub_process import HubProcess, accept_waiting, wait_for
from test_follow import desk_at_ready, hall  # noqa: F401 - hall is a fixture
from test_forwarding import run_judge
from test_lookalike_names import _accepted, _post

from adjudicator.station import follow
from adjudicator import wire
from adjudicator.config.station import load_config
from adjudicator.journal import export_journal
from adjudicator.link.forward import Forwarder
from adjudicator.link.hubclient import HubUnreachable
from adjudicator.station.service import open_station


def stations(hub) -> list[tuple[str, int]]:
    return [(s["name"], s["challenges"]) for s in hub.call(
        lambda: hub.hub.board.snapshot()["stations"])]


def test_a_renamed_station_still_sends_under_its_old_name_even_after_a_restart(start_hub):
    hub = start_hub(accept_new=False)
    desk = _accepted(hub, "Desk 1")
    assert desk.send()[0] == 200
    key = wire.key_id(desk.key)
    status, answer = _post(hub, "/api/rename", {"station": key, "name": "Desk 3"})
    assert (status, answer["name"]) == (200, "Desk 3")
    # its sender still says the old name (its journal's own), and its rows judged meanwhile
    status, answer = desk.beat()
    assert status == 200 and answer[wire.GIVEN_NAME] == "Desk 3"  # the name it is to take
    assert desk.send()[0] == 200
    desk.name = "Desk 3"  # taken at its Ready: its rows say so from then on
    assert desk.send()[0] == 200 and desk.beat()[0] == 200
    assert stations(hub) == [("Desk 3", 3)]
    latest = hub.call(lambda: hub.hub.board.snapshot()["latest"])
    assert {c["station"] for c in latest} == {"Desk 3"}  # one station, one name on the page
    tables = hub.call(lambda: hub.hub.board.snapshot()["tables"])
    assert [[d["name"] for d in t["devices"]] for t in tables] == [["Desk 3"]]  # not a split
    alarms = hub.call(lambda: hub.hub.board.snapshot()["alarms"])
    assert not [a for a in alarms if "refused" in a["text"]], alarms
    # still only the director renames it
    status, answer = desk.beat(station="Desk 9")
    assert status == 409 and "only the director renames" in answer["error"]

    hub.stop()
    again = start_hub(accept_new=False)
    assert stations(again) == [("Desk 3", 3)]  # rebuilt from the journal under its new name
    desk.url, desk.stamp = again.url, ""
    desk.name = "Desk 1"  # a row from before it heard the name, sent after the restart
    assert desk.send()[0] == 200 and desk.beat()[0] == 200
    assert stations(again) == [("Desk 3", 4)]
    newcomer = _accepted(again, "Desk 1")  # its old name is free for another station
    assert newcomer.send()[0] == 200
    assert sorted(stations(again)) == [("Desk 1", 1), ("Desk 3", 4)]
    assert desk.send()[0] == 200  # and it may still send what it judged under it
    assert sorted(stations(again)) == [("Desk 1", 1), ("Desk 3", 5)]


def test_a_name_no_station_could_hold_is_refused(start_hub):
    """What the hub refuses here no station's config refuses after: none is handed on."""
    hub = start_hub(accept_new=False)
    key = wire.key_id(_accepted(hub, "Desk 1").key)
    for name in ("Desk\u200b 3", "Desk\x1b3", "   ", "x" * 61):
        status, answer = _post(hub, "/api/rename", {"station": key, "name": name})
        assert status == 400, (name, answer)
    assert stations(hub) == [("Desk 1", 0)]


def test_a_station_takes_the_name_the_director_gives_it_at_its_next_ready(
        tmp_path, hall, start_hub):  # noqa: F811 - the fixture imported above
    _, event = hall
    hub = start_hub()
    desk = desk_at_ready(tmp_path, event, hub, "Desk 1")
    try:
        desk.submit("qi", table="3")
        desk.at_ready()
        snap = wait_for(lambda: (s := hub.call(hub.hub.board.snapshot)) and s["stations"]
                        and s["stations"][0]["challenges"] == 1 and s)
        key = snap["stations"][0]["key"]
        assert _post(hub, "/api/rename", {"station": key, "name": "Desk 3"})[0] == 200
        wait_for(lambda: desk.following.name == "Desk 3")
        # heard during a challenge: nothing changes until Ready (as an event's change)
        shown = desk.submit("za", table="4")
        assert desk.recheck(shown).verdict.acceptable and desk.config.station == "Desk 1"
        said = desk.at_ready()
        assert said == "The director renamed this station: Desk 3."
        assert follow.ready_text(desk).startswith(said)
        assert desk.config.station == "Desk 3" and desk.station_name == "Desk 3"
        text = (tmp_path / "Desk 1.toml").read_text()
        assert text.startswith("# Desk 1: by the door\n") and 'station = "Desk 3"' in text
        assert desk.journal.events()[-1][:2] == ("renamed by the director", "Desk 1 -> Desk 3")
        assert desk.at_ready() == ""  # said once
        desk.submit("zo", table="5")
        desk.at_ready()
        snap = wait_for(lambda: (s := hub.call(hub.hub.board.snapshot)) and s["stations"][0][
            "challenges"] == 4 and s)
        assert [(s["name"], s["alarms"]) for s in snap["stations"]] == [("Desk 3", [])]
        assert not [a for a in snap["alarms"] if "refused" in a["text"]], snap["alarms"]
        assert desk.hub_link.refused == ""
        judged_as = [r.station for r in desk.journal.recent(10)]
        assert judged_as == ["Desk 3", "Desk 1", "Desk 1", "Desk 1"]  # what each was judged as
    finally:
        desk.close()
    again = open_station(load_config(str(tmp_path / "Desk 1.toml")))  # a restart keeps it
    try:
        assert again.config.station == "Desk 3" and again.at_ready() == ""
    finally:
        again.close()


def test_the_sender_checks_the_name_the_hub_gives(tmp_path):
    """A name that is not one line of text is not a hub's answer; one no config may hold is not
    taken (the sender says why and goes on); each name is handed on once."""
    sender = Forwarder(str(tmp_path / "j.db"), "http://127.0.0.1:9", "t")
    taken: list[str] = []
    sender.on_name = taken.append
    for _ in range(2):
        sender._answer({"acked": 0, "name": "Desk 3"}, "/api/heartbeat")
    assert taken == ["Desk 3"]
    sender._answer({"acked": 0}, "/api/heartbeat")  # a hub from before renames: none given
    assert taken == ["Desk 3"]
    for odd in (5, ["Desk 4"], "Desk\n4", "x" * 61):
        with pytest.raises(HubUnreachable, match="not the hub's answer"):
            sender._answer({"acked": 0, "name": odd}, "/api/heartbeat")
    assert taken == ["Desk 3"]

    def fails(name: str) -> None:
        raise ValueError(f"{name} is not taken")

    sender.on_name = fails  # whatever a station does with it, the sender goes on
    sender._answer({"acked": 4, "name": "Desk 4"}, "/api/heartbeat")
    assert sender.problem == ("the hub's name for this station could not be taken (ValueError: "
                              "Desk 4 is not taken)") and sender.acked == 4

    class Station:
        following = follow.Following()

    for odd in ("", "x" * 101):  # what no config may hold is never waiting for Ready
        with pytest.raises(ValueError, match="the station name the hub gives is"):
            follow.offer_name(Station, odd)
    assert not Station.following.waiting()
    follow.offer_name(Station, "Desk 4")
    assert Station.following.name == "Desk 4" and Station.following.waiting()



def test_judge_with_a_config_takes_the_name_at_its_next_call(tmp_path, make_lexicon):
    """A runner's laptop (`judge --config`, whole processes): its next call hears the name
    before it judges (issue 40: the hub asked first) and writes it to its config; the rows say
    what each was judged as."""
    lex = make_lexicon(["QI", "ZA"])
    hub = HubProcess(tmp_path / "hub.toml")
    try:
        config = tmp_path / "runner.toml"
        config.write_text(f'# the runners\' laptop\nstation = "Runner desk"\nmode = "runner"\n'
                          f'lexicon = "{lex.path}"\njournal = "runner.db"\n'
                          + "\n".join(hub.station_lines) + "\n")
        assert run_judge("--config", str(config), "--table", "5", "qi").returncode == 0
        assert wait_for(lambda: accept_waiting(hub.director_url)) == 1  # the director's Accept
        state = hub.director_url.replace("/?key=", "/state?key=")
        key = wait_for(lambda: [s["key"] for s in json.loads(urllib.request.urlopen(
            state, timeout=10).read())["stations"]])[0]
        request = urllib.request.Request(
            hub.director_url.replace("/?key=", "/api/rename?key="), method="POST",
            data=json.dumps({"station": key, "name": "Runner desk 2"}).encode())
        urllib.request.urlopen(request, timeout=10).close()
        for words in ("za", "qi za"):
            done = run_judge("--config", str(config), "--table", "6", words)
            assert (done.returncode, done.stdout) == (0, "ACCEPTABLE\n"), done.stderr
            assert "refused" not in done.stderr, done.stderr
        text = config.read_text()
        assert text.startswith("# the runners' laptop\n") and 'station = "Runner desk 2"' in text
        hub.stop()
        rows = json.loads(export_journal(str(tmp_path / "hub.db"), "json"))
        assert [r["station"] for r in rows] == ["Runner desk", "Runner desk 2", "Runner desk 2"]
    finally:
        hub.stop()
