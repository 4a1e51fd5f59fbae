"""The outbox: each row to be sent to the director's hub, written in the journal row's transaction.

A journal forwards once its file holds the `outbox` table (enable() makes it, for a station whose
config names a `hub`). From then on Journal writes each new row's chained columns into the outbox
in the SAME transaction as the row itself: a row is recorded and queued for the hub, or neither.
The key is the station's identity (the journal's id, one per station journal) and the row's seq.

Nothing is deleted or marked here when the hub acknowledges: the hub keeps the highest sequence
it holds without gaps, and the sender asks it and resends from there (link/forward.py). So the
sender only ever reads this file and never competes with a verdict for the write lock. Rows
recorded before the outbox existed are filled in by enable() from the chained rows themselves.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping

from adjudicator.journal.chain import CHAIN_COLUMNS
from adjudicator.journal.db import meta

EVENT_VERSION = "event_version"  # beside a queued row's columns: the version it was judged under

TABLE = """CREATE TABLE IF NOT EXISTS outbox (
    seq     INTEGER PRIMARY KEY,  -- the row's seq in this journal (the journal id is the station)
    payload TEXT NOT NULL         -- the row's chained columns as JSON, exactly as hashed
)"""


def present(conn: sqlite3.Connection) -> bool:
    """True when the journal open on CONN forwards to a hub (its outbox table exists)."""
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox'"
                        ).fetchone() is not None


def add(conn: sqlite3.Connection, row: Mapping, event_version: int | None = None) -> None:
    """Queue ROW (all of chain.CHAIN_COLUMNS) inside the caller's open transaction; EVENT_VERSION:
    the hub's event version the station judged it under (sent beside the row, outside its
    chain: the hub decides what it makes of it, hub/audit.py)."""
    conn.execute("INSERT OR REPLACE INTO outbox (seq, payload) VALUES (?, ?)",
                 (row["seq"], encode(row, event_version)))


def encode(row: Mapping, event_version: int | None = None) -> str:
    payload = {c: row[c] for c in CHAIN_COLUMNS}
    if event_version:
        payload[EVENT_VERSION] = int(event_version)
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def enable(conn: sqlite3.Connection) -> int:
    """Create the outbox (when missing) and queue every row not in it yet; how many were queued.

    CONN: a writable connection outside any transaction (Journal.conn under its lock).
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(TABLE)
        last = conn.execute("SELECT coalesce(max(seq), 0) FROM outbox").fetchone()[0]
        cursor = conn.execute(f"SELECT {', '.join(CHAIN_COLUMNS)} FROM challenges "
                              "WHERE seq > ? ORDER BY seq", (last,))
        names = [d[0] for d in cursor.description]
        rows = [dict(zip(names, r)) for r in cursor.fetchall()]
        for row in rows:
            add(conn, row)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return len(rows)


def identity(conn: sqlite3.Connection) -> tuple[str, str, int]:
    """(journal id, station name, head seq) of the journal open on CONN."""
    info = meta(conn)
    return info["journal_id"], info.get("station", ""), int(info.get("head_seq", "0"))


def pending(conn: sqlite3.Connection, after: int, limit: int = 200) -> list[dict]:
    """The queued rows after seq AFTER, in order, at most LIMIT (each a dict of the columns)."""
    return [json.loads(p) for (p,) in conn.execute(
        "SELECT payload FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?", (after, limit))]


def last_queued(conn: sqlite3.Connection) -> int:
    """The highest seq in the outbox (0 when empty)."""
    return conn.execute("SELECT coalesce(max(seq), 0) FROM outbox").fetchone()[0]
