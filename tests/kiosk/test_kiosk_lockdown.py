"""Adjudication mode only (WESPA 3.11.1(b)): no key chord, click or action leaves the kiosk."""

from __future__ import annotations

import os
import string

import pytest
from kiosk_helpers import screen_name

from textual.app import App

from kiosk.app import DIRECTOR_KEY, KioskApp

pytestmark = pytest.mark.asyncio

SIZE = (80, 24)
LETTERS = string.ascii_lowercase
F_KEYS = [f"f{n}" for n in range(1, 25) if f"f{n}" != DIRECTOR_KEY]
NAMED = ["escape", "enter", "shift+tab", "ctrl+tab", "up", "down", "pageup", "pagedown", "insert",
         "ctrl+left", "ctrl+right", "ctrl+up", "ctrl+down", "ctrl+home", "ctrl+end",
         "shift+home", "shift+end", "shift+left", "shift+right", "ctrl+shift+a",
         "ctrl+shift+left", "ctrl+shift+right", "ctrl+backspace", "ctrl+delete",
         "ctrl+at", "ctrl+backslash", "ctrl+right_square_bracket", "ctrl+circumflex_accent",
         "ctrl+underscore", "ctrl+space", "super+c", "super+v", "super+q", "escape,escape"]
CHORDS = (
    [f"ctrl+{c}" for c in LETTERS]
    + [f"ctrl+shift+{c}" for c in LETTERS]
    + [f"alt+{c}" for c in LETTERS + string.digits]
    + [f"ctrl+alt+{c}" for c in "cdqxz"]
    + F_KEYS
    + [f"{mod}+{f}" for mod in ("ctrl", "shift", "alt") for f in F_KEYS + [DIRECTOR_KEY]]
    + NAMED
)
TYPED = "qi za"
# clicks every 13 columns and 3 rows (every 7 and 2 with ADJUDICATOR_FULL=1: four times as many)
GRID = (7, 2) if os.environ.get("ADJUDICATOR_FULL") == "1" else (13, 3)


async def _at_ready_with_entry(app, pilot):
    await pilot.press(*TYPED)
    await pilot.pause()
    assert app.screen.query_one("#entry").value == TYPED


def _unchanged(app, expected_screen):
    assert app.is_running
    assert app.return_code is None
    assert screen_name(app) == expected_screen, screen_name(app)
    # no modal, no palette on top: default screen, Ready (and the verdict over it)
    assert len(app.screen_stack) == (3 if expected_screen == "VerdictScreen" else 2)


async def test_every_chord_leaves_the_entry_as_it_is(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _at_ready_with_entry(app, pilot)
        entry = app.screen.query_one("#entry")
        for chord in CHORDS:
            for key in chord.split(","):
                await pilot.press(key)
            await pilot.pause()
            _unchanged(app, "ReadyScreen")
            assert entry.value == TYPED, f"{chord} changed the entry to {entry.value!r}"
            assert app.focused is entry, f"{chord} moved the focus to {app.focused!r}"
        assert app.station.journal.count() == 0


async def test_no_chord_leaves_the_verdict_during_the_hold(make_app, config):
    from adjudicator.config.station import Timers

    app = make_app(config=config.with_changes(
        timers=Timers(entry_idle=300, verdict_hold=300, verdict_clear=300)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*TYPED, "tab")
        await pilot.pause()
        for chord in CHORDS + [DIRECTOR_KEY, "r", "tab", "space"]:
            for key in chord.split(","):
                await pilot.press(key)
            await pilot.pause()
            _unchanged(app, "VerdictScreen")
        assert app.station.journal.count() == 1


async def test_clicks_anywhere_but_the_button_change_nothing(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _at_ready_with_entry(app, pilot)
        button = app.screen.query_one("#adjudicate").region
        for y in range(0, SIZE[1], GRID[1]):
            for x in sorted({*range(0, SIZE[0] - 2, GRID[0]), SIZE[0] - 3}):  # the far right too
                if button.contains(x, y):
                    continue
                for mouse_button, times in ((1, 1), (1, 2), (2, 1), (3, 1)):
                    await pilot.click(offset=(x, y), button=mouse_button, times=times)
                _unchanged(app, "ReadyScreen")
                assert app.screen.query_one("#entry").value == TYPED
        for _ in range(5):
            await pilot.mouse_down(offset=(10, 10))
            await pilot.hover(offset=(60, 20))
            await pilot.mouse_up(offset=(60, 20))
        _unchanged(app, "ReadyScreen")
        assert app.station.journal.count() == 0


@pytest.mark.parametrize("action", ["quit", "command_palette", "suspend_process", "help_quit",
                                    "screenshot", "toggle_dark", "bell", "simulate_key('ctrl+q')",
                                    "push_screen('_default')", "pop_screen", "change_theme",
                                    "show_help_panel", "app.quit"])
async def test_app_actions_are_refused_whoever_asks(make_app, action):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _at_ready_with_entry(app, pilot)
        await app.run_action(action)
        await pilot.pause()
        _unchanged(app, "ReadyScreen")
        assert app.screen.query_one("#entry").value == TYPED


async def test_no_command_palette_no_bell_no_inherited_bindings(make_app, monkeypatch):
    app = make_app()
    assert KioskApp.ENABLE_COMMAND_PALETTE is False
    assert [b.key for b in KioskApp.BINDINGS] == [DIRECTOR_KEY]
    async with app.run_test(size=SIZE) as pilot:
        rung = []
        with monkeypatch.context() as m:
            m.setattr(app._driver, "write", lambda data: rung.append(data))
            m.setattr(KioskApp, "is_headless", property(lambda self: False))
            app.bell()
            assert rung == []
            App.bell(app)  # the control: Textual's own bell would ring in this set-up
            assert rung == ["\a"]
        await pilot.press("ctrl+g")  # BEL
        await pilot.pause()
        keys = {b.key for _, b, _, _ in app.screen.active_bindings.values()}
        assert keys <= {"tab", DIRECTOR_KEY, "enter", "backspace", "delete", "left", "right",
                        "home", "end"}, keys
