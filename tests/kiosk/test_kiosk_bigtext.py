"""Block letters are drawn exactly as pyfiglet draws them, on every screen and size (issue 11).

The old BigText stripped each row's trailing spaces and the rows were then centred one by one:
"ZZ" looked like "II" and ACCEPTABLE was skewed by up to 21 columns. These tests look for the
font's own rows on the terminal, all at ONE column, not at a snapshot.
"""

from __future__ import annotations

import pytest
from kiosk_helpers import screen_lines
from pyfiglet import Figlet

from adjudicator.judging.marks import CROSS, TICK, glyphs
from kiosk.widgets.bigtext import FONTS, SOLID, font_source, layout

WORDS = ["ZZ", "ACCEPTABLE", "UNACCEPTABLE", "QI", "JUKEBOX", "MUZJIKS", "WAX", "LIJ", "TOWARD",
         "ZYZZYVA", "FLAPJACK", "OXYPHENBUTAZONE", "CWM", "Y", "BEZIQUE", "HM"]


def font_block(text: str, font: str) -> list[str]:
    """pyfiglet's rows for TEXT, as pyfiglet draws them; only rows and columns blank in every
    row are dropped (the same shift for all rows)."""
    rows = Figlet(font=font_source(font), width=10_000).renderText(text).split("\n")
    if font in SOLID:
        rows = [row.replace(SOLID[font], "█") for row in rows]
    rows = [row for row in rows]
    while rows and not rows[-1].strip():
        rows.pop()
    while rows and not rows[0].strip():
        rows.pop(0)
    width = max(map(len, rows))
    rows = [row.ljust(width) for row in rows]
    first = min(len(r) - len(r.lstrip()) for r in rows if r.strip())
    last = max(len(r.rstrip()) for r in rows)
    return [row[first:last] for row in rows]


def find_block(lines: list[str], block: list[str]) -> tuple[int, int] | None:
    """(x, y) where every row of BLOCK sits on the screen at the same column x, else None."""
    for y in range(len(lines) - len(block) + 1):
        x = lines[y].find(block[0])
        while x != -1:
            if all(lines[y + i][x:x + len(row)] == row for i, row in enumerate(block)):
                return x, y
            x = lines[y].find(block[0], x + 1)
    return None


def shown_in_some_font(lines: list[str], text: str) -> str | None:
    for font in FONTS:
        if find_block(lines, font_block(text, font)) is not None:
            return font
    return None


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("font", FONTS)
def test_layout_rows_are_the_fonts_rows_at_one_column(word, font):
    width = 400
    chosen, rows = layout((word,), width, 50, fonts=(font,))
    assert chosen == font
    block = font_block(word, font)
    assert len(rows) == len(block) and all(len(row) == width for row in rows)
    assert find_block(list(rows), block) is not None
    # centred as a whole: the margins differ by at most one column
    x, _ = find_block(list(rows), block)
    assert abs(x - (width - x - len(block[0]))) <= 1


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (40, 20), (45, 30), (160, 48)])
@pytest.mark.parametrize("entry, word", [("qi za", "ACCEPTABLE"), ("qi xyzzy", "UNACCEPTABLE")])
async def test_verdict_word_is_drawn_as_the_font_draws_it(make_app, size, entry, word):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press(*entry, "tab")
        await pilot.pause()
        await pilot.pause()
        font = app.screen.query_one("#big").chosen()[0]
        assert font is not None, f"{word} in plain text at {size}"
        lines = screen_lines(app)
        word_at = find_block(lines, font_block(word, font))
        assert word_at is not None, "\n".join(lines)
        assert_mark_beside(lines, word == "ACCEPTABLE", word_at, size)


