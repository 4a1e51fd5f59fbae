"""The station's key: 32 secret random bytes made at its first contact with a hub, in its journal.

It lives in the station journal's `link_key` table (outside the hash chain, like the outbox), so
the key goes wherever the journal goes: a restarted station, a kiosk that was killed, a
`journal push` from another terminal all sign as the same station, and a new journal (a new
station) gets a new key. The hub binds the key to the station's name and journal id on first
contact (docs/hub.md says what that protects against and what it does not).
"""

from __future__ import annotations

import secrets
import sqlite3
from urllib.parse import quote

TABLE = """CREATE TABLE IF NOT EXISTS link_key (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL  -- 64 hex digits; sent to the hub once, then only its HMACs
)"""


def ensure(conn: sqlite3.Connection) -> None:
    """Make the key when the journal open on CONN (writable, outside a transaction) has none."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(TABLE)
        conn.execute("INSERT OR IGNORE INTO link_key (id, secret) VALUES (1, ?)",
                     (secrets.token_hex(32),))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def read(conn: sqlite3.Connection) -> bytes:
    """The key of the journal open on CONN (ensure() made it)."""
    (secret,) = conn.execute("SELECT secret FROM link_key WHERE id = 1").fetchone()
    return bytes.fromhex(secret)


def of_journal(path: str) -> bytes | None:
    """The key of the station journal at PATH, read only (None when it has none yet: a station
    that never reached a hub, which no hub has accepted either)."""
    try:
        conn = sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True, timeout=5)
        try:
            return read(conn)
        finally:
            conn.close()
    except (sqlite3.Error, TypeError, ValueError):
        return None
