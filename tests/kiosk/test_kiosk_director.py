"""Director mode behind the PIN: shut without a PIN, 5 wrong PINs lock it, settings saved, quit."""

from __future__ import annotations

import os
import tomllib

import pytest
from kiosk_helpers import elapse, screen_name, text_of

from adjudicator.config.station import load_config
from adjudicator.config.save import save_config
from adjudicator.event.pin import hash_pin
from adjudicator.judging.rules import ChallengeRule
from adjudicator.station.pin_gate import LOCKOUT_SECONDS

pytestmark = pytest.mark.asyncio

SIZE = (100, 40)
PIN = "2468"


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def pinned(config):
    return config.with_changes(pin_hash=hash_pin(PIN))


def write_by_hand(pinned, before: str, after: str) -> str:
    """PINNED's file as a director writes it by hand: BEFORE, its PIN's hash line, AFTER."""
    save_config(pinned)
    with open(pinned.path, encoding="utf-8") as f:
        pin_line = next(line for line in f if line.startswith("pin_hash"))
    text = before + pin_line + after
    with open(pinned.path, "w", encoding="utf-8") as f:
        f.write(text)
    return text


async def open_director(app, pilot, pin=PIN):
    await pilot.press("f12")
    await pilot.pause()
    await pilot.press(*pin, "enter")
    for _ in range(3):
        await pilot.pause()