def assert_mark_beside(lines, acceptable, word_at, size):
    """The tick or cross drawn large (adjudicator.judging.marks), left of the word on the same rows;
    on a narrow screen it may sit above the word instead."""
    found = [(g, find_block(lines, list(g))) for g in glyphs(acceptable)]
    found = [(g, at) for g, at in found if at is not None]
    assert found, "no large mark on screen:\n" + "\n".join(lines)
    glyph, (gx, gy) = found[0]
    wx, wy = word_at
    beside = gx + len(glyph[0]) < wx and gy <= wy + 3 and wy <= gy + len(glyph)
    above = gy + len(glyph) <= wy
    assert beside or (above and size[0] < 60), (glyph, (gx, gy), word_at)
    if size[0] >= 80:
        assert beside and len(glyph) >= 3


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (40, 20), (160, 48)])
async def test_typed_words_are_drawn_as_the_font_draws_them(make_app, size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        entry = app.screen.query_one("#entry")
        for word in WORDS:
            entry.value = word.lower()
            await pilot.pause()
            await pilot.pause()
            font = app.screen.query_one("#typed").chosen()[0]
            if font is None:
                continue  # plain text: checked below that it is rare
            lines = screen_lines(app)
            assert find_block(lines, font_block(word, font)) is not None, (word, "\n".join(lines))
        entry.value = "zz"
        await pilot.pause()
        await pilot.pause()
        assert shown_in_some_font(screen_lines(app), "ZZ") is not None


@pytest.mark.asyncio
async def test_verdict_screen_says_when_the_list_is_unrecognised_or_not_for_tournaments(make_app):
    """Issue 11: not only Ready; every verdict carries it."""
    from adjudicator.lexicon.compiled import Lexicon
    from adjudicator.lexicon.library import default_path
    from kiosk_helpers import text_of

    for lexicon, expected in ((None, "UNRECOGNISED WORD LIST TINY"),
                              (Lexicon.load(default_path()), "NOT A TOURNAMENT WORD LIST")):
        app = make_app(lexicon=lexicon)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*"qi za", "tab")
            await pilot.pause()
            await pilot.pause()
            assert expected in text_of(app, "#lexicon-warning")
            assert app.screen.query_one("#lexicon-warning").region.bottom <= 24
            assert any(expected in line for line in screen_lines(app))


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_the_large_mark_is_the_slips_drawing_at_desk_sizes(make_app, size):
    """The same glyphs the slip prints (adjudicator.judging.marks), the full 6-row drawing when there is
    room beside ACCEPTABLE / UNACCEPTABLE."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press(*"qi xyzzy", "tab")
        await pilot.pause()
        await pilot.pause()
        lines = screen_lines(app)
        if size == (160, 48):
            assert find_block(lines, list(CROSS)) is not None, "\n".join(lines)
        assert find_block(lines, list(TICK)) is None


# The 8 fifteen-letter words of CSW19 with the most wide letters (M N W): the widest real play.
LONGEST_PLAY = ["NONCOMMUNICANTS", "NONINFRINGEMENT", "IMMUNOCOMPETENT", "IMMUNOSTIMULANT",
                "INCONVENIENCING", "INTERCOMMUNIONS", "INTERTWINEMENTS", "MAGNANIMOUSNESS"]


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 48)])
async def test_eight_words_of_fifteen_letters_get_block_letters(make_app, size):
    """Issue 11: the longest play a rack can form is previewed in block letters at the station's
    sizes (80x24 and up), every word drawn as the font draws it, all of it on screen."""
    assert len(LONGEST_PLAY) == 8 and all(len(w) == 15 for w in LONGEST_PLAY)
    app = make_app()
    async with app.run_test(size=size) as pilot:
        app.screen.query_one("#entry").value = " ".join(LONGEST_PLAY).lower()
        await pilot.pause()
        await pilot.pause()
        typed = app.screen.query_one("#typed")
        font, rows = typed.chosen()
        assert font is not None, f"plain text at {size}"
        assert typed.region.bottom <= app.screen.query_one("#entry").region.y
        lines = screen_lines(app)
        for word in LONGEST_PLAY:
            assert find_block(lines, font_block(word, font)) is not None, (word, "\n".join(lines))


def test_a_character_the_font_lacks_is_never_dropped_from_the_preview():
    """pyfiglet leaves out what a font does not draw: QI and a CJK character must not preview as QI,
    nor CA7 as CA in our own font (A-Z only)."""
    font, rows = layout(("QI\u4e2d",), 200, 20)
    assert font is None and "QI\u4e2d" in rows[0]
    font, rows = layout(("CA7",), 80, 3, fonts=FONTS[-1:])
    assert font is None and "CA7" in rows[0]
