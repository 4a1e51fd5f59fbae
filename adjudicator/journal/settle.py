"""After a commit of rows: the head file moved forward and the rows checkpointed into the main
file, at once, or once the verdict is on screen for a station that asks (settle_later).

The row is durable at its commit (WAL, synchronous=FULL: the -wal is synced): that is what a
verdict waits for before it is shown. The head file (anchor.py, written and synced) and the
checkpoint (the -wal synced again, then the main file) were two more syncs on the way to the
screen; a station that shows verdicts does them after the paint (kiosk/app.py), where a disk
slowed by other work no longer holds the verdict back. Meanwhile the head file lags by the rows
not settled, as it may anyway (anchor.py: never ahead of the journal), and the newest rows are
in the -wal, which the journal opened again reads: a kill in between loses nothing.
"""

from __future__ import annotations

import sqlite3

from adjudicator.errors import JournalError
from adjudicator.journal import anchor, db


class AfterCommit:
    """For Journal (path, conn, _conn, _lock, _id, head, check): what follows each commit."""

    settle_later = False  # set by a station that shows each verdict: settle() after the paint
    _unsettled: tuple[int, str] | None = None  # the last row committed and not settled yet

    def _committed(self, seq: int, hash_: str, *, later: bool = False) -> None:
        """Row SEQ (chain hash HASH_) is committed: known as the head now, its head file and
        checkpoint done now, or at settle() when LATER."""
        if not later:
            self._anchor(seq, hash_)
            return
        with self._lock:
            self._know_head(seq, hash_)
            self._unsettled = (seq, hash_)  # a newer row supersedes an older one not settled

    def settle(self) -> None:
        """The head file and checkpoint of the last row committed with settle_later, if not
        done yet. Not where the file at the path is no longer this journal, or cannot be
        written (a write into the -shm's map of an immutable file is a SIGBUS: held.py):
        nothing is written beside a lost journal, and the next commit checkpoints."""
        with self._lock:
            pending, self._unsettled = self._unsettled, None
            if pending is None or self._conn is None:
                return
            try:
                self.check()
            except JournalError:
                return
            self._anchor(*pending)

    def _know_head(self, seq: int, hash_: str) -> None:
        """The last row recorded here, as last_head() says it (in memory, nothing written)."""
        with self._lock:
            try:
                if self._id is None:
                    self._id = db.meta(self.conn)["journal_id"]
                self.head = anchor.Head(self._id, seq, hash_)
            except (sqlite3.Error, KeyError, JournalError):
                pass

    def _anchor(self, seq: int, hash_: str) -> None:
        """After the commit: the head file forward, then the rows into the main file."""
        self._know_head(seq, hash_)
        with self._lock:
            try:
                if self._id is not None:
                    anchor.write_head(self.path, anchor.Head(self._id, seq, hash_))
            except OSError:
                pass  # committed already: verify says the head file lags, the row is safe
            db.checkpoint(self.conn)
