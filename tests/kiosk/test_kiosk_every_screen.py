"""Every screen at 80x24, 120x40 and a phone's size says which list judges (and that ENABLE is not
a tournament word list), and nothing on it is cut: issue 21, item 4. What the screens look like is
in test_kiosk_snapshots.py; this checks what each one must say, at every size, as drawn."""

from __future__ import annotations

import re

import pytest

from adjudicator.config.station import PrinterSettings, Timers
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.event.pin import hash_pin
from adjudicator.lexicon.library import default_path
from kiosk_helpers import elapse, screen_lines

pytestmark = pytest.mark.asyncio

SIZES = [(80, 24), (120, 40), (45, 30)]
PIN = "2468"
LONG_PLAY = ("counterattacked extraordinarily bewilderments flabbergasting "
             "comprehensible overdecorating quixotically woodpeckers")


@pytest.fixture(scope="module")
def enable():
    return Lexicon.load(default_path())


@pytest.fixture
def station(make_app, config, enable):
    timers = Timers(entry_idle=900, verdict_hold=0.2, verdict_clear=900, director_idle=900)
    cfg = config.with_changes(timers=timers, pin_hash=hash_pin(PIN))

    def make(**changes):
        return make_app(config=cfg.with_changes(**changes), lexicon=enable)

    return make


def drawn(app) -> str:
    """The screen as drawn (a modal with the screen it lies over), as one line with runs of
    spaces made one: a line the screen wraps still reads as one."""
    from textual.screen import ModalScreen

    shown = app.screen_stack[-2:] if isinstance(app.screen, ModalScreen) else [app.screen]
    lines = []
    for screen in shown:
        lines += [strip.text for strip in screen._compositor.render_strips()]
    return re.sub(r"\s+", " ", " ".join(lines))


def says_the_list(app) -> None:
    text = drawn(app).upper()
    assert "ENABLE" in text, text
    assert "NOT A TOURNAMENT WORD LIST" in text, text


async def judged(pilot, words):
    await pilot.press(*words, "tab")
    await elapse(pilot, pilot.app, 0.3)
    await pilot.press("space")
    for _ in range(3):
        await pilot.pause()


async def director(pilot):
    await pilot.press("f12")
    await pilot.pause()
    await pilot.press(*PIN, "enter")
    for _ in range(3):
        await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
async def test_every_station_screen_says_enable_is_not_a_tournament_list(station, size):
    app = station()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        says_the_list(app)  # ready
        await pilot.press(*"cat dog")
        await pilot.pause()
        says_the_list(app)  # entry
        await pilot.press(*"9", "tab")
        await pilot.pause()
        assert "not a letter" in drawn(app).lower() or "'9'" in drawn(app)
        says_the_list(app)  # malformed, answered in place
        await pilot.press("backspace", "backspace", "tab")
        await pilot.pause()
        assert type(app.screen).__name__ == "VerdictScreen"
        says_the_list(app)  # acceptable
        await elapse(pilot, app, 0.3)
        await pilot.press("space")
        await pilot.pause()
        await pilot.press(*"cat xyzzy", "tab")
        await pilot.pause()
        assert "UNACCEPTABLE" in drawn(app)
        says_the_list(app)  # unacceptable


@pytest.mark.parametrize("size", SIZES)
async def test_every_director_screen_says_the_list(station, size):
    app = station()
    async with app.run_test(size=size) as pilot:
        await pilot.press("f12")
        await pilot.pause()
        assert type(app.screen).__name__ == "PinModal"
        assert app.screen.styles.background.a < 1  # the station shows through, dimmed
        says_the_list(app)  # the PIN box over the station
        await pilot.press("escape")
        await pilot.pause()
        await director(pilot)
        assert type(app.screen).__name__ == "DirectorScreen"
        says_the_list(app)
        app.screen.query_one("#recent").scroll_visible(animate=False, top=True)
        await pilot.pause()
        says_the_list(app)  # scrolled down to the journal: the line stays


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("printer", [False, True])
async def test_every_runner_desk_screen_says_enable_is_not_a_tournament_list(
        station, size, printer):
    """Issue 21: at 80x24 the desk's idle screen had no lexicon line at all."""
    app = station(mode="runner", station="Runners' desk",
                  printer=PrinterSettings(url="/dev/null/no-printer" if printer else ""))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        says_the_list(app)  # idle
        await pilot.press(*"9", "enter", *"3", "enter", *"cat xyzzy", "tab")
        for _ in range(3):
            await pilot.pause()
        assert "UNACCEPTABLE" in drawn(app)
        says_the_list(app)  # a verdict (and, with the printer, a slip not printed)


