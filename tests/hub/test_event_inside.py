"""Lists and the PIN stay inside; saves don't clobber (issue 33 items 5 and 6).

A list the event names goes to a holder of the join code or to a station the director accepted
(its signed request), never to the hub_token alone (docs/hub.md's threat model: players may know
it); the PIN's hash goes only to accepted stations; an event's new PIN has 6 digits or more. The
Event panel's save carries the version it was loaded at: a stale one is refused, saying what
changed; the PIN is changed there too, and the hub journal says who changed it and where."""

from __future__ import annotations

import json
import urllib.request

import pytest

from odd_station import OddStation
from test_event_join import HUB_TOML, get, lists, post, started  # noqa: F401 (lists: fixture)

from adjudicator import wire
from adjudicator.errors import AdjudicatorError
from adjudicator.link.join import fetch_list
from adjudicator.event.pin import SHORT_PIN, hash_pin, short_pin, verify_pin


def _signed_get(url: str, path: str, token: str, key: bytes, stamp: str = ""):
    headers = {"Authorization": f"Bearer {token}", wire.KEY_ID: wire.key_id(key),
               wire.SIGNATURE: wire.sign(key, path, b"", stamp)}
    if stamp:
        headers[wire.STAMP] = stamp
    return get(urllib.request.Request(url + path, headers=headers))


def test_the_hub_token_alone_gets_no_list(start_hub, tmp_path, lists):  # noqa: F811
    hub = started(start_hub, tmp_path)
    fp, _ = lists["TINYA"]
    request = urllib.request.Request(f"{hub.url}/lexicon/{fp}", headers={
        "Authorization": f"Bearer {hub.hub.station_token}"})
    status, body = get(request)
    assert status == 403 and b"accepted" in body
    with pytest.raises(AdjudicatorError):
        fetch_list(hub.url, "", fp, str(tmp_path / "station-shelf"), token=hub.hub.station_token)


def test_a_waiting_station_gets_no_list_an_accepted_one_does(start_hub, tmp_path,
                                                            lists):  # noqa: F811
    from test_event_join import hub_toml
    from adjudicator.hub.event_setup import pin_lists
    from adjudicator.hub.settings import load_hub_config

    cfg, _ = load_hub_config(str(hub_toml(tmp_path)))
    event, files = pin_lists(cfg.event, cfg.path)
    hub = start_hub(cfg.journal, event=event, lists=files, config_path=cfg.path,
                    accept_new=False)
    fp, path = lists["TINYB"]
    station = OddStation(hub.url, hub.hub.station_token, "Desk 7")
    assert station.beat()[0] == 200  # it waits for the director
    shelf = tmp_path / "station-shelf"  # not the hub's (tmp_path / "shelf")
    with pytest.raises(AdjudicatorError, match="accepted"):
        fetch_list(hub.url, "", fp, str(shelf), token=hub.hub.station_token, key=station.key)
    hub.call(hub.hub.identities.accept, wire.key_id(station.key))
    got = fetch_list(hub.url, "", fp, str(shelf), token=hub.hub.station_token, key=station.key)
    assert open(got, "rb").read() == open(path, "rb").read()
    # signed without the hub's stamp: told to sign with one; a request sent twice: refused
    status, body = _signed_get(hub.url, f"/lexicon/{fp}", hub.hub.station_token, station.key)
    stamp = json.loads(body)["stamp"]
    assert status == 401
    again = [_signed_get(hub.url, f"/lexicon/{fp}", hub.hub.station_token, station.key,
                         f"{stamp}.9")[0] for _ in range(2)]
    assert again == [200, 401]
    # another key's signature, or another list's path, opens nothing
    forged = _signed_get(hub.url, f"/lexicon/{fp}", hub.hub.station_token, b"x" * 32,
                         f"{stamp}.10")
    assert forged[0] == 403


def test_an_events_new_pin_has_six_digits(tmp_path, run):
    path = tmp_path / "hub.toml"
    path.write_text(HUB_TOML)
    done = run("set-pin", "--config", str(path), input="2468\n2468\n")
    assert done.exit_code == 2 and "at least 6 digits" in done.stderr
    assert path.read_text() == HUB_TOML
    assert short_pin(hash_pin("2468")) and not short_pin("")


def test_the_pin_is_changed_on_the_panel_and_journaled_as_the_pages(start_hub, tmp_path,
                                                                    lists):  # noqa: F811
    hub = started(start_hub, tmp_path, HUB_TOML.replace(
        'name = "Club Open 2026"', f'name = "Club Open 2026"\npin_hash = "{hash_pin("2468")}"'))
    url = f"{hub.local_url}/api/event?key={hub.hub.director_token}"
    state = json.loads(get(url)[1])
    assert state["pin_set"] and state["pin_warning"] == SHORT_PIN  # set before the rule
    assert state["event"]["event"]["pin_hash"] == ""  # the page needs no hash
    change = {"name": "Club Open 2026", "version": 1,
              "divisions": [{k: d[k] for k in ("name", "lexicon", "challenge_rule", "tables")}
                            for d in state["event"]["division"]]}
    for short in ("12345", "１２３４５６", "12 345", "1234\x1b6"):
        status, body = post(url, {**change, "pin": short})
        assert status == 400 and "PIN has" in json.loads(body)["error"], body
    status, body = post(url, {**change, "pin": "135790"})
    said = json.loads(body)
    assert status == 200 and said["what"] == "director PIN changed"
    assert said["pin_warning"] == "" and verify_pin("135790", hub.hub.event.pin_hash)
    last = hub.call(hub.hub.ledger.event_changes)[-1]
    assert last["who"].startswith("director (from 127.0.0.1)") and \
        last["who"].endswith("on the director's page") and last["what"] == "director PIN changed"
    assert "135790" not in (tmp_path / "hub.toml").read_text()


