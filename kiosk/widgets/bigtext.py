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

from adjudicator.marks import CHAR, glyphs
from adjudicator.visible import visible

# Widest first. Widths of "UNACCEPTABLE": banner3 113, ansi_regular 100, mono9 84, standard 72,
# smblock 36, quad3x5 24; below that, plain bold text.
FONTS = ("banner3", "ansi_regular", "mono9", "standard", "smblock", "quad3x5")
SOLID = {"banner3": "#"}  # fonts drawn with a character that reads better as a solid block
# Our own font (tools/make_quad_font.py): 2 columns by 3 rows a letter, so 8 words of 15 letters
# fit 80x24 in block letters, two words to a line (issue 11). Only A-Z and space.
OWN_FONTS = {"quad3x5": Path(__file__).with_name("quad3x5.flf")}
# Fonts whose letters already end in a blank half row: lines of them need no blank row between.
NO_GAP = frozenset({"quad3x5"})


def font_source(font: str) -> str:
    """What pyfiglet is given for FONT: a shipped font's name, or our own font's file path
    without its suffix."""
    own = OWN_FONTS.get(font)
    return str(own.with_suffix("")) if own is not None else font


@lru_cache(maxsize=8)
def _figlet(font: str):
    from pyfiglet import Figlet  # imported on first use: keeps the kiosk's cold start short

    return Figlet(font=font_source(font), width=100_000)


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
           fonts: tuple[str, ...] = FONTS, mark: bool | None = None,
           ) -> tuple[str | None, tuple[str, ...]]:
    """(font, rows) of the largest font whose word-wrapped rendering fits; (None, plain) if none.

    The rows are WIDTH wide and already centred (each block as a whole). MARK True or False draws
    the verdict's tick or cross as a block glyph beside the words (adjudicator/marks.py).
    """
    if not words or width <= 0:
        return None, ()
    if mark is not None:  # the mark beside the words, else above them, else the words alone
        for place in (_beside, _above):
            for font in fonts:
                rows = place(words, width, font, mark)
                if rows is not None and len(rows) <= max_rows:
                    return font, rows
    for font in fonts:
        rows = _wrap_render(words, width, font)
        if rows is not None and len(rows) <= max_rows:
            return font, rows
    text = words if mark is None else (CHAR[mark], *words)
    return None, tuple(line.center(width).ljust(width) for line in _wrap_plain(text, width))


GAPS = (3, 1)  # columns between the mark and the words: 1 where 3 does not fit


def _beside(words, width, font, mark: bool) -> tuple[str, ...] | None:
    """The mark's largest glyph at most one row taller than the words, then the words: one
    block, centred as a whole."""
    if not covers(" ".join(words), font):
        return None
    word_block = render_lines(" ".join(words), font)
    word_width = _width(" ".join(words), font)
    drawings = glyphs(mark)
    glyph = next((g for g in drawings if len(g) <= len(word_block) + 1), drawings[-1])
    glyph_width = len(glyph[0])
    gap = next((g for g in GAPS if glyph_width + g + word_width <= width), None)
    if gap is None:
        return None
    height = max(len(glyph), len(word_block))
    left = _middle(glyph, height, glyph_width)
    right = _middle(word_block, height, word_width)
    return tuple(centre(tuple(a + " " * gap + b for a, b in zip(left, right)), width))


def _above(words, width, font, mark: bool) -> tuple[str, ...] | None:
    """The mark's smallest glyph over the words (a narrow screen), each centred."""
    rows = _wrap_render(words, width, font)
    glyph = glyphs(mark)[-1]
    if rows is None or len(glyph[0]) > width:
        return None
    return tuple(centre(glyph, width)) + rows


def _middle(block: tuple[str, ...], height: int, width: int) -> list[str]:
    """BLOCK in HEIGHT rows, vertically centred, every row WIDTH wide."""
    top = (height - len(block)) // 2
    blank = " " * width
    return [blank] * top + [row.ljust(width) for row in block] + [blank] * (
        height - top - len(block))


def warm(texts: tuple[str, ...] = ("ACCEPTABLE", "UNACCEPTABLE")) -> None:
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
                 fonts: tuple[str, ...] = FONTS, id: str | None = None,
                 classes: str | None = None, mark: bool | None = None, plain: bool = True):
        """RESERVE: rows of the terminal the rest of the screen needs (0: only MAX_ROWS counts).
        PLAIN False: nothing at all where no font fits (another line already says the words)."""
        super().__init__(id=id, classes=classes)
        self.plain = plain
        self._text = visible(text)
        self.max_rows = max_rows
        self.reserve = reserve
        self.fonts = fonts
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

    def _rows(self, width: int) -> tuple[str | None, tuple[str, ...]]:
        rows = self.max_rows
        if self.reserve and self.is_attached:
            rows = min(rows, max(3, self.app.size.height - self.reserve))
        return layout(tuple(self._text.split()), width, rows, self.fonts, self.mark)

    def chosen(self) -> tuple[str | None, tuple[str, ...]]:
        """(font, rows) as drawn now: font None means plain text (no rows if not self.plain)."""
        if self.styles.height is not None and not self.styles.height.is_auto:
            # A fixed or fractional height (e.g. 1fr): the largest font that fits that box.
            budget = min(self.max_rows, max(1, self.content_size.height))
            return self._plain_or_not(layout(tuple(self._text.split()), self.content_size.width,
                                             budget, self.fonts, self.mark))
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