@pytest.mark.parametrize("size", SIZES)
async def test_runner_desk_table_and_round_boxes_have_borders(station, size):
    """Issue 21: at 80x24 the Table and Round boxes were bare lines, with no border."""
    app = station(mode="runner", station="Runners' desk")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for box in ("#table", "#round"):
            widget = app.screen.query_one(box)
            assert widget.styles.border_top[0] not in ("", "none", "hidden"), box
            assert widget.region.height == 3, box


def _header_cells(app) -> str:
    table = app.screen.query_one("#recent")
    row = table.region.y  # the header row
    return screen_lines(app)[row] if 0 <= row < app.size.height else ""


@pytest.mark.parametrize("size", SIZES)
async def test_one_long_play_leaves_verdict_flags_and_print_on_screen(station, size):
    """Issue 21: at 120x40 one long play pushed Verdict, Flags and Print off screen."""
    app = station()
    async with app.run_test(size=size) as pilot:
        await judged(pilot, LONG_PLAY)
        await judged(pilot, "cat xyzzy")
        await director(pilot)
        app.screen.query_one("#recent").scroll_visible(animate=False, top=True)
        await pilot.pause()
        header = _header_cells(app)
        # a phone's 45 columns hold the verdict; the rest scrolls sideways
        wanted = {45: ["Verdict"], 80: ["Verdict", "Flags", "Print"]}.get(
            size[0], ["Verdict", "Flags", "Print", "Station", "Mode"])
        for column in wanted:
            assert column in header, (column, header)
        lines = "\n".join(screen_lines(app))
        assert "UNACCEPTABLE" in lines  # the cells under them too
        assert "possible" in lines or size[0] < 80


@pytest.mark.parametrize("size", SIZES)
async def test_director_labels_are_never_cut(station, size):
    """Issue 21: at 80x24 the reprint label ended 'on t'."""
    app = station()
    async with app.run_test(size=size) as pilot:
        await director(pilot)
        app.screen.query_one("#f-reprint").scroll_visible(animate=False)
        await pilot.pause()
        assert "on the saved printer)" in drawn(app)
        for label in app.screen.query("Label"):  # each as tall as its wrapped text
            width = label.content_size.width
            needed = label.get_content_height(app.size, app.size, width)
            assert label.content_size.height >= needed, str(label.render())
        for button in app.screen.query("Button"):
            assert button.region.right <= size[0], button.id  # none off the right edge


@pytest.mark.parametrize("size", SIZES + [(40, 20)])
async def test_a_long_malformed_entry_shows_every_row_of_its_letters(station, size):
    """Issue 21: with a long malformed entry the bottom row of the big letters was cut."""
    words = ("quixotically overdecorated bewilderment extraordinary counterattack "
             "flabbergasted woodpeckers zigzagging comprehensible")
    app = station()
    async with app.run_test(size=size) as pilot:
        await pilot.press(*words, "tab")
        for _ in range(3):
            await pilot.pause()
        assert type(app.screen).__name__ == "ReadyScreen"  # 9 words: never judged
        big = app.screen.query_one("#typed")
        font, rows = big.chosen()
        assert rows
        shown = [line[big.region.x:big.region.right]
                 for line in screen_lines(app)[big.region.y:big.region.bottom]]
        assert len(rows) <= big.region.height
        for row in rows:
            assert row in shown