async def test_without_a_pin_the_station_is_a_try_out_and_f12_opens_director_mode(
        make_app, config):
    """Issue 27: a station with no PIN says so on Ready, and F12 opens director mode, where
    the PIN is set (it was a box saying "no PIN" and no way to leave the station)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert "not locked: no director PIN" in text_of(app, "#try-out")
        await pilot.press("f12")
        for _ in range(3):
            await pilot.pause()
        assert screen_name(app) == "DirectorScreen"
        note = text_of(app, "#director-try-out")
        assert f"adjudicator set-pin --config {config.path}" in note  # the file it reads
        app.screen.query_one("#f-pin").value, app.screen.query_one("#f-pin2").value = PIN, "2469"
        app.screen.set_pin()
        await pilot.pause()
        assert "PIN NOT SET" in text_of(app, "#director-status") and not os.path.exists(
            config.path)
        app.screen.query_one("#f-pin").value = app.screen.query_one("#f-pin2").value = PIN
        app.screen.set_pin()
        await pilot.pause()
        assert "Director PIN set in" in text_of(app, "#director-status")
        assert not app.screen.query("#director-try-out")
        assert load_config(config.path).pin_hash == app.station.config.pin_hash  # saved
        await pilot.press("escape")
        for _ in range(3):
            await pilot.pause()
        assert screen_name(app) == "ReadyScreen" and not app.screen.query("#try-out")
        await open_director(app, pilot, pin="0000")  # locked now: the PIN box asks
        assert screen_name(app) == "PinModal"
        await pilot.press("escape")
        await open_director(app, pilot)
        assert screen_name(app) == "DirectorScreen"


async def test_set_pin_on_a_running_stations_config_is_taken_at_the_next_f12(make_app, config):
    from click.testing import CliRunner

    from adjudicator.cli import main

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        result = CliRunner().invoke(main, ["set-pin", "--config", config.path],
                                    input=f"{PIN}\n{PIN}\n")
        assert result.exit_code == 0, result.output
        await open_director(app, pilot, pin="0000")  # no restart: the PIN box asks at once
        assert screen_name(app) == "PinModal"
        assert text_of(app, "#pin-message").startswith("Wrong PIN")
        await pilot.press("escape")
        for _ in range(2):
            await pilot.pause()
        assert not app.screen.query("#try-out")  # Ready no longer says try-out
        await open_director(app, pilot)
        assert screen_name(app) == "DirectorScreen"


async def test_pin_box_cancel_button_closes_it_without_opening_anything(make_app, pinned):
    app = make_app(config=pinned)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f12")
        await pilot.pause()
        await pilot.press(*PIN)  # typed but not sent: Cancel must not open director mode
        await pilot.click("#pin-cancel")
        for _ in range(3):
            await pilot.pause()
        assert screen_name(app) == "ReadyScreen"
        assert app.focused is app.screen.query_one("#entry")
        await pilot.press("f12")  # the door still opens again afterwards
        await pilot.pause()
        assert screen_name(app) == "PinModal"


async def test_five_wrong_pins_lock_director_mode_for_60_seconds(make_app, pinned):
    clock = FakeClock()
    app = make_app(config=pinned, pin_clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f12")
        await pilot.pause()
        for tries_left in (4, 3, 2, 1):
            await pilot.press(*"0000", "enter")
            await pilot.pause()
            tries = "1 try" if tries_left == 1 else f"{tries_left} tries"  # not "1 tries"
            assert text_of(app, "#pin-message").startswith(f"Wrong PIN. {tries} left")
        await pilot.press(*"0000", "enter")
        await pilot.pause()
        locked = f"Too many wrong PINs: locked for {LOCKOUT_SECONDS:.0f} s."
        assert text_of(app, "#pin-message") == locked
        assert app.screen.query_one("#pin-input").disabled
        assert app.pin_gate.check(PIN) == "locked"  # even the right PIN, while locked
        await pilot.press("escape", "f12")  # closing and reopening resets nothing
        await pilot.pause()
        assert "locked for" in text_of(app, "#pin-message")
        clock.now += 30
        app.screen._show_lock()
        assert "locked for 30 s" in text_of(app, "#pin-message")
        clock.now += 31
        app.screen._show_lock()
        await pilot.pause()
        assert not app.screen.query_one("#pin-input").disabled
        await pilot.click("#pin-input")
        await pilot.press(*PIN, "enter")
        await pilot.pause()
        await pilot.pause()
        assert screen_name(app) == "DirectorScreen"


async def test_right_pin_opens_director_and_settings_are_saved(make_app, pinned, tmp_path):
    app = make_app(config=pinned)
    async with app.run_test(size=SIZE) as pilot:
        await open_director(app, pilot)
        assert screen_name(app) == "DirectorScreen"
        screen = app.screen
        screen.query_one("#f-station").value = "Hall B"
        screen.query_one("#f-rule").value = "10-per-turn"
        screen.query_one("#f-verdict_clear").value = "20"
        screen.query_one("#f-printer").value = "socket://10.0.0.9:9100"
        screen.save()
        await pilot.pause()
        saved = load_config(pinned.path)
        assert saved.station == "Hall B" and saved.challenge_rule is ChallengeRule.TURN10
        assert saved.timers.verdict_clear == 20 and saved.printer.url == "socket://10.0.0.9:9100"
        assert saved.pin_hash == pinned.pin_hash  # the PIN survives the save
        assert app.station.config.station == "Hall B"
        await pilot.press("escape")
        for _ in range(3):
            await pilot.pause()
        assert screen_name(app) == "ReadyScreen"
        assert "Hall B" in text_of(app, "#station")
        assert "10 points per unsuccessful challenge" in text_of(app, "#rule")
        await pilot.press(*"qi", "tab")
        await pilot.pause()
        assert app.station.journal.get(1).station == "Hall B"
        assert app.station.journal.get(1).rule == "10-per-turn"


async def test_director_changes_lexicon_and_secondary_from_the_lexicon_folder(
        make_app, pinned, tmp_path):
    folder = tmp_path / "lexicons"
    folder.mkdir()
    (folder / "newer.txt").write_text("QI\nZA\nCAT\nXU\n")
    (folder / "older.txt").write_text("QI\nCAT\n")
    app = make_app(config=pinned.with_changes(lexicon_dirs=(str(folder),)))
    async with app.run_test(size=SIZE) as pilot:
        await open_director(app, pilot)
        options = [value for _, value in app.screen._lexicon_options(
            app.screen._list_choices(), "", "x")]
        assert "newer" in options and "older" in options  # names, never a machine's path
        app.screen.query_one("#f-lexicon").value = "newer"
        app.screen.query_one("#f-secondary").value = "older"
        app.screen.save()
        await pilot.pause()
        assert app.station.lexicon.name == "NEWER" and app.station.secondary.name == "OLDER"
        assert load_config(pinned.path).lexicon == "newer"
        assert "NEWER" in text_of(app, "#lexicon")  # the header, at once (issue 27)
        await pilot.press("escape")
        for _ in range(3):
            await pilot.pause()
        assert "NEWER" in text_of(app, "#lexicon")
        await pilot.press(*"xu za", "tab")
        await pilot.pause()
        assert "ACCEPTABLE" in text_of(app, "#plain") and "UN" not in text_of(app, "#plain")
        await elapse(pilot, app, 0.3)
        await pilot.press("r")
        await pilot.pause()
        assert text_of(app, "#secondary") == "Secondary lexicon OLDER DISAGREES"


async def test_invalid_setting_names_the_key_and_changes_nothing(make_app, pinned):
    app = make_app(config=pinned)
    async with app.run_test(size=SIZE) as pilot:
        await open_director(app, pilot)
        app.screen.query_one("#f-entry_idle").value = "soon"
        app.screen.query_one("#f-station").value = "Changed"
        app.screen.save()
        await pilot.pause()
        # at the foot of the screen, as docs/station.md says (issue 21: it was a pop-up)
        assert screen_name(app) == "DirectorScreen"
        status = app.screen.query_one("#director-status")
        assert "timers.entry_idle" in text_of(app, "#director-status")
        assert "Nothing was changed" in text_of(app, "#director-status")
        assert status.has_class("error") and status.region.bottom == SIZE[1]
        assert not os.path.exists(pinned.path)
        assert app.station.config.station == "Station 7"


async def test_director_sees_counter_last_challenges_flags_per_hour_and_exports(
        make_app, pinned, tmp_path):
    app = make_app(config=pinned)
    async with app.run_test(size=(160, 40)) as pilot:  # wide: no cell is cut to fit
        for words in ("qi za", "cat xyzzy"):
            await pilot.press(*words, "tab")
            await elapse(pilot, app, 0.3)
            await pilot.press("space")
            await pilot.pause()
        await open_director(app, pilot)
        assert text_of(app, "#director-count") == "Challenges judged: 2"
        table = app.screen.query_one("#recent")
        assert table.row_count == 2
        newest = [str(cell) for cell in table.get_row_at(0)]  # rich Text cells: never markup
        assert newest[0] == "2" and newest[2] == "CAT XYZZY" and newest[3] == "UNACCEPTABLE"
        assert "possible split look-up" in newest[5]  # the journal's flag, for the director only
        assert text_of(app, "#per-hour").endswith("  2")
        app.screen.export()
        await pilot.pause()
        status = text_of(app, "#director-status")
        path = status.split("exported to ", 1)[1]
        assert open(path).read().count("\n") == 3  # header and two rows


async def test_director_quit_ends_the_kiosk(make_app, pinned):
    app = make_app(config=pinned)
    async with app.run_test(size=SIZE) as pilot:
        await open_director(app, pilot)
        app.screen.query_one("#quit").scroll_visible(animate=False)  # below the fold at 100x40
        await pilot.pause()
        await pilot.click("#quit")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


async def test_saved_file_holds_only_the_hash(make_app, pinned):
    app = make_app(config=pinned)
    async with app.run_test(size=SIZE) as pilot:
        await open_director(app, pilot)
        app.screen.save()
        await pilot.pause()
    raw = open(pinned.path, "rb").read()
    assert PIN.encode() not in raw.replace(pinned.pin_hash.encode(), b"")
    assert tomllib.loads(raw.decode())["pin_hash"].startswith("scrypt$")


async def test_smart_device_mode_keeps_the_director_door_shut(make_app, pinned):
    """WESPA 3.11.1(b), issue 6: a device at the table has no way to another mode, even with PIN."""
    app = make_app(config=pinned.with_changes(mode="smart-device"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f12")
        await pilot.pause()
        assert screen_name(app) == "ReadyScreen"
        await pilot.press(*PIN, "enter")
        await pilot.pause()
        assert screen_name(app) == "ReadyScreen"


async def until(pilot, condition, tries: int = 150) -> None:
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError("condition never met")


@pytest.mark.parametrize("mode, home, notice_box",
                         [("station", "ReadyScreen", "#message"),
                          ("runner", "RunnerScreen", "#runner-message")])
async def test_director_mode_closes_when_left_alone_and_the_station_says_so(
        make_app, pinned, mode, home, notice_box):
    """Issue 11: a director who walks away leaves no unlocked station (timers.director_idle,
    2 minutes by default); a key or a touch keeps it open; an error dialog over it closes too."""
    assert load_config(os.devnull + "x", must_exist=False).timers.director_idle == 120
    clock = FakeClock()
    app = make_app(config=pinned.with_changes(mode=mode), idle_clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        resting = len(app.screen_stack)
        await open_director(app, pilot)
        assert screen_name(app) == "DirectorScreen"
        assert "after 120 s" in text_of(app, "#director-idle")
        clock.now += 100
        await pilot.click("#f-station")  # a touch counts as the director being there
        assert app._director_seen == clock.now
        clock.now += 100
        await pilot.press("x")  # so does a key: the wait starts again
        clock.now += 100
        app.check_director_idle()
        await pilot.pause()
        assert screen_name(app) == "DirectorScreen"
        app.show_error("something the director has not read")
        await pilot.pause()
        clock.now += 121  # walked away
        await until(pilot, lambda: screen_name(app) == home)  # the app's own 1 s check
        await pilot.pause()
        assert "Director mode closed after 120 s" in text_of(app, notice_box)
        assert "locked again" in text_of(app, notice_box)
        assert len(app.screen_stack) == resting  # the error dialog went too
        assert app.station.config.station == "Station 7"  # the "x" typed was never saved
        await pilot.press("f12")  # the door is shut: the PIN is asked again
        await pilot.pause()
        assert screen_name(app) == "PinModal"


COMMENTED = """# Spring Open, hall A: the station by the door
event = "Spring Open"   # printed on every slip
station = "Door"

