"""BigText: words in block letters (pyfiglet) in the largest font that fits the width and height."""

from __future__ import annotations

from functools import lru_cache

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

# Widest first. Widths of "UNACCEPTABLE": banner3 113, ansi_regular 100, mono9 84, standard 72,
# smblock 36; below that, plain bold text.
FONTS = ("banner3", "ansi_regular", "mono9", "standard", "smblock")
SOLID = {"banner3": "#"}  # fonts drawn with a character that reads better as a solid block


@lru_cache(maxsize=8)
def _figlet(font: str):
    from pyfiglet import Figlet  # imported on first use: keeps the kiosk's cold start short

    return Figlet(font=font, width=100_000)


@lru_cache(maxsize=512)
def render_lines(text: str, font: str) -> tuple[str, ...]:
    """The block letters of TEXT in FONT, blank rows and trailing spaces removed."""
    rendered = _figlet(font).renderText(text)
    if font in SOLID:
        rendered = rendered.replace(SOLID[font], "█")
    rows = [row.rstrip() for row in rendered.split("\n")]
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    return tuple(rows)


def layout(words: tuple[str, ...], width: int, max_rows: int,
           fonts: tuple[str, ...] = FONTS) -> tuple[str | None, tuple[str, ...]]:
    """(font, rows) of the largest font whose word-wrapped rendering fits; (None, plain) if none."""
    if not words or width <= 0:
        return None, ()
    for font in fonts:
        rows = _wrap_render(words, width, font)
        if rows is not None and len(rows) <= max_rows:
            return font, rows
    return None, tuple(_wrap_plain(words, width))


def warm(texts: tuple[str, ...] = ("ACCEPTABLE", "UNACCEPTABLE")) -> None:
    """Load the fonts and render the verdict words once, so the first verdict paints at once."""
    for font in FONTS:
        for text in texts:
            render_lines(text, font)


def _wrap_render(words, width, font) -> tuple[str, ...] | None:
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
        if rows:
            rows.append("")  # a blank row between lines of block letters keeps them apart
        rows.extend(render_lines(" ".join(line), font))
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
    """Shows its words as large as the space allows; plain bold text when nothing larger fits."""

    DEFAULT_CSS = """
    BigText { height: auto; width: 100%; text-align: center; }
    """

    def __init__(self, text: str = "", *, max_rows: int = 8, reserve: int = 0,
                 fonts: tuple[str, ...] = FONTS, id: str | None = None,
                 classes: str | None = None):
        """RESERVE: rows of the terminal the rest of the screen needs (0: only MAX_ROWS counts)."""
        super().__init__(id=id, classes=classes)
        self._text = text
        self.max_rows = max_rows
        self.reserve = reserve
        self.fonts = fonts

    @property
    def text(self) -> str:
        return self._text

    def update(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.refresh(layout=True)

    def _rows(self, width: int) -> tuple[str | None, tuple[str, ...]]:
        rows = self.max_rows
        if self.reserve and self.is_attached:
            rows = min(rows, max(3, self.app.size.height - self.reserve))
        return layout(tuple(self._text.split()), width, rows, self.fonts)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._rows(width)[1])

    def render(self) -> Text:
        if self.styles.height is not None and not self.styles.height.is_auto:
            # A fixed or fractional height (e.g. 1fr): the largest font that fits that box.
            budget = min(self.max_rows, max(1, self.content_size.height))
            font, rows = layout(tuple(self._text.split()), self.content_size.width, budget,
                                self.fonts)
        else:
            font, rows = self._rows(self.content_size.width)
        text = Text("\n".join(rows), no_wrap=True, overflow="crop")
        if font is None:
            text.stylize("bold")
        return text
