"""Writes kiosk/widgets/quad3x5.flf: letters of 3x5 pixels (M N W: 5x5) drawn with quadrant blocks,
and kiosk/widgets/block3x5.flf: the same letters, one full block (or space) a pixel.

Two pixels to a character cell each way, one blank pixel column after each letter and one blank
pixel row below, so a letter is 2 columns by 3 rows (M N W 3 columns): the smallest block letters
that still read, for long plays (8 words of 15 letters) at 80x24 (issue 11).
block3x5 is 4 columns by 5 rows a letter and uses only the full block, which every Linux
console font has (the console style, issue 28): UNACCEPTABLE is 49 columns wide.
Run `python tools/make_quad_font.py` after changing a drawing.
"""

from __future__ import annotations

import pathlib

GLYPHS = {
    "A": ".#. #.# ### #.# #.#", "B": "##. #.# ##. #.# ##.", "C": ".## #.. #.. #.. .##",
    "D": "##. #.# #.# #.# ##.", "E": "### #.. ##. #.. ###", "F": "### #.. ##. #.. #..",
    "G": ".## #.. #.# #.# .##", "H": "#.# #.# ### #.# #.#", "I": "### .#. .#. .#. ###",
    "J": "..# ..# ..# #.# .#.", "K": "#.# #.# ##. #.# #.#", "L": "#.. #.. #.. #.. ###",
    "M": "#...# ##.## #.#.# #...# #...#", "N": "#...# ##..# #.#.# #..## #...#",
    "O": ".#. #.# #.# #.# .#.", "P": "##. #.# ##. #.. #..", "Q": ".#. #.# #.# ##. .##",
    "R": "##. #.# ##. #.# #.#", "S": ".## #.. .#. ..# ##.", "T": "### .#. .#. .#. .#.",
    "U": "#.# #.# #.# #.# ###", "V": "#.# #.# #.# #.# .#.",
    "W": "#...# #...# #.#.# ##.## #...#", "X": "#.# #.# .#. #.# #.#",
    "Y": "#.# #.# .#. .#. .#.", "Z": "### ..# .#. #.. ###",
}
SPACE_COLUMNS = 2

# (top-left, top-right, bottom-left, bottom-right) -> the quadrant character
QUADRANT = {
    (0, 0, 0, 0): " ", (1, 0, 0, 0): "\u2598", (0, 1, 0, 0): "\u259d", (1, 1, 0, 0): "\u2580",
    (0, 0, 1, 0): "\u2596", (1, 0, 1, 0): "\u258c", (0, 1, 1, 0): "\u259e", (1, 1, 1, 0): "\u259b",
    (0, 0, 0, 1): "\u2597", (1, 0, 0, 1): "\u259a", (0, 1, 0, 1): "\u2590", (1, 1, 0, 1): "\u259c",
    (0, 0, 1, 1): "\u2584", (1, 0, 1, 1): "\u2599", (0, 1, 1, 1): "\u259f", (1, 1, 1, 1): "\u2588",
}


def cells(drawing: str) -> list[str]:
    """A letter's 3 rows of characters: its pixels plus a blank column and row, two to a cell."""
    rows = [[int(c == "#") for c in row] + [0] for row in drawing.split()]
    width = len(rows[0])
    rows.append([0] * width)  # the blank pixel row below
    out = []
    for y in range(0, 6, 2):
        top, bottom = rows[y], rows[y + 1]
        out.append("".join(QUADRANT[(top[x], top[x + 1], bottom[x], bottom[x + 1])]
                           for x in range(0, width, 2)))
    return out


def font_text() -> str:
    lines = ["flf2a$ 3 3 8 -1 2",
             "quad3x5: 3x5 pixel letters in quadrant blocks, for the adjudicator kiosk.",
             "Made by tools/make_quad_font.py; only A-Z (and space) are drawn."]
    for code in range(32, 127):
        char = chr(code)
        if char == " ":
            rows = ["$" * SPACE_COLUMNS] * 3
        else:
            rows = cells(GLYPHS[char]) if char in GLYPHS else [""] * 3
        lines += [row + "@" for row in rows[:-1]] + [rows[-1] + "@@"]
    return "\n".join(lines) + "\n"


def block_font_text() -> str:
    """block3x5: each pixel one cell, a full block or a space; a blank column after a letter."""
    lines = ["flf2a$ 5 5 8 -1 2",
             "block3x5: 3x5 pixel letters in full blocks, for the adjudicator kiosk's console.",
             "Made by tools/make_quad_font.py; only A-Z (and space) are drawn."]
    for code in range(32, 127):
        char = chr(code)
        if char == " ":
            rows = ["$" * SPACE_COLUMNS] * 5
        elif char in GLYPHS:
            rows = [row.replace("#", "\u2588").replace(".", "$") + "$"
                    for row in GLYPHS[char].split()]
        else:
            rows = [""] * 5
        lines += [row + "@" for row in rows[:-1]] + [rows[-1] + "@@"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    folder = pathlib.Path(__file__).resolve().parent.parent / "kiosk" / "widgets"
    for name, text in (("quad3x5.flf", font_text()), ("block3x5.flf", block_font_text())):
        (folder / name).write_text(text, encoding="utf-8")
        print(f"wrote {folder / name}")
