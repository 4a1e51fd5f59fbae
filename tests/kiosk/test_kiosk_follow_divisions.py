"""A kiosk serving two divisions takes every change of the event at Ready (issue 40): the PIN, a
division's list, another list; never a crash (it used to ask for one list without a table), each
said on Ready, the table already typed kept and its division's new list shown."""

from __future__ import annotations

import dataclasses

import pytest
from kiosk_helpers import screen_name, text_of

from adjudicator.config.station import parse_config
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.event.pin import hash_pin

pytestmark = pytest.mark.asyncio

SIZE = (100, 30)


@pytest.fixture
def hall(config, tmp_path):
    """A station of divisions A (ALPHA) and B (BETA), with BETA2 and BETA3 in its folder too."""
    folder = tmp_path / "lists"
    folder.mkdir()
    made = {}
    for name, words in (("ALPHA", ["ZO", "QI", "CAT"]), ("BETA", ["QI", "CAT"]),
                        ("BETA2", ["QI", "CAT", "ZO"]), ("BETA3", ["QI", "CAT", "ZO", "XU"])):
        (tmp_path / f"{name}.txt").write_text("\n".join(words) + "\n")
        compile_sources([str(tmp_path / f"{name}.txt")], str(folder / f"{name}.lex"), name=name)
        made[name] = Lexicon.load(str(folder / f"{name}.lex")).fingerprint
    cfg = parse_config({"lexicon_dirs": [str(folder)], "division": [
        {"name": "A", "lexicon": "ALPHA", "tables": "1-20", "challenge_rule": "5-per-word",
         "fingerprint": made["ALPHA"]},
        {"name": "B", "lexicon": "BETA", "tables": "21-40", "challenge_rule": "double",
         "fingerprint": made["BETA"]}]})
    station = config.with_changes(lexicon_dirs=cfg.lexicon_dirs,
                                  event_divisions=cfg.event_divisions,
                                  hub="http://127.0.0.1:9", hub_token="t")  # follows a hub
    return station, made


async def settle(pilot, n: int = 3):
    for _ in range(n):
        await pilot.pause()


async def test_every_change_is_taken_at_ready_said_and_the_table_typed_kept(make_app, hall):
    cfg, made = hall
    app = make_app(config=cfg)
    event = cfg.event_setup
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        station = app.station
        await pilot.press(*"25")  # the table typed, not yet confirmed: the station is at Ready
        await settle(pilot)
        b = event.divisions[1]
        changes = [  # each as the director makes it on the page, one version after another
            ("director PIN set", dataclasses.replace(event, pin_hash=hash_pin("135799"),
                                                         version=2), "BETA"),
            ("division B: list BETA -> BETA2", dataclasses.replace(
                event, pin_hash=hash_pin("135799"), version=3, divisions=(
                    event.divisions[0], dataclasses.replace(b, lexicon="BETA2",
                                                            fingerprint=made["BETA2"]))),
             "BETA2"),
            ("division B: list BETA2 -> BETA3", dataclasses.replace(
                event, pin_hash=hash_pin("135799"), version=4, divisions=(
                    event.divisions[0], dataclasses.replace(b, lexicon="BETA3",
                                                            fingerprint=made["BETA3"]))),
             "BETA3")]
        for said, changed, judged_with in changes:
            station.follow(changed)  # as the sender hands it from the hub's answer
            app.screen.follow_event()  # the screen's one-second look, at Ready
            await settle(pilot)
            assert screen_name(app) == "ReadyScreen"
            assert station.following.version == changed.version
            note = text_of(app, "#event-note")
            assert "The director changed the event" in note and said in note, note
            assert app.screen.query_one("#table").value == "25"  # the table typed is kept
            lexicon = text_of(app, "#lexicon")
            assert lexicon.startswith(f"Table 25 · Division B · Lexicon: {judged_with} — ")
            assert not app.screen.query("#try-out")  # the PIN set: no longer a try-out
        await pilot.press("enter", *"zo", "tab")  # the table confirmed: its new list judges
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        row = station.journal.get(1)
        assert (row.table, row.lexicon_name, row.verdict) == ("25", "BETA3", "ACCEPTABLE")


async def test_the_runners_desk_of_two_divisions_takes_a_change_without_a_crash(make_app, hall):
    cfg, made = hall
    app = make_app(config=cfg.with_changes(mode="runner"))
    event = cfg.event_setup
    b = dataclasses.replace(event.divisions[1], lexicon="BETA2", fingerprint=made["BETA2"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        station, screen = app.station, app.screen
        station.follow(dataclasses.replace(event, divisions=(event.divisions[0], b), version=2))
        screen.follow_event()  # between two slips: the desk's Ready
        await settle(pilot)
        assert screen_name(app) == "RunnerScreen" and station.following.version == 2
        assert text_of(app, "#lexicon") == ("Lexicon and rule by table · A (tables 1-20): "
                                            "ALPHA · B (tables 21-40): BETA2")
        assert "division B: list BETA -> BETA2" in text_of(app, "#runner-message")
