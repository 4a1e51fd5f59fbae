"""The journal file a Journal holds: still the one at its path and writable (issue 42), its last
row, let go when lost, and a new file made the continuation of a lost one (successor.py)."""

from __future__ import annotations

import contextlib
import os
import sqlite3

from adjudicator.errors import JournalError, JournalLostError, JournalUnwritableError
from adjudicator.journal import anchor, chain, db

ABANDONED: list = []  # connections to files made unwritable: closing one would be a SIGBUS


class HeldFile:
    """For Journal (path, conn, _lock, _held, _wal, head, _id, _write, _query, close)."""

    def check(self) -> None:
        """Before SQLite touches the files: JournalLostError when the file at the path is no
        longer the one opened (deleted, replaced, a folder), JournalError when they cannot be
        written now (read-only, immutable: a write into the -shm's memory map would be a
        SIGBUS). Nothing is written or read meanwhile; once they can be, the same connection
        goes on (issue 42)."""
        gone = db.lost(self.path, self._held)
        if gone:
            raise JournalLostError(gone)
        problem = db.unwritable(self.path)
        if problem:
            raise JournalUnwritableError(problem)

    def let_go(self) -> None:
        """Closed, its file lost (check() said so): the -wal and -shm it left at the path,
        which would be read into any file put there (its rows replayed into another journal),
        are moved aside (JOURNAL-wal.lost) unless they are another program's by now."""
        self.close()
        wal = self.path + "-wal"
        if self._wal is not None and db.identity(wal) == self._wal:
            with contextlib.suppress(OSError):
                os.replace(wal, wal + ".lost")
            with contextlib.suppress(OSError):
                os.unlink(self.path + "-shm")

    def last_head(self) -> anchor.Head | None:
        """The journal's id, last row and its hash as this process last knew them (read from
        the file it holds, even one deleted under it); None when it has no row or cannot say."""
        if self.head is None and not db.unwritable(self.path):
            try:
                with self._lock:
                    info = db.meta(self.conn)
                if int(info.get("head_seq", "0")):
                    self.head = anchor.Head(info["journal_id"], int(info["head_seq"]),
                                            info["head_hash"])
            except (sqlite3.Error, JournalError, KeyError, ValueError):
                return None
        return self.head

    def continue_from(self, head: anchor.Head, station: str, key: str) -> None:
        """This new, empty journal made the continuation of the one HEAD ends (successor.py):
        its id, numbering and chain go on from HEAD; meta KEY says which rows it lacks."""
        def take(conn) -> None:
            if int(db.meta(conn)["head_seq"]):
                raise JournalError(f"{self.path} holds challenges already")
            conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [
                ("journal_id", head.journal_id), ("head_seq", str(head.seq)),
                ("head_hash", head.hash), ("station", station), (key, str(head.seq))])
            conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('chain', ?)",
                         (chain.CHAIN_VERSION,))

        self._write(take)
        self._id, self.head = head.journal_id, head

    def meta(self) -> dict[str, str]:
        return dict(self._query("SELECT key, value FROM meta"))

