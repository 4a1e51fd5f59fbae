"""The tick and the cross as block glyphs: one drawing for the printed slip and every screen."""

from __future__ import annotations

# Drawn with block characters that code page 437 has (full, lower half, upper half), so the
# printer prints them as they are (at double size: 12 cells = 24 columns, fits 58 mm paper).
TICK = (
    "         \u2584\u2588\u2588",
    "        \u2588\u2588\u2580 ",
    "\u2588\u2588\u2584    \u2584\u2588\u2588  ",
    " \u2580\u2588\u2588\u2584 \u2588\u2588\u2580   ",
    "   \u2580\u2588\u2588\u2588\u2580    ",
    "    \u2580\u2580      ",
)
CROSS = (
    "\u2588\u2588\u2584      \u2584\u2588\u2588",
    " \u2580\u2588\u2588\u2584  \u2584\u2588\u2588\u2580 ",
    "   \u2580\u2588\u2588\u2588\u2588\u2580   ",
    "   \u2584\u2588\u2588\u2588\u2588\u2584   ",
    " \u2584\u2588\u2588\u2580  \u2580\u2588\u2588\u2584 ",
    "\u2588\u2588\u2580      \u2580\u2588\u2588",
)
ART_WIDTH = 12

# Half as tall, for screens where the verdict word is drawn in a small font.
SMALL_TICK = (
    "     \u2584\u2588",
    "\u2588\u2584  \u2588\u2580",
    " \u2580\u2588\u2588\u2580 ",
)
SMALL_CROSS = (
    "\u2580\u2588\u2584 \u2584\u2588\u2580",
    "  \u2588\u2588\u2588  ",
    "\u2584\u2588\u2580 \u2580\u2588\u2584",
)

# In full blocks only, for screens whose font has no half blocks (the Linux console, issue 28).
SOLID_TICK = (
    "          \u2588\u2588",
    "         \u2588\u2588 ",
    "\u2588\u2588      \u2588\u2588  ",
    " \u2588\u2588    \u2588\u2588   ",
    "  \u2588\u2588  \u2588\u2588    ",
    "   \u2588\u2588\u2588\u2588     ",
)
SOLID_CROSS = (
    "\u2588\u2588        \u2588\u2588",
    "  \u2588\u2588    \u2588\u2588  ",
    "    \u2588\u2588\u2588\u2588    ",
    "    \u2588\u2588\u2588\u2588    ",
    "  \u2588\u2588    \u2588\u2588  ",
    "\u2588\u2588        \u2588\u2588",
)
SOLID_SMALL_TICK = ("     \u2588\u2588", "\u2588\u2588  \u2588\u2588 ", " \u2588\u2588\u2588   ")
SOLID_SMALL_CROSS = ("\u2588\u2588  \u2588\u2588", "  \u2588\u2588  ", "\u2588\u2588  \u2588\u2588")

CHAR = {True: "\u2714", False: "\u2718"}  # one cell, for plain text


def glyphs(acceptable: bool, solid: bool = False) -> tuple[tuple[str, ...], ...]:
    """The drawings of the verdict's mark, largest first, every row of one the same width
    (SOLID: in full blocks only)."""
    if solid:
        drawings = ((SOLID_TICK, SOLID_SMALL_TICK) if acceptable
                    else (SOLID_CROSS, SOLID_SMALL_CROSS))
    else:
        drawings = (TICK, SMALL_TICK) if acceptable else (CROSS, SMALL_CROSS)
    return tuple(tuple(row.ljust(max(map(len, d))) for row in d) for d in drawings)
