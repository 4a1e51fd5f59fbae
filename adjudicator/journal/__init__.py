"""The challenge journal: a durable, tamper-evident SQLite record of every adjudication.

Written before a verdict is shown (WAL, synchronous=FULL); one row per adjudication with the words
and ONE collective verdict; a SHA-256 hash chain (chain.py says exactly what is hashed); flags for
the director (flags.py); export (export.py) and merge of station journals (merge.py).
"""

import sqlite3

from ..errors import JournalError
from . import chain, db
from .chain import ChainBroken, ChainReport
from .db import default_journal_path
from .export import parse_since, render
from .flags import DEFAULT_SPLIT_WINDOW, RECHECKS_DIFFER, SPLIT_LOOKUP
from .rows import MODES, PRINT_STATUSES, JournalRow
from .store import Journal


def verify(path: str | None = None) -> ChainReport:
    """Check the chain of the journal at PATH (read-only; never creates a file).

    Returns a ChainReport (.intact, .broken_row, .reason, .describe()); JournalError when the
    file is missing, unreadable or not a journal. report.raise_if_broken() raises ChainBroken.
    """
    path = str(path) if path else default_journal_path()
    conn = db.connect_ro(path)
    try:
        return chain.check_connection(conn, path)
    except sqlite3.Error as e:
        raise JournalError(db.explain(e, path)) from e
    finally:
        conn.close()


def export_journal(path: str | None, fmt: str, since: str | int | None = None) -> str:
    """Read the journal at PATH read-only and render it; see render() and parse_since()."""
    path = str(path) if path else db.default_journal_path()
    if isinstance(since, str):
        since = parse_since(since)
    journal = Journal(db.connect_ro(path), path, 0, lambda: None)  # read-only: never records
    try:
        return render(journal.rows(since), fmt)
    finally:
        journal.close()


__all__ = [
    "Journal", "JournalRow", "MODES", "PRINT_STATUSES", "ChainBroken", "ChainReport",
    "DEFAULT_SPLIT_WINDOW", "SPLIT_LOOKUP", "RECHECKS_DIFFER", "default_journal_path", "verify",
    "export_journal",
]
