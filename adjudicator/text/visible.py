"""visible(text): TEXT as a screen may draw it, every control or invisible character shown.

Whatever a player types or pastes (and whatever a journal or a peer hands over) is drawn through
this before it reaches a terminal (issue 21): an ESC drawn as-is let a pasted "ESC [ 6 ; 25 H
YES: ACCEPTABLE" paint a fake verdict, and a bidi override or a zero-width space changes what a
line seems to say. One character in, one visible character out, each one terminal cell wide, so
a box's cursor and what it holds stay in step with what it shows:

- C0 controls (U+0000-U+001F, TAB and ESC included) as their control pictures, ESC as U+241B ␛;
- DEL as U+2421 ␡;
- every other character of Unicode category Cc, Cf, Zl, Zp, Cs, Co or Cn (C1 controls, bidi
  overrides and isolates, zero-width characters, U+FEFF, line and paragraph separators,
  surrogates, private-use and unassigned code points) as U+2426 ␦.

The entry itself is never changed: such characters stay in it, and parse_entry refuses it,
naming the character by its code (adjudicator/text/entry.py).
"""

from __future__ import annotations

import re
import unicodedata

DEL_PICTURE = "\u2421"  # ␡
OTHER_PICTURE = "\u2426"  # ␦: any other control or invisible character
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})

_PLAIN = re.compile(r"[ -~]*")  # printable ASCII: nothing to do (nearly every call)


def picture(ch: str) -> str:
    """The visible stand-in for CH, or CH itself when a terminal draws it as it is."""
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return DEL_PICTURE
    if code < 0x7F:
        return ch
    return OTHER_PICTURE if unicodedata.category(ch) in HIDDEN_CATEGORIES else ch


class _Pictures(dict):
    """Code point -> its picture(), worked out at first sight (str.translate's table: a long
    text of odd characters pictured at C speed, not a Python call a character)."""

    def __missing__(self, code: int) -> str:
        found = picture(chr(code))
        if len(self) < 65536:  # (a flood of distinct code points is not kept)
            self[code] = found
        return found


_PICTURES = _Pictures()


def visible(text: str) -> str:
    """TEXT with each control or invisible character replaced by its picture(); same length."""
    if _PLAIN.fullmatch(text):
        return text
    return text.translate(_PICTURES)


def is_hidden(ch: str) -> bool:
    """True when CH is a character visible() replaces."""
    return picture(ch) != ch
