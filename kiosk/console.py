"""The console style: the station on the Linux console (TERM=linux), in what its fonts can draw.

No font of Debian's console-setup has ✔, the kernel's own font (code page 437) lacks most of the
half and quadrant blocks, and the console takes background colours 100-107 for 40-47: the
256-colour look turned borders into rows of diamonds and ACCEPTABLE's blue into black (issue 28,
item 1). In the console style every character the station writes is one that code page 437,
Lat15 and Uni2 all have (CONSOLE_CHARS: ASCII, the full block, line drawing, some Latin-1
letters), the big letters are full blocks (kiosk/widgets/bigtext.py), and every background is
one of the eight colours 40-47: blue for ACCEPTABLE, brown (the console's yellow) for
UNACCEPTABLE. console.tcss sets the look; ConsoleFilter makes sure of the rest, whatever a widget
draws: a character outside CONSOLE_CHARS becomes its nearest or "?", a colour its nearest of
the console's.

`style = "auto"` (the default) picks it when TERM is `linux`; `"console"` and `"full"` force
one or the other (config/station.py).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rich.color import Color as RichColor
from rich.color import ColorType
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

CSS_PATH = Path(__file__).with_name("console.tcss")
# read at import, as kiosk.tcss is: a restarted kiosk reads no file of a package replaced since
CSS_TEXT = CSS_PATH.read_text(encoding="utf-8")
# The characters that code page 437 (Python's cp437 codec) and console-setup's Lat15-Fixed16 and
# Uni2-Fixed16 all draw (their PSF unicode tables; tests/kiosk/test_kiosk_console.py reads them).
CONSOLE_CHARS = frozenset(
    "".join(chr(c) for c in range(32, 127))
    + "\xa0¡¢£¥ª«¬°±²µ·º»¼½¿ÄÅÆÇÉÑÖÜßàáâäåæçèéêëìíîïñòóôö÷ùúûüÿƒπⁿ₧∞∩≈≡≤≥"
    + "─│┌┐└┘├┤┬┴┼═║╒╓╔╕╖╗╘╙╚╛╜╝╞╟╠╡╢╣╤╥╦╧╨╩╪╫╬█░▒■")
# What the station or Textual may draw that the console cannot: one cell for one cell.
SUBSTITUTES = {
    "✔": "+", "✘": "x", "—": "-", "–": "-", "…": ".", "•": "·", "’": "'", "‘": "'", "“": '"',
    "”": '"', "×": "x", "▼": "v", "▲": "^", "▶": ">", "◀": "<", "►": ">", "◄": "<",
    # heavy and rounded lines: the light ones
    "━": "─", "┃": "│", "┏": "┌", "┓": "┐", "┗": "└", "┛": "┘", "╭": "┌", "╮": "┐", "╰": "└",
    "╯": "┘", "┣": "├", "┫": "┤", "┳": "┬", "┻": "┴", "╋": "┼",
    # Textual's tall and wide borders and scroll bars: eighth blocks, as blank or full
    "▔": " ", "▁": " ", "▂": " ", "▃": "█", "▅": "█", "▆": "█", "▇": "█", "▏": " ", "▎": " ",
    "▍": " ", "▋": "█", "▊": "█", "▉": "█", "▕": " ",
    # half and quadrant blocks: full where at least half the cell is drawn
    "▀": "█", "▄": "█", "▌": "█", "▐": "█", "▖": " ", "▗": " ", "▘": " ", "▝": " ", "▚": "█",
    "▞": "█", "▙": "█", "▛": "█", "▜": "█", "▟": "█",
}
# The console's colours 0-7 (the VGA palette) and their bright forms 8-15 (foreground only).
PALETTE = ((0, 0, 0), (170, 0, 0), (0, 170, 0), (170, 85, 0), (0, 0, 170), (170, 0, 170),
           (0, 170, 170), (170, 170, 170), (85, 85, 85), (255, 85, 85), (85, 255, 85),
           (255, 255, 85), (85, 85, 255), (255, 85, 255), (85, 255, 255), (255, 255, 255))


def wants_console(style: str, term: str | None) -> bool:
    """Whether the kiosk draws in the console style: STYLE is the config's `style` ("auto",
    "console" or "full"); auto means the console style on the Linux console (TERM=linux)."""
    if style == "auto":
        return (term or "").split("-")[0] == "linux"
    return style == "console"


class _Characters(dict):
    """str.translate's table: each character outside CONSOLE_CHARS to its substitute or "?"."""

    def __missing__(self, code: int):
        char = chr(code)
        value = char if char in CONSOLE_CHARS or char in "\n\r" else SUBSTITUTES.get(char, "?")
        self[code] = value
        return value


TRANSLATE = _Characters()


def _nearest(triplet, count: int) -> int:
    red, green, blue = triplet
    return min(range(count), key=lambda i: (PALETTE[i][0] - red) ** 2
               + (PALETTE[i][1] - green) ** 2 + (PALETTE[i][2] - blue) ** 2)


def _console_color(color: RichColor | None, count: int) -> RichColor | None:
    """COLOR as one of the console's first COUNT colours (8: a background, 16: a foreground)."""
    if color is None or color.type is ColorType.DEFAULT:
        return color
    if color.type is ColorType.STANDARD and color.number is not None and color.number < count:
        return color
    return RichColor.from_ansi(_nearest(color.get_truecolor(), count))


@lru_cache(maxsize=1024)
def console_style(style: Style) -> Style:
    """STYLE with colours the console shows as they are: backgrounds 40-47 only (it took 100-107
    for 40-47), foregrounds 30-37 and 90-97. Everything else (bold, what a click means) kept."""
    color = _console_color(style.color, 16)
    bgcolor = _console_color(style.bgcolor, 8)
    if color is style.color and bgcolor is style.bgcolor:
        return style
    return style + Style.from_color(color, bgcolor)


class ConsoleFilter(LineFilter):
    """Every line the kiosk draws, in the console's characters and colours."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [Segment(text.translate(TRANSLATE), console_style(style) if style else style,
                        control)
                for text, style, control in segments]
