"""Issue 40: the phone server retries a list it could not fetch, as the kiosk does (one retry: the
sender hands the hub's event on again once follow.py says a retry is due).

A real hub on a socket; division B changed to TINYC, whose file is then off the hub's shelf when
the phone server asks for it: B keeps TINYB, says so, and takes TINYC once it is back, within
the retry period (shortened here from its minute).
"""

from __future__ import annotations

import json
import os

from test_event_join import lists, post, started, station_home  # noqa: F401
from test_follow import wait_for

from adjudicator.station import follow
from adjudicator.config.station import load_config
from adjudicator.net.token import TokenStore
from adjudicator.phone.build import build_phone_app

CHANGE = {"name": "Club Open 2026", "version": 1, "divisions": [
    {"name": "A", "lexicon": "TINYA", "challenge_rule": "5-per-word", "tables": "1-20"},
    {"name": "B", "lexicon": "TINYC", "challenge_rule": "double", "tables": "21-40"}]}


def judged(station, table: str, word: str) -> tuple[bool, str]:
    outcome = station.submit(word, table=table)
    return outcome.verdict.acceptable, outcome.verdict.lexicon.name


def test_a_list_the_hub_could_not_send_is_taken_once_it_is_back(start_hub, tmp_path, lists,  # noqa: F811
                                                                 monkeypatch, run):
    monkeypatch.setattr(follow, "RETRY_AFTER", 0.5)
    hub = started(start_hub, tmp_path)
    hub_shelf = os.environ["ADJUDICATOR_SHELF"]
    home = station_home(tmp_path, monkeypatch)
    home.mkdir()
    phones_toml = home / "phones.toml"
    url = hub.join_url
    assert run("join", url, "--config", str(phones_toml), "--name", "Phones").exit_code == 0
    phones_toml.write_text('mode = "smart-device"\n' + phones_toml.read_text())
    app = build_phone_app(load_config(str(phones_toml)), tokens=TokenStore(str(tmp_path / "t")))
    phone = app.devices.get("phone-1").station
    leader = phone.leader
    sender = leader.hub_link
    try:
        wait_for(lambda: leader.following.checked)  # its first answer: the event as it is
        sender.heartbeat_every = 3600.0  # quiet while this process is the hub's laptop
        with monkeypatch.context() as at_the_hub:
            at_the_hub.setenv("ADJUDICATOR_SHELF", hub_shelf)
            status, body = post(f"{hub.local_url}/api/event?key={hub.hub.director_token}", CHANGE)
        assert status == 200 and json.loads(body)["changed"], body
        tinyc = lists["TINYC"][1]
        os.replace(tinyc, tinyc + ".away")  # the hub's file gone when the station asks for it
        sender.heartbeat_every = 0.2
        sender.wake()
        wait_for(lambda: leader.following.version == 2)
        assert leader.lists.kept and "TINYC could not be had" in leader.lists.kept[0]
        phone.at_ready()
        assert judged(phone, "25", "zo") == (False, "TINYB")  # B keeps its list, and says so
        assert "Not the event's list" in follow.ready_text(phone.leader)

        os.replace(tinyc + ".away", tinyc)  # back on the hub's shelf
        wait_for(lambda: not leader.lists.kept, timeout=20)  # retried, fetched, taken
        phone.at_ready()
        assert judged(phone, "25", "zo") == (True, "TINYC")
        # the config file follows (written by the thread that took the change, just after it
        # set the lists this test saw: read once it is there, as a restart would)
        wait_for(lambda: [d.lexicon for d in load_config(str(phones_toml)).event_divisions] == [
            "TINYA", "TINYC"], timeout=20)
    finally:
        app.close()