def test_a_stale_save_is_refused_saying_what_changed(start_hub, tmp_path, lists, run):  # noqa: F811
    hub = started(start_hub, tmp_path)
    url = f"{hub.local_url}/api/event?key={hub.hub.director_token}"
    loaded = json.loads(get(url)[1])["event"]
    divisions = [{k: d[k] for k in ("name", "lexicon", "challenge_rule", "tables")}
                 for d in loaded["division"]]
    first = {"name": "Day 2", "version": 1, "divisions": divisions}
    assert post(url, first)[0] == 200  # another director, on another page
    mine = {"name": "Club Open 2026", "version": 1,
            "divisions": [{**divisions[0], "lexicon": "TINYC"}, divisions[1]]}
    status, body = post(url, mine)
    said = json.loads(body)
    assert status == 409 and "version 2 by the director (from 127.0.0.1)" in said["error"]
    assert "name 'Club Open 2026' -> 'Day 2'" in said["error"]
    assert said["event"]["event"]["name"] == "Day 2" and hub.hub.event.version == 2
    # a PIN set with set-pin --config hub.toml meanwhile: hub.toml's act, not the page's
    done = run("set-pin", "--config", str(tmp_path / "hub.toml"), input="864209\n864209\n")
    assert done.exit_code == 0, done.stderr
    status, body = post(url, {**mine, "version": 2})
    said = json.loads(body)
    assert status == 409 and "version 3 by the hub.toml" in said["error"]
    last = hub.call(hub.hub.ledger.event_changes)[-1]
    assert last["version"] == 3 and last["who"].startswith("hub.toml (")
    assert last["what"] == "director PIN changed"
    assert verify_pin("864209", hub.hub.event.pin_hash)
    status, body = post(url, {**mine, "version": 3})
    assert status == 200 and json.loads(body)["what"] == (
        "name 'Day 2' -> 'Club Open 2026'; division A: list TINYA -> TINYC")
    assert hub.call(hub.hub.ledger.event_changes)[-1]["who"].endswith("director's page")


def test_a_station_signs_with_the_key_its_journal_holds(tmp_path):
    import sqlite3

    from adjudicator.link import key

    conn = sqlite3.connect(tmp_path / "station.db", isolation_level=None)
    key.ensure(conn)
    made = key.read(conn)
    conn.close()
    assert key.of_journal(str(tmp_path / "station.db")) == made and len(made) == 32
    assert key.of_journal(str(tmp_path / "none.db")) is None  # never reached a hub


def test_a_following_station_fetches_the_events_new_list_signed_with_its_journals_key(
        start_hub, tmp_path, lists, monkeypatch):  # noqa: F811
    """follow.py: a list the station lacks comes from its hub, signed with the key its journal
    holds (the one the director accepted); a journal without a key fetches nothing."""
    import sqlite3
    from dataclasses import replace

    from adjudicator.config.station import Config
    from adjudicator.errors import AdjudicatorError
    from adjudicator.station.follow import hub_fetch
    from adjudicator.lexicon.library import load_lexicon
    from adjudicator.link import key

    hub = started(start_hub, tmp_path)  # this hub accepts every station at first contact
    conn = sqlite3.connect(tmp_path / "station.db", isolation_level=None)
    key.ensure(conn)
    secret = key.read(conn)
    conn.close()
    station = OddStation(hub.url, hub.hub.station_token, "Desk 2")
    station.key = secret
    assert station.beat()[0] == 200
    fp, _ = lists["TINYB"]
    monkeypatch.setenv("ADJUDICATOR_SHELF", str(tmp_path / "station-shelf"))  # lacks TINYB
    config = replace(Config(), hub=hub.url, hub_token=hub.hub.station_token,
                     journal=str(tmp_path / "none.db"))
    with pytest.raises(AdjudicatorError):  # no key: nothing
        load_lexicon("TINYB", pin=fp, fetch=hub_fetch(config))
    got = load_lexicon("TINYB", pin=fp, fetch=hub_fetch(
        replace(config, journal=str(tmp_path / "station.db"))))
    assert str(got.fingerprint) == fp


def test_a_pin_set_in_hub_toml_is_journaled_as_hub_tomls_at_start_and_a_short_one_warned(
        start_hub, tmp_path, lists, run):  # noqa: F811
    from adjudicator.cli.hub import startup_lines

    first = started(start_hub, tmp_path)
    first.stop()
    done = run("set-pin", "--config", str(tmp_path / "hub.toml"), input="975310\n975310\n")
    assert done.exit_code == 0, done.stderr
    from adjudicator.hub.event_setup import pin_lists
    from adjudicator.hub.settings import load_hub_config

    cfg, _ = load_hub_config(str(tmp_path / "hub.toml"))  # as set-pin left it
    event, files = pin_lists(cfg.event, cfg.path)
    again = start_hub(cfg.journal, event=event, lists=files, config_path=cfg.path)
    last = again.call(again.hub.ledger.event_changes)[-1]
    assert last["version"] == 2 and last["who"].startswith("hub.toml (")
    assert last["what"] == "director PIN changed"
    assert not short_pin(again.hub.event.pin_hash)
    again.stop()
    from dataclasses import replace

    def said(event):
        return startup_lines(event, "hub.db", "hub.toml", "https://h:1", "t", "d", "j", "f" * 64,
                             "http://127.0.0.1:2")[0]

    short = said(replace(again.hub.event, pin_hash=hash_pin("2468")))
    warned = [line for line in short if line.startswith("Warning")]
    assert warned == [f"Warning: {SHORT_PIN} (adjudicator set-pin --config hub.toml, or on "
                      "the director's page)"]
    assert not [line for line in said(again.hub.event) if line.startswith("Warning")]
