"""What a game table (or a round) is, in one place: a number 1-9999 in ASCII digits or a short name.

A station records a table as typed only when it is one (check_table): a number from 1 to 9999 in
the digits 0-9 (leading zeros dropped: "07" is table 7), or a short name of ASCII letters,
digits, spaces, dots and dashes that starts with a letter or digit ("A3", "Top table"). Anything
else is refused with a message before anything is judged: "²" (an AZERTY key; Python's
str.isdigit() calls it a digit, int() refuses it), "١٢" (Arabic-Indic digits), "１２" (fullwidth),
"0", "10000", controls. Rounds follow the same rule.

A table is compared as people read it, at the station and the hub alike (as_read): fullwidth
forms are the ASCII they stand for ("１２" is 12) and invisible characters (U+200B, U+2060...)
are left out. The station refuses such a table (the player types it again, and is told what it
reads as); the hub, which cannot refuse what older stations or merged journals hold, counts it
at the table it reads as, in that table's division (event.Event.division_for_table asks as_read
too), and flags it. Whatever other text arrives there is still shown and sorted (sort_key, group_key, shown are total over every string): numbers
first in numeric order, then any other text as text, shown with every control or invisible
character as its picture (visible.py) and cut to a length a page can hold.
"""

from __future__ import annotations

import re

from adjudicator.errors import EntryError
from adjudicator.text.lookalike import is_default_ignorable
from adjudicator.text.visible import visible

MAX_NUMBER = 9999
MAX_NAME = 16  # characters of a table's name ("Top table 2")
NUMBER = re.compile(r"0*([1-9][0-9]{0,3})\Z")  # [0-9] is ASCII only (no \d: "²", "١")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 .\-]{0,%d}\Z" % (MAX_NAME - 1))
DIVISION = re.compile(r"[A-Za-z][A-Za-z .\-]*")  # "A", "Top-" (one loop: linear, never backtracks)
DIGITS = frozenset("0123456789")
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


def as_read(text) -> str:
    """TEXT as people read a table (or round), the one reading both ends use: fullwidth forms
    as the ASCII they stand for, invisible (default-ignorable) characters left out, spaces
    around dropped, a number without its leading zeros ("１２", "12\u200b", " 012" are "12").
    Anything else stays as written ("²", "١٢": no one reads those as a table number)."""
    text = "" if text is None else str(text)
    if not text.isascii():
        text = text.translate(_READ)
    text = text.strip()
    n = number(text)
    return str(n) if n is not None else text


class _Read(dict):
    """as_read's str.translate table, each code point worked out at first sight."""

    def __missing__(self, code: int) -> str | None:
        char = chr(code)
        found = (None if is_default_ignorable(char) else chr(code - 0xFEE0)
                 if 0xFF01 <= code <= 0xFF5E else " " if code == 0x3000 else char)
        if len(self) < 65536:  # (a flood of distinct code points is not kept)
            self[code] = found
        return found


_READ = _Read()


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
    read = as_read(text) if len(text) <= SHOWN else ""
    hint = (f" (it reads as {read}: type it with the keys 0-9 and A-Z)"
            if read and read != text and _is_table(read) else "")
    raise TableError(f"{what.capitalize()} {shown!r} is not a {what}: type a number from 1 to "
                     f"{MAX_NUMBER} (digits 0-9) or a short name such as A3 (letters A-Z, "
                     f"digits, at most {MAX_NAME}).{hint}", what)


def _is_table(text: str) -> bool:
    """TEXT (stripped) is a table as a station records it."""
    return number(text) is not None or bool(NAME.match(text) and not text.isdigit())


def group_key(text) -> str:
    """The table a challenge at TEXT counts for: the table it reads as (as_read: "07", "7" and
    "７" are one table), else the text itself; "" for none."""
    text = "" if text is None else str(text)
    read = as_read(text)
    if read == text or _is_table(read):
        return read
    return text


def division_table(text) -> tuple[str, int] | None:
    """("A", 3) for a table named by its division and number ("A3", "B 12", "Top - 007"), else
    None. Linear in TEXT's length whatever it holds (issue 33: a pattern with a lazy letters
    group beside a separators group tried every split of a long run of spaces: 4.5 ms for 500
    odd characters, 1,000 such tables stalled the hub): the number is the trailing ASCII digits,
    the division what comes before it, separators (" .-") after its last letter left out."""
    text = str(text).strip()
    start = len(text)
    while start > 0 and text[start - 1] in DIGITS:
        start -= 1
    digits = text[start:].lstrip("0")
    if not 1 <= len(digits) <= 4 or not DIVISION.fullmatch(text, 0, start):
        return None
    return text[:start].rstrip(" .-"), int(digits)


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
