"""The challenge journal: a durable, tamper-evident SQLite record of every adjudication.

Written before a verdict is shown (WAL, synchronous=FULL); one row per adjudication with the words
and ONE collective verdict; a SHA-256 hash chain (chain.py says exactly what is hashed); flags for
the director (flags.py); export (export.py) and merge of station journals (merge.py).
"""

import io
import sqlite3
from typing import TextIO

from adjudicator.errors import JournalError
from adjudicator.journal import anchor, chain, db
from adjudicator.journal.chain import ChainBroken, ChainReport
from adjudicator.journal.db import default_journal_path
from adjudicator.journal.export import accepted_journals, hub_history, parse_since, query, render, write
from adjudicator.journal.flags import DEFAULT_SPLIT_WINDOW, RECHECKS_DIFFER, SPLIT_LOOKUP
from adjudicator.journal.rows import MODES, PRINT_STATUSES, JournalRow
from adjudicator.journal.store import Journal


def verify(path: str | None = None, slips: dict[int, str] | None = None) -> ChainReport:
    """Check the chain of the journal at PATH (read-only; never writes a byte).

    The chain is checked against its anchors outside the file: the head file beside it (the
    last row recorded, anchor.py) and SLIPS ({number: hash prefix} typed from result slips).
    Returns a ChainReport (.intact, .broken_row, .reason, .missing, .describe()); JournalError
    when the file is missing, unreadable or not a journal. raise_if_broken() raises ChainBroken.
    """
    return anchor.verify_file(str(path) if path else default_journal_path(), slips)


def export_journal(path: str | None, fmt: str, since: str | int | None = None,
                   out: TextIO | None = None):
    """Read the journal at PATH read-only and export it (export.py): streamed to OUT (returns
    the number of rows), or returned as text when OUT is None. Memory stays small either way
    for OUT; since: see parse_since()."""
    path = str(path) if path else db.default_journal_path()
    if isinstance(since, str):
        since = parse_since(since)
    buffer = io.StringIO() if out is None else out
    conn = db.connect_ro(path)
    try:
        conn.execute("BEGIN")  # one snapshot while a station keeps recording
        count = write(conn.execute(*query(since)), fmt, buffer, accepted_journals(conn),
                      hub_history(conn))
        conn.execute("COMMIT")
    except sqlite3.Error as e:
        raise JournalError(db.explain(e, path)) from e
    finally:
        conn.close()
    return buffer.getvalue() if out is None else count


def export_verified(path: str | None, fmt: str, since: str | int | None,
                    out: TextIO) -> tuple[int, ChainReport]:
    """Export to OUT (see export_journal) and check the whole journal's chain: in the same read
    when every row is exported; (rows written, ChainReport as verify() gives it)."""
    path = str(path) if path else db.default_journal_path()
    if isinstance(since, str):
        since = parse_since(since)
    if since is None:
        return anchor.export_checked(path, fmt, out)
    count = export_journal(path, fmt, since, out)
    return count, verify(path)


__all__ = [
    "Journal", "JournalRow", "MODES", "PRINT_STATUSES", "ChainBroken", "ChainReport",
    "DEFAULT_SPLIT_WINDOW", "SPLIT_LOOKUP", "RECHECKS_DIFFER", "default_journal_path", "verify",
    "export_journal", "export_verified",
]
