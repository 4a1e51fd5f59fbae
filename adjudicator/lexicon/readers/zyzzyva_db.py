"""Zyzzyva's lexicon database (SQLite, table `words`): read only, never written, bounded."""

from __future__ import annotations

import os
import re
import urllib.parse

from adjudicator.lexicon.readers.graph import MAX_WORDS, ListFormatError

FORMAT = "Zyzzyva lexicon database (SQLite)"
MAGIC = b"SQLite format 3\x00"
MAX_DB_BYTES = 512 << 20  # a Zyzzyva database with every definition is well under this
_STEPS = 200_000_000  # SQLite virtual-machine steps allowed for the whole read
_MAX_VALUE = 1 << 20  # no string, blob or SQL text of more bytes is made while reading
_CACHE_KB = 8192  # SQLite's page cache for the read, in KiB
_WORD = re.compile(r"[A-Z]{2,15}")


class NotALexiconDatabase(ListFormatError):
    """An SQLite file without Zyzzyva's words table (a journal, a quiz): not a word list at all."""


def read(path: str) -> tuple[list[str], list[str], str]:
    """SELECT word FROM words, opened read-only and immutable: nothing is ever written beside it
    (no -shm, no -journal) and a -wal beside it is not read (its hash covers the file alone).

    Memory is bounded whatever the file holds: no value longer than _MAX_VALUE bytes is ever
    made (a `word` computed as a 200 MB string per row is refused at its first row), rows are
    checked as they come, at most MAX_WORDS + 1 of them, in at most _STEPS steps."""
    import sqlite3  # only reading a database needs it

    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro&immutable=1"
    steps = [0]

    def progress() -> int:  # called every 10,000 steps: a non-zero return aborts the query
        steps[0] += 10_000
        return steps[0] > _STEPS

    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as e:
        raise ListFormatError(path, f"cannot open it as a database ({e})") from e
    words: list[str] = []
    try:
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _MAX_VALUE)
        conn.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, _MAX_VALUE)
        conn.execute(f"PRAGMA cache_size = -{_CACHE_KB}")  # a sort spills to disk beyond this
        conn.set_progress_handler(progress, 10_000)
        conn.text_factory = bytes  # undecodable text in a damaged file is ours to name
        kind = conn.execute("SELECT type FROM sqlite_master WHERE name = 'words'").fetchone()
        if kind is None or kind[0] != b"table":
            raise NotALexiconDatabase(path, "an SQLite database without Zyzzyva's words table: "
                                      "not a Zyzzyva lexicon database")
        cursor = conn.execute("SELECT word FROM words LIMIT ?", (MAX_WORDS + 1,))
        while rows := cursor.fetchmany(10_000):
            for (word,) in rows:
                words.append(_checked(path, word))
            if len(words) > MAX_WORDS:
                raise ListFormatError(path, f"it holds more than {MAX_WORDS:,} words, more than "
                                      "any word list")
    except (sqlite3.Error, ValueError, OverflowError, MemoryError) as e:  # damaged, whatever it says
        if steps[0] > _STEPS:
            raise ListFormatError(path, "reading its words takes too long (damaged?)") from e
        raise ListFormatError(path, f"damaged database ({e})") from e
    finally:
        conn.close()
    return words, [], FORMAT


def _checked(path: str, word) -> str:
    """One row's word, upper-cased, or ListFormatError naming what the row holds instead."""
    if isinstance(word, bytes) and len(word) <= 15 and word.isascii():
        word = word.decode("ascii")
    if not (isinstance(word, str) and _WORD.fullmatch(word.upper())):
        shown = repr(word[:40] if isinstance(word, (bytes, str)) else word)[:40]
        raise ListFormatError(path, f"its words table holds {shown}, not a word of 2-15 "
                              "letters A-Z")
    return word.upper()
