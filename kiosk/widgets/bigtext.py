"""BigText: words in block letters (pyfiglet) in the largest font that fits the width and height.

Every row of a word is drawn exactly as the font draws it: the rows of one block keep one width
(trailing spaces are part of the letters' shape) and a block is centred as a whole, never row by
row (issue 11: ZZ previewed as II, ACCEPTABLE skewed).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from adjudicator.judging.marks import CHAR, glyphs
from adjudicator.text.visible import visible

# Widest first. The verdict is drawn in solid block letters; widths of "UNACCEPTABLE": banner3
# 112, ansi_regular 99, mono9 83, block3x5 49, smblock 36; below that, plain bold text.
VERDICT_FONTS = ("banner3", "ansi_regular", "mono9", "block3x5", "smblock")
# The console style (kiosk/console.py): letters of full blocks only, which every console font has.
CONSOLE_VERDICT_FONTS = ("banner3", "ansi_regular", "block3x5")
# What is typed is drawn in outline letters of ASCII lines (big 82, standard 72, small 57, mini
# 32 wide): never in a verdict's font, so typing `unacceptable` on Ready never looks like the
# verdict (issue 28, 5(e)). A long play that fits no outline font gets quad3x5, which no verdict
# uses: 8 words of 15 letters at 80x24 (issue 11).
TYPED_FONTS = ("big", "standard", "small", "mini", "quad3x5")
CONSOLE_TYPED_FONTS = ("big", "standard", "small", "mini")
FONTS = VERDICT_FONTS + tuple(f for f in TYPED_FONTS if f not in VERDICT_FONTS)  # all of them
# The verdict words are laid out in the font both would get: a rejection is drawn as large as an
# acceptance (before, at 80x24 UNACCEPTABLE got a 4-row font and ACCEPTABLE a 6-row one).
VERDICT_WORDS = ("ACCEPTABLE", "UNACCEPTABLE")
SOLID = {"banner3": "#"}  # fonts drawn with a character that reads better as a solid block
# Our own fonts (tools/make_quad_font.py), only A-Z and space. quad3x5: 2 columns by 3 rows a
# letter, so 8 words of 15 letters fit 80x24, two words to a line (issue 11). block3x5: the same
# letters in full blocks, 4 columns by 5 rows.
OWN_FONTS = {name: Path(__file__).with_name(f"{name}.flf") for name in ("quad3x5", "block3x5")}
# Fonts whose letters already end in a blank half row: lines of them need no blank row between.
NO_GAP = frozenset({"quad3x5"})


def font_source(font: str) -> str:
    """What pyfiglet is given for FONT: a shipped font's name, or our own font's file path
    without its suffix."""
    own = OWN_FONTS.get(font)
    return str(own.with_suffix("")) if own is not None else font


@lru_cache(maxsize=16)  # every font of FONTS stays loaded (preload_data)
def _figlet(font: str):
    from pyfiglet import Figlet  # imported on first use: keeps the kiosk's cold start short

    return Figlet(font=font_source(font), width=100_000)


def preload_data() -> None:
    """Every font read now (adjudicator/supervisor/preload.py): a kiosk restarted after the package was
    reinstalled or removed draws its verdict from memory, never from a font file gone."""
    for font in FONTS:
        _figlet(font)


def covers(text: str, font: str) -> bool:
    """True when FONT draws every character of TEXT (pyfiglet silently drops the others)."""
    chars = _figlet(font).Font.chars
    return all(ord(c) in chars for c in text)


def figlet_rows(text: str, font: str) -> tuple[str, ...]:
    """The rows pyfiglet draws for TEXT in FONT, as it draws them (SOLID characters replaced)."""
    rendered = _figlet(font).renderText(text)
    if font in SOLID:
        rendered = rendered.replace(SOLID[font], "█")
    return tuple(rendered.split("\n"))


@lru_cache(maxsize=512)
def render_lines(text: str, font: str) -> tuple[str, ...]:
    """The block letters of TEXT in FONT: one block, every row the same width.

    Only what is blank in every row goes: blank rows above and below, blank columns left and
    right of the whole block. No row moves against another.
    """
    rows = list(figlet_rows(text, font))
    while rows and not rows[-1].strip():
        rows.pop()
    while rows and not rows[0].strip():
        rows.pop(0)
    if not rows:
        return ()
    width = max(len(row) for row in rows)
    rows = [row.ljust(width) for row in rows]
    left = min(len(row) - len(row.lstrip(" ")) for row in rows if row.strip())
    right = max(len(row.rstrip(" ")) for row in rows)
    return tuple(row[left:right] for row in rows)


def centre(block: tuple[str, ...], width: int) -> list[str]:
    """The rows of BLOCK, each padded to WIDTH by the same left margin: the block centred whole."""
    block_width = max((len(row) for row in block), default=0)
    pad = " " * max(0, (width - block_width) // 2)
    return [(pad + row.ljust(block_width)).ljust(width) for row in block]


def layout(words: tuple[str, ...], width: int, max_rows: int,
           fonts: tuple[str, ...] = TYPED_FONTS, mark: bool | None = None,
           fit: tuple[str, ...] = (), solid: bool = False,
           ) -> tuple[str | None, tuple[str, ...]]:
    """(font, rows) of the largest font whose word-wrapped rendering fits; (None, plain) if none.

    The rows are WIDTH wide and already centred (each block as a whole). MARK True or False draws
    the verdict's tick or cross as a block glyph beside the words (adjudicator/judging/marks.py; SOLID:
    drawn in full blocks only). FIT: other words the font must fit as well (the other verdict),
    so that both are drawn the same size.
    """
    if not words or width <= 0:
        return None, ()
    fits = [words] + [(word,) for word in fit]
    if mark is not None:  # the mark beside the words, else above them, else the words alone
        for place in (_beside, _above):
            for font in fonts:
                rows = [place(w, width, font, mark, solid) for w in fits]
                if all(r is not None and len(r) <= max_rows for r in rows):
                    return font, rows[0]
    for font in fonts:
        rows = [_wrap_render(w, width, font) for w in fits]
        if all(r is not None and len(r) <= max_rows for r in rows):
            return font, rows[0]
    text = words if mark is None else (CHAR[mark], *words)
    return None, tuple(line.center(width).ljust(width) for line in _wrap_plain(text, width))


GAPS = (3, 1)  # columns between the mark and the words: 1 where 3 does not fit


def _beside(words, width, font, mark: bool, solid: bool) -> tuple[str, ...] | None:
    """The mark's largest glyph at most one row taller than the words, then the words: one
    block, centred as a whole."""
    if not covers(" ".join(words), font):
        return None
    word_block = render_lines(" ".join(words), font)
    word_width = _width(" ".join(words), font)
    drawings = glyphs(mark, solid)
    glyph = next((g for g in drawings if len(g) <= len(word_block) + 1), drawings[-1])
    glyph_width = len(glyph[0])
    gap = next((g for g in GAPS if glyph_width + g + word_width <= width), None)
    if gap is None:
        return None
    height = max(len(glyph), len(word_block))
    left = _middle(glyph, height, glyph_width)
    right = _middle(word_block, height, word_width)
    return tuple(centre(tuple(a + " " * gap + b for a, b in zip(left, right)), width))


def _above(words, width, font, mark: bool, solid: bool) -> tuple[str, ...] | None:
    """The mark's smallest glyph over the words (a narrow screen), each centred, a blank row
    between them (a font whose letters fill their top row would touch the mark)."""
    rows = _wrap_render(words, width, font)
    glyph = glyphs(mark, solid)[-1]
    if rows is None or len(glyph[0]) > width:
        return None
    return tuple(centre(glyph, width)) + (" " * width,) + rows


def _middle(block: tuple[str, ...], height: int, width: int) -> list[str]:
    """BLOCK in HEIGHT rows, vertically centred, every row WIDTH wide."""
    top = (height - len(block)) // 2
    blank = " " * width
    return [blank] * top + [row.ljust(width) for row in block] + [blank] * (
        height - top - len(block))


def warm(texts: tuple[str, ...] = VERDICT_WORDS) -> None:
    """Load the fonts and render the verdict words once, so the first verdict paints at once."""
    for font in FONTS:
        for text in texts:
            render_lines(text, font)


def _wrap_render(words, width, font) -> tuple[str, ...] | None:
    if not covers(" ".join(words), font):
        return None
    lines: list[list[str]] = []
    for word in words:
        if lines and _width(" ".join(lines[-1] + [word]), font) <= width:
            lines[-1].append(word)
        else:
            if _width(word, font) > width:
                return None
            lines.append([word])
    rows: list[str] = []
    for line in lines:
        if rows and font not in NO_GAP:
            rows.append(" " * width)  # a blank row between lines of block letters keeps them apart
        rows.extend(centre(render_lines(" ".join(line), font), width))
    return tuple(rows)


def _width(text: str, font: str) -> int:
    return max((len(row) for row in render_lines(text, font)), default=0)


def _wrap_plain(words, width) -> list[str]:
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


class BigText(Widget):
    """Shows its words as large as the space allows; plain bold text when nothing larger fits.

    The rows come centred from layout(): the widget draws them as they are (text-align left), so
    nothing re-centres a row on its own.
    """

    DEFAULT_CSS = """
    BigText { height: auto; width: 100%; text-align: left; }
    """

    def __init__(self, text: str = "", *, max_rows: int = 8, reserve: int = 0,
                 fonts: tuple[str, ...] = TYPED_FONTS, id: str | None = None,
                 classes: str | None = None, mark: bool | None = None, plain: bool = True,
                 verdict: bool = False):
        """RESERVE: rows of the terminal the rest of the screen needs (0: only MAX_ROWS counts).
        PLAIN False: nothing at all where no font fits (another line already says the words).
        VERDICT: a verdict word, in the verdicts' fonts, as large as the other verdict word."""
        super().__init__(id=id, classes=classes)
        self.plain = plain
        self._text = visible(text)
        self.max_rows = max_rows
        self.reserve = reserve
        self.verdict = verdict
        self.fonts = VERDICT_FONTS if verdict and fonts is TYPED_FONTS else fonts
        self.mark = mark  # True: a tick beside the words; False: a cross; None: no mark

    @property
    def text(self) -> str:
        return self._text

    def update(self, text: str, mark: bool | None = None) -> None:
        """Show TEXT (each control or invisible character as its picture: never drawn raw)."""
        text = visible(text)
        if text != self._text or mark != self.mark:
            self._text = text
            self.mark = mark
            self.refresh(layout=True)

    def _layout(self, width: int, rows: int) -> tuple[str | None, tuple[str, ...]]:
        console = self.is_attached and getattr(self.app, "console_style", False)
        fonts = self.fonts
        if console:  # full blocks and ASCII only (kiosk/console.py)
            fonts = {VERDICT_FONTS: CONSOLE_VERDICT_FONTS,
                     TYPED_FONTS: CONSOLE_TYPED_FONTS}.get(fonts, fonts)
        words = tuple(self._text.split())
        fit = tuple(w for w in VERDICT_WORDS if w not in words) if self.verdict else ()
        return layout(words, width, rows, fonts, self.mark, fit, solid=bool(console))

    def _rows(self, width: int) -> tuple[str | None, tuple[str, ...]]:
        rows = self.max_rows
        if self.reserve and self.is_attached:
            rows = min(rows, max(3, self.app.size.height - self.reserve))
        return self._layout(width, rows)

    def chosen(self) -> tuple[str | None, tuple[str, ...]]:
        """(font, rows) as drawn now: font None means plain text (no rows if not self.plain)."""
        if self.styles.height is not None and not self.styles.height.is_auto:
            # A fixed or fractional height (e.g. 1fr): the largest font that fits that box.
            budget = min(self.max_rows, max(1, self.content_size.height))
            return self._plain_or_not(self._layout(self.content_size.width, budget))
        return self._plain_or_not(self._rows(self.content_size.width))

    def _plain_or_not(self, chosen):
        font, rows = chosen
        return (font, rows) if font is not None or self.plain else (None, ())

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._plain_or_not(self._rows(width))[1])

    def render(self) -> Text:
        font, rows = self.chosen()
        text = Text("\n".join(rows), no_wrap=True, overflow="crop", justify="left")
        if font is None:
            text.stylize("bold")
        return text
