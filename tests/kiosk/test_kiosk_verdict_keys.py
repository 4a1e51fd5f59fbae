"""Which keys send a verdict away (issue 36): a letter, a digit, SPACE, ENTER or NEXT, after the hold.

A player starting Ctrl+'+' to zoom, an opponent resting a hand on Shift, a TAB or a function key
sent the verdict away before the other player had read it: any key did. Now those do nothing;
F12 on a released verdict asks for the director's PIN (docs/station.md), and a screen's second
dismissal (ESC and "Back to the station" together) never leaves the station without its screen.
"""

from __future__ import annotations

import pytest
from kiosk_helpers import elapse, screen_name, text_of

from adjudicator.config.station import Timers
from adjudicator.event.pin import hash_pin
from adjudicator.station.protocol import Action, Protocol, State, means_next
from kiosk.terminal import KioskParser
from kiosk.typed import Typed

SIZE = (80, 24)
# keys that leave the released verdict on screen: modifiers alone, TAB, function keys, chords
STAY = ["shift", "ctrl", "alt", "meta", "tab", "shift+tab", "escape", "f1", "f5", "f11",
        "left", "up", "home", "backspace", "ctrl+plus", "ctrl+equals_sign", "ctrl+a",
        "alt+x", "plus", "minus", "comma"]


async def settle(pilot, n: int = 3):
    for _ in range(n):
        await pilot.pause()


async def released_verdict(pilot, app, words=("q", "i")):
    await pilot.press(*words, "tab")
    await settle(pilot)
    assert screen_name(app) == "VerdictScreen"
    await elapse(pilot, app, 0.4)
    assert app.protocol.state is State.VERDICT


def test_the_protocol_reads_only_letters_digits_space_and_enter_as_next():
    class Timers0:
        entry_idle, verdict_hold, verdict_clear = 30, 0, 15

    protocol = Protocol(Timers0())
    protocol.judged()
    for key in ("x", "Q", "7", "é", "Ж", "space", " ", "enter", "Enter"):
        assert means_next(key) and protocol.key_on_verdict(key) is Action.NEXT, key
    for key in ("r", "R", "shift+r"):
        assert protocol.key_on_verdict(key) is Action.RECHECK, key
    for key in ("Shift", "Control", "Alt", "Meta", "Tab", "F5", "shift", "ctrl", "tab", "f12",
                "escape", "Escape", "+", "-", ",", "ctrl+plus", "alt+x", "", "ArrowLeft"):
        assert not means_next(key) and protocol.key_on_verdict(key) is Action.IGNORE, key


@pytest.mark.asyncio
async def test_modifiers_tab_function_keys_and_chords_leave_the_verdict_up(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await released_verdict(pilot, app)
        for key in STAY:
            await pilot.press(key)
            await settle(pilot, 2)
            assert screen_name(app) == "VerdictScreen", key
        assert app.station.journal.count() == 1  # nothing rechecked or judged either
        await pilot.press("7")  # a digit means next
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen"
        assert app.screen.query_one("#entry").value == ""  # the key that went is not typed


@pytest.mark.parametrize("key", ["x", "Z", "3", "space", "enter"])
@pytest.mark.asyncio
async def test_a_letter_a_digit_space_or_enter_sends_it_away(make_app, key):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await released_verdict(pilot, app)
        await pilot.press(key)
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen"


@pytest.mark.asyncio
async def test_f12_on_a_released_verdict_asks_the_pin_and_on_a_held_one_does_nothing(
        make_app, config):
    pinned = config.with_changes(pin_hash=hash_pin("2468"),
                                 timers=Timers(entry_idle=300, verdict_hold=1, verdict_clear=300))
    app = make_app(config=pinned)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi", "tab")
        await settle(pilot)
        await pilot.press("f12")  # held: as every key, nothing
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        await elapse(pilot, app, 1.3)
        await pilot.press("f12")
        await settle(pilot)
        assert screen_name(app) == "PinModal"
        await pilot.press("escape")  # cancelled: the station's Ready, the verdict gone
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen"
        assert app.protocol.state is State.READY
        assert text_of(app, "#count").endswith(": 1")


@pytest.mark.asyncio
async def test_the_next_key_and_the_words_after_it_in_one_run_are_readys(make_app):
    """A run of characters read together on a verdict: SPACE sends it away, the rest is typed
    into Ready's entry and TAB judges it (it was an empty Ready with nothing judged)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await released_verdict(pilot, app)
        app.post_message(Typed(" cat xu", KioskParser(False).keys_of))  # as the driver reads it
        await pilot.press("tab")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        assert app.station.journal.get(2).words == ("CAT", "XU")


@pytest.mark.asyncio
async def test_a_second_dismissal_never_leaves_the_station_blank(make_app, config):
    """ESC and a click on "Back to the station" read together dismissed director mode and then
    the Ready screen under it: a blank station that took no key, F12 or click."""
    pinned = config.with_changes(pin_hash=hash_pin("2468"))
    app = make_app(config=pinned)
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.press("f12", *"2468", "enter")
        await settle(pilot)
        assert screen_name(app) == "DirectorScreen"
        director = app.screen
        director.action_back()
        director.action_back()  # the button's press, handled after ESC's
        director.dismiss("late")
        await settle(pilot, 6)
        assert screen_name(app) == "ReadyScreen"
        await pilot.press(*"qi", "tab")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"


@pytest.mark.asyncio
async def test_a_station_left_with_no_screen_of_its_own_gets_ready_back(make_app):
    """Whatever took every screen away (the dead station of issue 36), Ready comes back within
    a second or so: the keys, F12 and the clicks with it."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.pop_screen()  # what the second dismissal did
        await settle(pilot)
        assert len(app.screen_stack) == 1
        for _ in range(100):  # the kiosk's look at its stack, each HOME_CHECK (1 s)
            if screen_name(app) == "ReadyScreen":
                break
            await pilot.pause(0.05)
        assert screen_name(app) == "ReadyScreen"
        await pilot.press(*"qi", "tab")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"


@pytest.mark.asyncio
async def test_a_judgement_never_made_does_not_leave_the_station_deaf(make_app):
    """Keys read while a TAB is being judged are dropped (they would meet the held verdict); a
    judgement that were never made nor refused would drop every key for good: the kiosk's look
    at its stack lets it go."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.protocol.take_judgement()  # taken, and then nothing comes of it
        for _ in range(100):
            if not app.protocol.judging:
                break
            await pilot.pause(0.05)
        assert not app.protocol.judging
        await pilot.press(*"qi", "tab")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
