"""The challenge journal: a durable, tamper-evident SQLite record of every adjudication.

Written before a verdict is shown (WAL, synchronous=FULL); one row per adjudication with the words
and ONE collective verdict; a SHA-256 hash chain (chain.py says exactly what is hashed); flags for
the director (flags.py); export (export.py) and merge of station journals (merge.py).
"""

import sqlite3

from ..errors import JournalError
from . import anchor, chain, db
from .chain import ChainBroken, ChainReport
from .db import default_journal_path
from .export import parse_since, render
from .flags import DEFAULT_SPLIT_WINDOW, RECHECKS_DIFFER, SPLIT_LOOKUP
from .rows import MODES, PRINT_STATUSES, JournalRow
from .store import Journal


def verify(path: str | None = None, slips: dict[int, str] | None = None) -> ChainReport:
    """Check the chain of the journal at PATH (read-only; never writes a byte).

    The chain is checked against its anchors outside the file: the head file beside it (the
    last row recorded, anchor.py) and SLIPS ({number: hash prefix} typed from result slips).
    Returns a ChainReport (.intact, .broken_row, .reason, .missing, .describe()); JournalError
    when the file is missing, unreadable or not a journal. raise_if_broken() raises ChainBroken.
    """
    path = str(path) if path else default_journal_path()
    conn = db.connect_ro(path)
    try:
        anchors, notes = _anchors(conn, path, slips or {})
        notes.append(db.wal_unread(path))
        return chain.check_connection(conn, path, anchors).with_notes(*notes)
    except sqlite3.Error as e:
        raise JournalError(db.explain(e, path)) from e
    finally:
        conn.close()


def _anchors(conn, path: str, slips: dict[int, str]) -> tuple[dict, list[str]]:
    """{seq: (hash or prefix, where from)} from typed slips and the head file; notes."""
    anchors = {seq: (digits, f"the slip of challenge {seq}") for seq, digits in slips.items()}
    notes = []
    head = anchor.read_head(path)
    journal_id = db.meta(conn).get("journal_id")
    if head is None:
        notes.append(f"no head file ({anchor.head_path(path)}): rows recorded after the last "
                     "one in this file cannot be ruled out; `adjudicator journal backup` "
                     "copies both")
    elif head.journal_id != journal_id:
        notes.append(f"{anchor.head_path(path)} belongs to another journal: not used")
    elif head.seq not in anchors:
        anchors[head.seq] = (head.hash, f"the head file {anchor.head_path(path)}")
    return anchors, notes


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
