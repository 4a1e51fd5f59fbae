"""The station on the Linux console (TERM=linux) draws only what the console can (issue 28, item 1).

Before: 19 distinct non-ASCII characters, of which code page 437 (the kernel's own font) lacks 14
and Lat15/Uni2 lack 14: borders became rows of diamonds, the tick a diamond; and ACCEPTABLE's blue
went out as background 100, which the console takes for 40 (black). Here the kiosk runs on a
real pty at 80x25 and 100x37 with TERM=linux: every character it writes must be in the unicode
tables of console-setup's Lat15-Fixed16 and Uni2-Fixed16 fonts and in code page 437 (Python's
cp437 codec), every background one of 40-47, and the two verdicts must differ in shape and words,
not in colour alone.
"""

from __future__ import annotations

import gzip
import os
import re
import struct

import pytest
from pty_driver import PtyApp, child_env, kiosk_argv, station_config

from adjudicator.config.station import parse_config
from adjudicator.errors import ConfigError
from adjudicator.judging.marks import SOLID_CROSS, SOLID_TICK
from kiosk.console import CONSOLE_CHARS, SUBSTITUTES, ConsoleFilter, wants_console
from kiosk.widgets.bigtext import TYPED_FONTS, VERDICT_FONTS

FONTS_DIR = "/usr/share/consolefonts"
CONSOLE_FONTS = ("Lat15-Fixed16.psf.gz", "Uni2-Fixed16.psf.gz")
# What the 256-colour style draws that the console fonts lack (issue 28): never written here.
ISSUE_CHARS = "·—…▀▁▄█▊▌▎▔▖▘▙▛▝▞✔✘"
F12 = b"\x1b[24~"


def psf_unicode(path: str) -> set[str]:
    """The characters a PSF font's unicode table maps to a glyph (PSF1 or PSF2); sequences of
    combining characters are left out."""
    data = gzip.open(path).read()
    chars: set[str] = set()
    if data[:2] == b"\x36\x04":  # PSF1: UCS-2 entries, 0xFFFE starts sequences, 0xFFFF ends
        mode, size = data[2], data[3]
        assert mode & 2, f"{path} has no unicode table"
        pos = 4 + (512 if mode & 1 else 256) * size
        for _ in range(512 if mode & 1 else 256):
            in_sequence = False
            while True:
                (code,) = struct.unpack_from("<H", data, pos)
                pos += 2
                if code == 0xFFFF:
                    break
                if code == 0xFFFE:
                    in_sequence = True
                elif not in_sequence:
                    chars.add(chr(code))
        return chars
    magic, _, header, flags, count, size = struct.unpack_from("<6I", data)
    assert magic == 0x864AB572 and flags & 1, f"{path} is no PSF2 font with a unicode table"
    pos = header + count * size
    for _ in range(count):  # UTF-8 entries, 0xFE starts sequences, 0xFF ends the glyph's list
        in_sequence = False
        while data[pos] != 0xFF:
            if data[pos] == 0xFE:
                in_sequence, pos = True, pos + 1
                continue
            length = 1 if data[pos] < 0x80 else 2 if data[pos] < 0xE0 else (
                3 if data[pos] < 0xF0 else 4)
            if not in_sequence:
                chars.add(data[pos:pos + length].decode("utf-8"))
            pos += length
        pos += 1
    return chars


@pytest.fixture(scope="module")
def drawable() -> set[str]:
    """What all three fonts draw: CP437, Lat15-Fixed16 and Uni2-Fixed16."""
    paths = [os.path.join(FONTS_DIR, name) for name in CONSOLE_FONTS]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        pytest.skip(f"console-setup's fonts are not installed ({missing[0]} is absent; "
                    "apt-get install console-setup-linux)")
    chars = set(bytes(range(32, 256)).decode("cp437"))
    for path in paths:
        chars &= psf_unicode(path)
    return chars


def test_the_console_characters_are_what_every_console_font_draws(drawable):
    assert set(ISSUE_CHARS) - drawable == set(ISSUE_CHARS) - {"·", "█"}, "the fonts as reported"
    assert CONSOLE_CHARS <= drawable
    assert all(chr(c) in CONSOLE_CHARS for c in range(32, 127))
    assert all(sub in CONSOLE_CHARS for sub in SUBSTITUTES.values())


ESCAPE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]"  # CSI
                    r"|\][^\x07\x1b]*(\x07|\x1b\\)|P[^\x1b]*\x1b\\"  # OSC, DCS
                    r"|[ -/]*[0-~])")  # two- or three-byte escapes


def written_characters(screen: bytes) -> set[str]:
    """Every character the kiosk wrote to be drawn (escape sequences and controls left out)."""
    text = ESCAPE.sub("", screen.decode("utf-8"))
    return {c for c in text if c >= " "}


def sgr_parameters(screen: bytes) -> list[list[int]]:
    return [[int(p or 0) for p in re.split("[;:]", m)]
            for m in re.findall(r"\x1b\[([0-9;:]*)m", screen.decode("utf-8", "replace"))]


