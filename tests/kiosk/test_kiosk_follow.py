"""The kiosk follows the hub's event (issue 27 item 3): a change the sender brings waits while
the players type and while the verdict shows, is taken at Ready and said there; F12 asks the
new PIN."""

from __future__ import annotations

import pytest
from kiosk_helpers import elapse, screen_name, text_of

from adjudicator.station import follow
from adjudicator.event.setup import Division, Event
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.event.pin import hash_pin
from adjudicator.judging.rules import ChallengeRule

pytestmark = pytest.mark.asyncio

SIZE = (100, 40)
OLD_PIN, NEW_PIN = "2468", "8642"


async def test_a_change_waits_for_ready_is_said_and_f12_asks_the_new_pin(make_app, config,
                                                                         tmp_path, monkeypatch):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (tmp_path / "new.txt").write_text("QI\nZA\nZO\n")
    compile_sources([str(tmp_path / "new.txt")], str(shelf / "NEWLIST.lex"), name="NEWLIST")
    new = Lexicon.load(str(shelf / "NEWLIST.lex"))
    cfg = config.with_changes(pin_hash=hash_pin(OLD_PIN), hub="http://127.0.0.1:9",
                              hub_token="t")
    app = make_app(config=cfg)
    event = Event("Club Open", (Division("A", "NEWLIST", ChallengeRule.DOUBLE, (),
                                         new.fingerprint),), hash_pin(NEW_PIN), version=2)
    async with app.run_test(size=SIZE) as pilot:
        station = app.station
        await pilot.press(*"zo")  # the challenger is typing: a challenge under way
        station.follow(event)  # as the sender hands it from the hub's answer
        app.screen.follow_event()
        assert station.following.pending is not None and station.lexicon.name == "TINY"
        await pilot.press("tab")
        await pilot.pause()
        assert screen_name(app) == "VerdictScreen"
        assert station.journal.get(1).lexicon_name == "TINY"  # judged with the list it had
        await elapse(pilot, app, 0.3)  # the verdict's hold against stray keys
        station.follow(event)  # said again by the next heartbeat: still not taken here
        assert station.lexicon.name == "TINY"
        await pilot.press("space")
        for _ in range(3):
            await pilot.pause()
        assert screen_name(app) == "ReadyScreen"
        app.screen.follow_event()  # the screen's one-second look, at Ready
        await pilot.pause()
        assert station.following.pending is None and station.lexicon.name == "NEWLIST"
        assert "NEWLIST" in text_of(app, "#lexicon")
        assert "Club Open" in text_of(app, "#station")
        assert "double challenge" in text_of(app, "#rule").lower()
        note = text_of(app, "#event-note")
        assert "The director changed the event" in note and "list TINY -> NEWLIST" in note
        app.save_screenshot(str(tmp_path / "ready-followed.svg"))
        await pilot.press("f12")
        await pilot.pause()
        await pilot.press(*OLD_PIN, "enter")
        for _ in range(3):
            await pilot.pause()
        assert screen_name(app) != "DirectorScreen"  # the old PIN opens nothing now
        await pilot.press("escape", "f12")
        await pilot.pause()
        await pilot.press(*NEW_PIN, "enter")
        for _ in range(3):
            await pilot.pause()
        assert screen_name(app) == "DirectorScreen"
        monkeypatch.setattr(follow, "OFFLINE_AFTER", 0.0)
        station.hub_link.problem = "the hub http://127.0.0.1:9 is not reachable"
        assert "Hub not reached since" in str(app.screen._hub_text())  # its last settings kept


async def test_the_runners_desk_takes_a_change_between_two_slips(make_app, config, tmp_path):
    (tmp_path / "shelf").mkdir()
    (tmp_path / "new.txt").write_text("QI\nZA\nZO\n")
    compile_sources([str(tmp_path / "new.txt")], str(tmp_path / "shelf" / "NEWLIST.lex"),
                    name="NEWLIST")
    new = Lexicon.load(str(tmp_path / "shelf" / "NEWLIST.lex"))
    app = make_app(config=config.with_changes(mode="runner", hub="http://127.0.0.1:9",
                                              hub_token="t"))
    event = Event("Club Open", (Division("A", "NEWLIST", ChallengeRule.WORD5, (),
                                         new.fingerprint),), hash_pin(NEW_PIN), version=1)
    async with app.run_test(size=SIZE) as pilot:
        station, screen = app.station, app.screen
        screen.query_one("#entry").value = "ZO QI"  # the runner is typing a slip's words
        station.follow(event)
        screen.follow_event()
        assert station.following.pending is not None and station.lexicon.name == "TINY"
        screen.query_one("#entry").value = ""  # between two slips: the desk's Ready
        screen.follow_event()
        await pilot.pause()
        assert station.lexicon.name == "NEWLIST" and "NEWLIST" in text_of(app, "#lexicon")
        assert "The director changed the event" in text_of(app, "#runner-message")
        assert "Club Open" in text_of(app, "#station")
