"""Issue 32, the director's scenario as one run: one event, two divisions on different lists.

A (tables 1-20) on TINYA, where CAT is good; B (tables 21-40) on TINYB, where CAT and ZO are not,
then changed on the director's page to TINYC (ZO good) under another rule. Every surface on a station
machine asks lists.lists_for: a station serving both divisions, a phone server serving both, a
`judge --config` laptop, a station set up by hand (the hub lines pasted, its own list). Each
judges at a table of each division before and after the change, and each starts again after it.
The tiny lists stand in for official ones (their fingerprints added to the known lists, as in
test_event_join.py).
"""

from __future__ import annotations

import json
import os

from test_event_join import HUB_TOML, lists, post, started, station_home  # noqa: F401
from test_follow import wait_for

from adjudicator.config.station import load_config
from adjudicator.station.follow import ready_text
from adjudicator.net.token import TokenStore
from adjudicator.phone.build import build_phone_app
from adjudicator.station.service import open_station

CHANGE = {"name": "Club Open 2026", "version": 1, "divisions": [
    {"name": "A", "lexicon": "TINYA", "challenge_rule": "5-per-word", "tables": "1-20"},
    {"name": "B", "lexicon": "TINYC", "challenge_rule": "5-per-turn", "tables": "21-40"}]}


def judged(station, table: str, word: str) -> tuple[bool, str, str]:
    """(acceptable, list name, rule) of one challenge at TABLE, as the journal row says."""
    outcome = station.submit(word, table=table)
    row = station.journal.get(outcome.seq)
    assert row.lexicon_name == outcome.verdict.lexicon.name  # what is shown is what judged
    return outcome.verdict.acceptable, row.lexicon_name, row.rule


def test_the_directors_event_of_two_lists_on_every_surface(start_hub, tmp_path, lists,
                                                             monkeypatch, run):
    hub = started(start_hub, tmp_path)
    hub_shelf = os.environ.get("ADJUDICATOR_SHELF", "")
    home = station_home(tmp_path, monkeypatch)
    url = hub.join_url
    home.mkdir()
    desk, phones_toml, laptop, by_hand = (home / n for n in (
        "desk.toml", "phones.toml", "laptop.toml", "hand.toml"))
    for path in (desk, phones_toml, laptop):  # joined without --division: both divisions
        assert run("join", url, "--config", str(path), "--name", path.stem).exit_code == 0
    phones_toml.write_text('mode = "smart-device"\n' + phones_toml.read_text())
    by_hand.write_text(f'station = "By hand"\nlexicon = "TINYA"\njournal = "hand.db"\n'
                       f'hub = "{hub.url}"\nhub_token = "{hub.hub.station_token}"\n'
                    f'hub_fingerprint = "{hub.pin}"\n')

    station = open_station(load_config(str(desk)))
    phones = build_phone_app(load_config(str(phones_toml)),
                             tokens=TokenStore(str(tmp_path / "token")))
    phone = phones.devices.get("phone-1").station
    hand = open_station(load_config(str(by_hand)))
    try:
        # before: each surface judges each division's table with its list and rule
        for surface in (station, phone):
            assert judged(surface, "5", "cat") == (True, "TINYA", "5-per-word")
            assert judged(surface, "25", "cat") == (False, "TINYB", "double")
        judge = run("judge", "--config", str(laptop), "--table", "25", "zo")
        assert (judge.exit_code, judge.stdout) == (1, "UNACCEPTABLE\n")
        assert "NOT A TOURNAMENT" not in judge.stderr and "ENABLE" not in judge.stderr
        no_table = run("judge", "--config", str(laptop), "cat")
        assert no_table.exit_code == 2 and "--table" in no_table.stderr
        assert run("judge", "--config", str(laptop), "--table", "5", "cat").exit_code == 0
        # the hand-set station, once it hears the event, judges by table too
        wait_for(lambda: hand.following.pending)
        hand.at_ready()
        assert hand.lists.by_division and judged(hand, "25", "cat")[:2] == (False, "TINYB")

        # the director changes division B's list and rule on the page
        key = hub.hub.director_token
        with monkeypatch.context() as at_the_hub:  # this process is the hub's laptop too
            at_the_hub.setenv("ADJUDICATOR_SHELF", hub_shelf)
            status, body = post(f"{hub.local_url}/api/event?key={key}", CHANGE)
        assert status == 200 and json.loads(body)["changed"], body
        for surface in (station, hand):
            wait_for(lambda s=surface: s.following.pending and s.following.pending.version == 2)
            said = surface.at_ready()
            assert "division B: list TINYB -> TINYC" in said
            assert "division B: challenge rule double -> 5-per-turn" in said
        wait_for(lambda: phones.devices.get("phone-1").station.leader.following.version == 2)
        phone.at_ready()
        # the laptop takes it from the hub's answer to its next call's push
        assert run("judge", "--config", str(laptop), "--table", "5", "cat").exit_code == 0
        assert 'lexicon = "TINYC"' in laptop.read_text()

        # after: B judges with TINYC under its new rule on every surface; A is unchanged
        for surface in (station, phone, hand):
            assert judged(surface, "25", "zo") == (True, "TINYC", "5-per-turn")
            assert judged(surface, "5", "cat") == (True, "TINYA", "5-per-word")
            assert ready_text(surface).startswith("The director changed the event") or (
                surface is phone)
        judge = run("judge", "--config", str(laptop), "--table", "25", "zo")
        assert (judge.exit_code, judge.stdout) == (0, "ACCEPTABLE\n"), judge.stderr
    finally:
        for surface in (station, hand):
            surface.close()
        phones.close()

    # each restarted after the change: the config each wrote starts it, judging as before
    assert [d.lexicon for d in load_config(str(desk)).event_divisions] == ["TINYA", "TINYC"]
    for path in (desk, by_hand):
        again = open_station(load_config(str(path)), link="none")
        try:
            assert judged(again, "25", "zo") == (True, "TINYC", "5-per-turn")
            assert judged(again, "5", "cat") == (True, "TINYA", "5-per-word")
        finally:
            again.close()
    phones = build_phone_app(load_config(str(phones_toml)),
                             tokens=TokenStore(str(tmp_path / "token")))
    try:
        assert judged(phones.devices.get("phone-2").station, "25", "zo") == (
            True, "TINYC", "5-per-turn")
    finally:
        phones.close()
    monkeypatch.setenv("ADJUDICATOR_CONFIG", str(laptop))
    plain = run("judge", "--table", "25", "zo")  # the same machine, without --config
    assert (plain.exit_code, plain.stdout) == (0, "ACCEPTABLE\n") and not plain.stderr
    info = run("info")
    assert info.exit_code == 0
    assert "Division A (tables 1-20) · 5-per-word" in info.output
    assert "Division B (tables 21-40) · 5-per-turn" in info.output
    assert info.output.index("TINYA") < info.output.index("TINYC")
    needs = run("judge", "zo")
    assert needs.exit_code == 2 and "give the table (--table T)" in needs.stderr