def backgrounds(screen: bytes) -> set[str]:
    """Each background colour set (40-47, 49, 100-107, or '48;...' for 256 and true colours)."""
    found = set()
    for params in sgr_parameters(screen):
        i = 0
        while i < len(params):
            p = params[i]
            if p in (38, 48):
                if p == 48:
                    found.add("48;" + ";".join(map(str, params[i + 1:i + 5])))
                i += 3 if i + 1 < len(params) and params[i + 1] == 5 else 5
                continue
            if 40 <= p <= 49 or 100 <= p <= 107:
                found.add(str(p))
            i += 1
    return found


@pytest.mark.parametrize("cols, rows", [(80, 25), (100, 37)])
def test_on_the_linux_console_every_character_is_drawable_and_every_background_is_40_to_47(
        tmp_path, drawable, cols, rows):
    config, _ = station_config(tmp_path)
    env = child_env(TERM="linux", ADJUDICATOR_CACHE=str(tmp_path / "cache"))
    app = PtyApp(kiosk_argv(config), env, cols=cols, rows=rows)
    try:
        app.read_until(b"press TAB.")
        mark = len(app.screen)
        app.write(b"qi\t")
        app.read_until(b"the play is ACCEPTABLE", start=mark)
        app.drain(0.5)
        acceptable = bytes(app.screen[mark:])
        app.write(b"\r")
        app.read_until(b"press TAB.", start=len(acceptable) + mark)
        mark = len(app.screen)
        app.write(b"qi xu\t")
        app.read_until(b"the play is UNACCEPTABLE", start=mark)
        app.drain(0.5)
        unacceptable = bytes(app.screen[mark:])
        app.write(b"\r")
        app.read_until(b"press TAB.", start=mark + len(unacceptable))
        app.write(b"unacceptable")  # the preview of what is typed, in block letters
        app.drain(0.5)
        app.write(b"\x15" + F12)  # the director's PIN box (a bordered box)
        app.read_until(b"PIN", start=mark + len(unacceptable))
        app.drain(0.5)
        screen = bytes(app.screen)
    finally:
        app.close()
    undrawable = written_characters(screen) - drawable
    assert not undrawable, f"written but not in the console fonts: {sorted(undrawable)}"
    seen = backgrounds(screen)
    assert seen <= {str(n) for n in range(40, 50)}, f"backgrounds the console mistakes: {seen}"
    assert "44" in backgrounds(acceptable), "ACCEPTABLE on blue"
    assert "43" in backgrounds(unacceptable), "UNACCEPTABLE on the console's orange (brown)"
    # told apart by shape and by words as well as by colour
    tick, cross = [row.rstrip() for row in SOLID_TICK], [row.rstrip() for row in SOLID_CROSS]
    # a part of the output may begin inside a character (where a read ended): cut, not wrong
    text_acceptable = acceptable.decode("utf-8", "replace")
    text_unacceptable = unacceptable.decode("utf-8", "replace")
    assert all(row.strip() in text_acceptable for row in tick)
    assert cross[0].strip() not in text_acceptable.replace(tick[0].strip(), "")
    assert all(row.strip() in text_unacceptable for row in cross)
    assert "YES: the play is ACCEPTABLE" in text_acceptable
    assert "NO: the play is UNACCEPTABLE" in text_unacceptable
    assert "UNACCEPTABLE" not in text_acceptable


def test_the_style_setting_and_term_choose_the_console_style():
    assert wants_console("auto", "linux") and wants_console("auto", "linux-16color")
    assert not wants_console("auto", "xterm-256color") and not wants_console("auto", None)
    assert wants_console("console", "xterm-256color")
    assert not wants_console("full", "linux")
    assert parse_config({"style": "console"}).style == "console"
    assert parse_config({}).style == "auto"
    with pytest.raises(ConfigError, match="style"):
        parse_config({"style": "pretty"})


def test_the_console_filter_leaves_only_console_characters_and_colours():
    from rich.color import Color
    from rich.segment import Segment
    from rich.style import Style
    from textual.color import Color as TextualColor

    segments = [Segment(ISSUE_CHARS + "━╭ł中", Style(color="#1f4e9c", bgcolor="#1f4e9c")),
                Segment("QI", Style(bgcolor=Color.from_ansi(12)))]
    out = ConsoleFilter().apply(segments, TextualColor(0, 0, 0))
    assert [len(s.text) for s in out] == [len(s.text) for s in segments], "one cell for one"
    assert all(c in CONSOLE_CHARS for s in out for c in s.text)
    assert [s.style.bgcolor.number for s in out] == [4, 4]  # the console's blue, 44


@pytest.mark.asyncio
@pytest.mark.parametrize("style", ["full", "console"])
@pytest.mark.parametrize("size", [(80, 24), (80, 25), (100, 37), (60, 20)])
async def test_a_rejection_is_drawn_as_large_as_an_acceptance(make_app, config, style, size):
    """Before, at 80x24 UNACCEPTABLE got a 4-row font and ACCEPTABLE a 6-row one."""
    drawn = {}
    for entry in ("qi", "qi xu"):
        app = make_app(config=config.with_changes(style=style))
        async with app.run_test(size=size) as pilot:
            await pilot.press(*entry, "tab")
            await pilot.pause()
            await pilot.pause()
            font, rows = app.screen.query_one("#big").chosen()
            drawn[entry] = (font, len(rows))
    assert drawn["qi"] == drawn["qi xu"], drawn
    assert drawn["qi"][0] in VERDICT_FONTS