[timers]
# the players asked for longer
verdict_clear = 25   # seconds
"""


@pytest.mark.parametrize("size", [(80, 24), (100, 40)])
async def test_director_confirmations_are_on_screen_and_save_keeps_the_files_comments(
        make_app, pinned, size):
    """Issue 11: Save said so below the fold, and rewrote the file without its comments."""
    top, timers = COMMENTED.split("[timers]")
    hand_written = write_by_hand(pinned, top, "[timers]" + timers)
    app = make_app(config=load_config(pinned.path))
    async with app.run_test(size=size) as pilot:
        await open_director(app, pilot)
        screen = app.screen
        screen.query_one("#f-station").value = "Window"
        screen.query_one("#f-verdict_clear").value = "30"
        # scrolled (as with a mouse wheel) just far enough for Save to show, then clicked
        screen.query_one("#save").parent.scroll_visible(animate=False)
        await pilot.pause()
        await pilot.click("#save")
        await pilot.pause()
        status = screen.query_one("#director-status")
        assert text_of(app, "#director-status").startswith(f"Saved to {pinned.path}")
        assert 0 <= status.region.y and status.region.bottom <= size[1]  # on screen
        assert status.region.height >= 1 and status.display
        saved = open(pinned.path, encoding="utf-8").read()
    assert saved == hand_written.replace('"Door"', '"Window"').replace("= 25", "= 30")


async def test_set_pin_keeps_the_files_comments(tmp_path):
    from click.testing import CliRunner

    from adjudicator.cli import main
    from adjudicator.event.pin import verify_pin

    path = tmp_path / "station.toml"
    path.write_text(COMMENTED)
    result = CliRunner().invoke(main, ["set-pin", "--config", str(path)],
                                input="731902\n731902\n", catch_exceptions=False)
    assert result.exit_code == 0, result.output
    text = path.read_text()
    # every line as it was, in its place; one line more, the hash
    assert [line for line in text.splitlines() if not line.startswith("pin_hash = ")] == (
        COMMENTED.splitlines())
    assert verify_pin("731902", load_config(str(path)).pin_hash)


async def test_the_journal_view_and_the_fields_show_controls_as_pictures(make_app, pinned):
    """Issue 21: a journal row (merged in from anywhere) or a field holding an ESC is shown as
    its picture, never written to the terminal as a control, and never read as markup."""
    app = make_app(config=pinned.with_changes(station="Hall\x1b[41m [b]2"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q", "i", "tab")
        await elapse(pilot, app, 0.3)
        await pilot.press("space")
        await pilot.pause()
        await open_director(app, pilot)
        row = [str(cell) for cell in app.screen.query_one("#recent").get_row_at(0)]
        assert row[7] == "Hall\u241b[41m [b]2"  # the Station column
        field = app.screen.query_one("#f-station")
        assert field.value == "Hall\x1b[41m [b]2"  # kept as it is: only shown visibly
        assert "\x1b" not in field.render_line(0).text


async def test_save_writes_whole_seconds_as_whole_numbers(make_app, pinned):
    """Issue 21: Save settings rewrote `entry_idle = 20` as `20.0`; a half second stays 2.5."""
    write_by_hand(pinned, "", "[timers]\nentry_idle = 20\nverdict_clear = 30\n")
    app = make_app(config=load_config(pinned.path))
    async with app.run_test(size=SIZE) as pilot:
        await open_director(app, pilot)
        screen = app.screen
        screen.query_one("#f-verdict_clear").value = "25"
        screen.query_one("#f-verdict_hold").value = "2.5"
        screen.query_one("#f-director_idle").value = "90"
        screen.save()
        await pilot.pause()
    saved = open(pinned.path, encoding="utf-8").read()
    timers = saved.split("[timers]")[1]
    assert "entry_idle = 20\n" in timers and "verdict_clear = 25\n" in timers
    assert "verdict_hold = 2.5\n" in timers and "director_idle = 90\n" in timers
    assert ".0" not in timers
    assert load_config(pinned.path).timers.verdict_clear == 25


async def test_director_mode_shows_the_hubs_refusal_as_text(make_app, pinned):
    """Issue 20: a station whose rows the hub refuses shows it -- to the director, not the
    players -- in the hub's words, no control in them ever written to the terminal."""
    import sys
    import time
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hub"))
    from faulty_hub import FaultyHub

    hub = FaultyHub("refused")  # 400 {"error": "no\x1b[31m such row"}
    app = make_app(config=pinned.with_changes(hub=hub.url, hub_token="t"))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("q", "i", "tab")  # recorded: the sender is woken, and refused
            await elapse(pilot, app, 0.3)
            await pilot.press("space")
            await pilot.pause()
            await open_director(app, pilot)
            line = ""
            deadline = time.monotonic() + 20
            while "refused" not in line and time.monotonic() < deadline:
                await pilot.pause(0.2)
                line = str(app.screen.query_one("#director-hub").render())
            assert f"Hub: {hub.url} · refused by the hub: " in line, line
            assert "[31m such row" in line and "\x1b" not in line  # the ESC never drawn
    finally:
        app.station.hub_link.stop()
        hub.close()


async def test_set_pin_tapped_twice_still_says_the_pin_was_set(make_app, config):
    """Issue 36: the second tap of a double tap (0.4-1 s apart) found both boxes emptied by the
    first, and said "PIN NOT SET ... Nothing was changed" though the first had set it."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f12")
        for _ in range(3):
            await pilot.pause()
        app.screen.query_one("#f-pin").value = app.screen.query_one("#f-pin2").value = PIN
        app.screen.set_pin()
        app.screen.set_pin()  # the second tap
        await pilot.pause()
        status = text_of(app, "#director-status")
        assert "Director PIN set in" in status and "NOT SET" not in status
        assert load_config(config.path).pin_hash == app.station.config.pin_hash
        app.screen.query_one("#f-pin").value = "12"  # a new, too short PIN typed: said again
        app.screen.set_pin()
        await pilot.pause()
        assert "PIN NOT SET" in text_of(app, "#director-status")
