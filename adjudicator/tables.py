"""What a game table (or a round) is, in one place: a number 1-9999 in ASCII digits or a short name.

A station records a table as typed only when it is one (check_table): a number from 1 to 9999 in
the digits 0-9 (leading zeros dropped: "07" is table 7), or a short name of ASCII letters,
digits, spaces, dots and dashes that starts with a letter or digit ("A3", "Top table"). Anything
else is refused with a message before anything is judged: "²" (an AZERTY key; Python's
str.isdigit() calls it a digit, int() refuses it), "١٢" (Arabic-Indic digits), "１２" (fullwidth),
"0", "10000", controls. Rounds follow the same rule.

The hub cannot refuse what older stations or merged journals hold, so whatever text arrives
there is still shown and sorted (sort_key, group_key, shown are total over every string): numbers
first in numeric order, then any other text as text, shown with every control or invisible
character as its picture (visible.py) and cut to a length a page can hold.
"""

from __future__ import annotations

import re

from .errors import EntryError
from .visible import visible

MAX_NUMBER = 9999
MAX_NAME = 16  # characters of a table's name ("Top table 2")
NUMBER = re.compile(r"0*([1-9][0-9]{0,3})\Z")  # [0-9] is ASCII only (no \d: "²", "١")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 .\-]{0,%d}\Z" % (MAX_NAME - 1))
DIVISION_TABLE = re.compile(r"([A-Za-z][A-Za-z .\-]*?)[ .\-]*0*([1-9][0-9]{0,3})\Z")  # "A3"
SHOWN = 40  # characters of an odd table (or name) shown; the whole on hover
BAD_TABLE = "table"  # EntryError code


class TableError(EntryError):
    """A table or round that is not one (exit 2, like a malformed entry: nothing is judged)."""

    def __init__(self, message: str, what: str = "table"):
        super().__init__(BAD_TABLE, message)
        self.what = what  # "table" or "round": which box to fix


def number(text) -> int | None:
    """TEXT's table number (1-9999, ASCII digits, spaces around ignored), else None."""
    if type(text) is not str:  # noqa: E721
        return None
    found = NUMBER.match(text.strip())
    return int(found.group(1)) if found else None


def check_table(text, what: str = "table") -> str:
    """TEXT as a station records it: "" (no table), the number without leading zeros, or the
    name; TableError, saying what a table is, for anything else. WHAT: "table" or "round"."""
    text = "" if text is None else text
    if type(text) is not str:  # noqa: E721
        raise TableError(f"The {what} must be text.", what)
    text = text.strip()
    if not text:
        return ""
    n = number(text)
    if n is not None:
        return str(n)
    if NAME.match(text) and not text.isdigit():  # all digits: a number out of range
        return text
    shown = visible(text[:SHOWN]) + ("…" if len(text) > SHOWN else "")
    raise TableError(f"{what.capitalize()} {shown!r} is not a {what}: type a number from 1 to "
                     f"{MAX_NUMBER} (digits 0-9) or a short name such as A3 (letters A-Z, "
                     f"digits, at most {MAX_NAME}).", what)


def group_key(text) -> str:
    """The table a challenge at TEXT counts for: its number ("07" and "7" are one table), else
    the text itself; "" for none."""
    text = "" if text is None else str(text)
    n = number(text)
    return str(n) if n is not None else text


def division_table(text) -> tuple[str, int] | None:
    """("A", 3) for a table named by its division and number ("A3", "B 12"), else None."""
    found = DIVISION_TABLE.match(str(text).strip())
    return (found.group(1), int(found.group(2))) if found else None


def sort_key(text) -> tuple:
    """A total order over any text: table numbers in numeric order, then named tables (a
    division's tables together, in number order: A2, A10, B1), then any other text as text,
    case aside; no table last. Every key is (int, str, int, str), so any two compare."""
    text = "" if text is None else str(text)
    n = number(text)
    if n is not None:
        return (0, "", n, "")
    if not text.strip():
        return (2, "", 0, text)
    named = division_table(text)
    if named is not None:
        return (1, named[0].casefold(), named[1], text)
    return (1, text.casefold(), 0, text)


def shown(text, limit: int = SHOWN) -> str:
    """TEXT as a page shows it: controls and invisible characters as pictures, cut at LIMIT
    characters with "…" (the whole is kept for hover where it fits the page's state)."""
    text = "" if text is None else str(text)
    cut = text[:limit]
    return visible(cut) + ("…" if len(text) > limit else "")