@pytest.mark.asyncio
@pytest.mark.parametrize("style", ["full", "console"])
@pytest.mark.parametrize("size", [(80, 24), (100, 37), (160, 48), (40, 20)])
async def test_what_is_typed_is_never_drawn_like_a_verdict(make_app, config, style, size):
    """Typing `unacceptable` on Ready drew UNACCEPTABLE in the verdict's block letters: now it is
    drawn in outline letters, in no font a verdict uses (issue 28, 5(e))."""
    app = make_app(config=config.with_changes(style=style))
    async with app.run_test(size=size) as pilot:
        await pilot.press(*"unacceptable")
        await pilot.pause()
        await pilot.pause()
        font, rows = app.screen.query_one("#typed").chosen()
        assert font in TYPED_FONTS and font not in VERDICT_FONTS
        assert not set("".join(rows)) & set("█▀▄▌▐▖▗▘▝▚▞▙▛▜▟")


@pytest.mark.asyncio
async def test_a_key_held_past_the_full_entry_redraws_its_refusal_once(make_app):
    """About 600 KB of typing stalled the kiosk for over a minute: past the entry's 136
    characters each key was refused and the refusal written again, a redraw per key (a third of
    the time per key, profiled through a pty). It is said once."""
    from textual import events
    from textual.widgets import Static

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        message = app.screen.query_one("#message", Static)
        updates = []
        update = message.update
        message.update = lambda text="": (updates.append(text), update(text))[1]
        for _ in range(200):
            app.post_message(events.Key("a", "a"))
        await pilot.pause()
        await pilot.pause()
        assert len(app.screen.query_one("#entry").value) == 136
        assert "Not taken" in str(message.content)
        refusals = [text for text in updates if text]
        assert len(refusals) == 1, refusals[:3]  # 64 keys refused, said once


def console_kiosk(tmp_path, cols: int, rows: int, *, mode: str = "", pin: str = "") -> PtyApp:
    config, _ = station_config(tmp_path, mode=mode)
    if pin:
        from adjudicator.event.pin import hash_pin

        with open(config) as f:
            text = f.read()
        with open(config, "w") as f:
            f.write(f'pin_hash = "{hash_pin(pin)}"\n' + text)
    env = child_env(TERM="linux", ADJUDICATOR_CACHE=str(tmp_path / "cache"))
    return PtyApp(kiosk_argv(config), env, cols=cols, rows=rows)


def bold_black_on_grey(shown) -> list[str]:
    """Cells drawn bold black (the console's dark grey) on grey: about 3.2:1 (issue 36)."""
    shown.lines()
    found = []
    for y, line in shown.screen.buffer.items():
        for x, cell in line.items():
            if (cell.data.strip() and cell.bold and cell.fg in ("black", "brightblack")
                    and cell.bg in ("white", "lightgray", "brightblack")):
                found.append(f"{cell.data}@{x},{y}")
    return found


@pytest.mark.parametrize("rows", [24, 25])
def test_the_runners_typed_words_show_at_80_columns_on_the_console(tmp_path, rows):
    """Issue 36: at 80x25 and 80x24 the words box shrank to its two border lines."""
    from pty_screen import Shown

    app = console_kiosk(tmp_path, 80, rows, mode="runner")
    try:
        shown = Shown(app, 80, rows)
        shown.wait("RUNNER MODE")
        app.write(b"12\r3\rcat za")
        shown.wait("cat za", timeout=15)
        assert not bold_black_on_grey(shown)
        app.write(b"\t")
        shown.wait("Challenge #1", "Table 12")
    finally:
        app.close()


def test_every_station_screen_on_the_console_is_readable_at_80_columns(tmp_path):
    """Ready, the verdict, the PIN box and director mode at 80 columns: no bold black on grey
    (the steps bar and the buttons were), no `?` for a character the console lacks (the
    director's dropdown arrow was), and "Quit the kiosk" whole (it was cut)."""
    from pty_screen import Shown

    app = console_kiosk(tmp_path, 80, 100, pin="2468")  # tall: the whole form at once
    try:
        shown = Shown(app, 80, 100)
        shown.wait("press TAB.")
        assert not bold_black_on_grey(shown), "Ready"
        app.write(b"qi\t")
        shown.wait("next challenge")
        assert not bold_black_on_grey(shown), "the verdict"
        app.write(F12)
        shown.wait("Enter the director's PIN")
        assert not bold_black_on_grey(shown), "the PIN box"
        app.write(b"2468\r")
        lines = shown.wait("Quit the kiosk")
        app.drain(0.5)
        lines = shown.lines()
        assert not bold_black_on_grey(shown), "director mode"
        assert not any("?" in line for line in lines), "\n".join(lines)
        assert any(line.rstrip().endswith("Quit the kiosk") for line in lines)
    finally:
        app.close()
