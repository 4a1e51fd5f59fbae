"""Zyzzyva's lexicon database (SQLite, table `words`): read only, never written, bounded."""

from __future__ import annotations

import os
import re
import urllib.parse

from .graph import MAX_WORDS, ListFormatError

FORMAT = "Zyzzyva lexicon database (SQLite)"
MAGIC = b"SQLite format 3\x00"
MAX_DB_BYTES = 512 << 20  # a Zyzzyva database with every definition is well under this
_STEPS = 200_000_000  # SQLite virtual-machine steps allowed for the whole read
_WORD = re.compile(r"[A-Z]{2,15}")


class NotALexiconDatabase(ListFormatError):
    """An SQLite file without Zyzzyva's words table (a journal, a quiz): not a word list at all."""


def read(path: str) -> tuple[list[str], list[str], str]:
    """SELECT word FROM words, opened read-only (mode=ro: nothing is ever written, no journal)."""
    import sqlite3  # only reading a database needs it

    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
    steps = [0]

    def progress() -> int:  # called every 10,000 steps: a non-zero return aborts the query
        steps[0] += 10_000
        return steps[0] > _STEPS

    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as e:
        raise ListFormatError(path, f"cannot open it as a database ({e})") from e
    try:
        conn.set_progress_handler(progress, 10_000)
        conn.text_factory = bytes  # undecodable text in a damaged file is ours to name
        kind = conn.execute("SELECT type FROM sqlite_master WHERE name = 'words'").fetchone()
        if kind is None or kind[0] != b"table":
            raise NotALexiconDatabase(path, "an SQLite database without Zyzzyva's words table: "
                                      "not a Zyzzyva lexicon database")
        rows = conn.execute("SELECT word FROM words LIMIT ?", (MAX_WORDS + 1,)).fetchall()
    except (sqlite3.Error, ValueError, OverflowError) as e:  # a damaged file, whatever it says
        if steps[0] > _STEPS:
            raise ListFormatError(path, "reading its words takes too long (damaged?)") from e
        raise ListFormatError(path, f"damaged database ({e})") from e
    finally:
        conn.close()
    if len(rows) > MAX_WORDS:
        raise ListFormatError(path, f"it holds more than {MAX_WORDS:,} words, more than any "
                              "word list")
    words = []
    for (word,) in rows:
        if isinstance(word, bytes) and word.isascii():
            word = word.decode("ascii")
        if not (isinstance(word, str) and _WORD.fullmatch(word.upper())):
            shown = repr(word)[:40]
            raise ListFormatError(path, f"its words table holds {shown}, not a word of 2-15 "
                                  "letters A-Z")
        words.append(word.upper())
    return words, [], FORMAT
