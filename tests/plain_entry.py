"""A plain reading of the README's entry rules, for the property tests to compare with."""

from adjudicator.text import entry

SEPARATORS = " \t,\u00a0"
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def reference_parse(text: str):
    """A plain reading of the README's entry rules: a tuple of words, or the rejection code."""
    bad = [c for c in text if c not in SEPARATORS and c not in LETTERS]
    words = "".join(" " if c in SEPARATORS else c for c in text).split(" ")
    words = tuple(w.upper() for w in words if w)
    if not words:
        return entry.EMPTY
    if bad:
        return entry.NOT_A_LETTER
    if any(len(w) < 2 for w in words):
        return entry.TOO_SHORT
    if any(len(w) > 15 for w in words):
        return entry.TOO_LONG
    if len(words) > 8:
        return entry.TOO_MANY
    return words
