"""Typed entry -> normalised words, or a named EntryError a player understands."""

from __future__ import annotations

import re
import unicodedata

from adjudicator.errors import EntryError

MIN_LETTERS = 2
MAX_LETTERS = 15  # the board is 15 squares wide
MAX_WORDS = 8  # one line of at most 7 tiles forms at most 8 words (WESPA Appendix 1)
# The most an entry box holds, on every surface (station, runner's desk, phones, the station
# service): what a play can form, 8 words of at most 15 letters, each with a comma and a space
# after it. More is refused whole with ENTRY_TOO_LONG's message, never typed in part: a 100 KB
# paste took the kiosk to 2.1 GB and seconds per key.
MAX_ENTRY_CHARS = MAX_WORDS * (MAX_LETTERS + 2)

# Rejection codes, each with its own test.
EMPTY = "empty"
NOT_A_LETTER = "not-a-letter"
TOO_SHORT = "too-short"
TOO_LONG = "too-long"
TOO_MANY = "too-many-words"
ENTRY_TOO_LONG = "entry-too-long"

# The only characters that separate words: a space (also the no-break space U+00A0 that copying
# from a web page leaves), a tab (a column of a spreadsheet) and a comma. Every other character,
# visible or not (U+001C-001F, VT, FF, CR, NEL, U+2028, U+200B, U+FEFF...), is not a letter and
# is named in the refusal: an invisible character never splits or joins words silently.
SEPARATORS = " \t,\u00a0"
_SEPARATORS = re.compile(r"[ \t,\u00a0]+")
_FAST = re.compile(r"[ \t,]*[A-Za-z]{2,15}(?:[ \t,]+[A-Za-z]{2,15}){0,7}[ \t,]*")
# is_plain(text): text that parse_entry would split at once into valid words (letters A-Z of 2-15
# in 1-8 words, spaces, tabs and commas only). For such text, text.upper().replace(",", " ")
# .split() gives exactly parse_entry's words; the batch judge inlines that (issue 12).
is_plain = _FAST.fullmatch
_VALID_WORD = re.compile(r"[A-Z]{2,15}")
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


class Words(tuple):
    """Uppercase words already checked by parse_entry or validate_words (so never checked twice)."""

    __slots__ = ()


# Control characters have no name in unicodedata; these are the ones a pasted or exported text
# carries (their Unicode name aliases).
_CONTROL_NAMES = {0x00: "NULL", 0x09: "CHARACTER TABULATION", 0x0A: "LINE FEED",
                  0x0B: "LINE TABULATION", 0x0C: "FORM FEED", 0x0D: "CARRIAGE RETURN",
                  0x1B: "ESCAPE", 0x1C: "FILE SEPARATOR", 0x1D: "GROUP SEPARATOR",
                  0x1E: "RECORD SEPARATOR", 0x1F: "UNIT SEPARATOR", 0x7F: "DELETE",
                  0x85: "NEXT LINE"}


def describe_char(ch: str) -> str:
    """Name a character so a player can see which one was wrong, even an invisible one. A byte
    that is not UTF-8 (an argument or a batch line read with surrogateescape holds it as
    U+DC80-U+DCFF) is named as the byte: `byte 0xE9 (not UTF-8)`, the same on every path."""
    if 0xDC80 <= ord(ch) <= 0xDCFF:
        return f"byte 0x{ord(ch) - 0xDC00:02X} (not UTF-8)"
    if ch.isprintable() and not ch.isspace():
        return repr(ch)
    name = unicodedata.name(ch, "") or _CONTROL_NAMES.get(ord(ch), "")
    return f"U+{ord(ch):04X}" + (f" ({name})" if name else "")


def too_long_message(taken: int) -> str:
    """What a player is told when TAKEN more characters would make the entry too long."""
    what = f"{taken:,} characters" if taken > 1 else "1 character"
    return (f"Not taken ({what}): an entry holds at most {MAX_ENTRY_CHARS} characters, as one "
            f"play forms at most {MAX_WORDS} words of at most {MAX_LETTERS} letters.")


def check_entry_length(text: str) -> None:
    """EntryError (ENTRY_TOO_LONG) when TEXT is longer than any entry box holds."""
    if len(text) > MAX_ENTRY_CHARS:
        raise EntryError(ENTRY_TOO_LONG, too_long_message(len(text)))


def parse_entry(text: str) -> Words:
    """Split typed text into uppercase words, or raise EntryError naming what is wrong.

    Separators are spaces, no-break spaces, tabs and commas (SEPARATORS), nothing else; letters
    are A-Z in either case. Nothing is ever dropped or changed silently: CAT5 is refused, not
    judged as CAT, and CAR<U+001C>APACE is refused, not judged as CAR APACE.
    """
    if _FAST.fullmatch(text):
        return Words(text.upper().replace(",", " ").split())
    tokens = [t for t in _SEPARATORS.split(text) if t]
    if not tokens:
        raise EntryError(EMPTY, "No words entered: type the words formed by the play.")
    for token in tokens:
        for ch in token:
            if ch not in _LETTERS:
                raise EntryError(
                    NOT_A_LETTER,
                    f"{describe_char(ch)} is not a letter: use only letters A to Z, "
                    "with spaces between words.",
                )
    return validate_words(tuple(t.upper() for t in tokens))


def validate_words(words: tuple[str, ...]) -> Words:
    """Check word lengths and count of already-split uppercase words; return them unchanged."""
    if 0 < len(words) <= MAX_WORDS and all(map(_VALID_WORD.fullmatch, words)):
        return Words(words)
    if not words:
        raise EntryError(EMPTY, "No words entered: type the words formed by the play.")
    for word in words:
        if any(ch not in _LETTERS or not ch.isupper() for ch in word):
            bad = next(ch for ch in word if ch not in _LETTERS or not ch.isupper())
            raise EntryError(NOT_A_LETTER, f"{describe_char(bad)} is not a letter A to Z.")
        if len(word) < MIN_LETTERS:
            raise EntryError(
                TOO_SHORT, f"{word} has 1 letter: a word has at least {MIN_LETTERS} letters."
            )
        if len(word) > MAX_LETTERS:
            raise EntryError(
                TOO_LONG,
                f"{word[:MAX_LETTERS]}... has {len(word)} letters: no word on the board can be "
                f"longer than {MAX_LETTERS}.",
            )
    if len(words) > MAX_WORDS:
        raise EntryError(
            TOO_MANY,
            f"{len(words)} words entered: one play forms at most {MAX_WORDS} words. "
            "Enter the words of one play only.",
        )
    return Words(words)
