"""Journal: open a journal file; record each adjudication, committed before it is shown."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any, TextIO

from adjudicator.errors import JournalError, JournalLockedError
from adjudicator.journal import anchor, chain, db, outbox
from adjudicator.journal.held import ABANDONED, HeldFile
from adjudicator.journal.settle import AfterCommit
from adjudicator.journal.export import parse_since, query, write
from adjudicator.journal.flags import DEFAULT_SPLIT_WINDOW, flags_for
from adjudicator.journal.rows import MODES, PRINT_STATUSES, SELECT_ROWS, JournalRow, row_from_sql, to_utc_text

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def _text(value: Any) -> str | None:
    if value is None:
        return None
    value = getattr(value, "value", value)  # ChallengeRule and other str enums
    text = str(value).strip()
    return text or None


def normalise_mode(mode: str) -> str:
    """One of MODES; the config's "smart-device" spelling is accepted too."""
    wanted = str(mode).strip().lower().replace("-", " ").replace("_", " ")
    if wanted not in MODES:
        raise JournalError(f"mode {mode!r} is not one of: {', '.join(MODES)}")
    return wanted


class Seq(int):
    """A recorded row's number, carrying its chain hash (.hash; .short as printed on a slip)."""

    hash: str

    def __new__(cls, seq: int, hash_: str) -> Seq:
        made = super().__new__(cls, seq)
        made.hash = hash_
        return made

    @property
    def short(self) -> str:
        return anchor.short_hash(self.hash)


class Journal(HeldFile, AfterCommit):
    """One journal file. Thread-safe: the kiosk may record from a worker and read from the UI."""

    def __init__(self, conn: sqlite3.Connection, path: str, split_window: float, clock: Clock,
                 patience: float | None = None):
        self._conn: sqlite3.Connection | None = conn
        self.path = path
        self.split_window = float(split_window)
        self._clock = clock
        self._lock = threading.RLock()
        self._id: str | None = None
        self.patience = db.LOCK_PATIENCE if patience is None else patience  # seconds a write retries while another program holds a lock
        self._outbox = False  # rows also queued for the hub (outbox.py)
        self._held = db.identity(path)  # the file opened: still it at each use (check())
        self._wal: tuple[int, int] | None = None  # its -wal, as the last write left it
        self.head: anchor.Head | None = None  # the last row recorded here, once one is

    @classmethod
    def open(cls, path: str | None = None, *, split_window: float = DEFAULT_SPLIT_WINDOW,
             clock: Clock | None = None, timeout: float | None = None) -> Journal:
        """Open PATH (default: $ADJUDICATOR_JOURNAL or the user data dir), creating it when new.

        TIMEOUT: seconds to keep retrying, at open and at each write, while another program
        holds the journal locked; only then is it "locked by another program".
        """
        path = str(path) if path else db.default_journal_path()
        timeout = db.LOCK_PATIENCE if timeout is None else timeout
        return cls(db.connect_rw(path, timeout), path, split_window, clock or utc_now, timeout)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextlib.contextmanager
    def waiting_at_most(self, seconds: float):
        """Within the block, a write waits at most SECONDS (0: not at all) for a lock another
        program holds, then JournalLockedError; the journal's own wait again after it. A
        station tries once without waiting, so that a locked journal is said on screen
        before it is waited for (issue 36)."""
        with self._lock:
            patience = self.patience
            conn = self.conn
            conn.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
            self.patience = seconds
            try:
                yield self
            finally:
                self.patience = patience
                if self._conn is not None:
                    conn.execute(f"PRAGMA busy_timeout = "
                                 f"{int(min(patience, db.BUSY_TIMEOUT) * 1000)}")

    def close(self) -> None:
        with self._lock:
            self.settle()  # a row committed with settle_later: its head file and checkpoint
            if self._conn is not None:
                conn, self._conn = self._conn, None
                if db.unwritable(self.path):  # closing writes the -shm's map: a SIGBUS
                    ABANDONED.append(conn)  # kept, never touched again
                    return
                conn.close()

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError(f"the journal {self.path} is closed")
        return self._conn

    # -- writing ---------------------------------------------------------------------------

    def record(self, verdict, *, station: str, mode: str, rule: str | None = None,
               table: str | None = None, round: str | None = None,
               recheck_of: int | None = None, secondary_agrees: bool | None = None,
               split_window: float | None = None, event_version: int | None = None
               ) -> Seq:
        """Write and commit one adjudication; returns its seq (with .hash). JournalError on any failure.

        Call it BEFORE the verdict is shown; if it raises, show the verdict anyway with
        "NOT RECORDED: call the director".
        """
        return self.record_many([(verdict, dict(
            station=station, mode=mode, rule=rule, table=table, round=round,
            recheck_of=recheck_of, secondary_agrees=secondary_agrees,
            split_window=split_window, event_version=event_version))])[0]

    def record_many(self, items: Iterable[tuple[Any, Mapping[str, Any]]]) -> list[Seq]:
        """Record several adjudications in ONE transaction (batch judging); all or none.

        Each number returned is a Seq: an int whose .hash is the row's hash (for the slip).
        """
        try:
            prepared = [self._prepare(verdict, **kwargs) for verdict, kwargs in items]
        except (AttributeError, TypeError, ValueError) as e:  # a caller's mistake, said plainly
            raise JournalError(f"cannot record this challenge: {e}") from e
        return [Seq(seq, hash_) for seq, hash_ in self._append_rows(prepared)]

    def _prepare(self, verdict, *, station: str, mode: str, rule=None, table=None, round=None,
                 recheck_of=None, secondary_agrees=None, split_window=None,
                 event_version=None) -> dict:
        station_name = _text(station)
        if station_name is None:
            raise JournalError("a station name is needed to record a challenge")
        words = tuple(verdict.words)
        if not words or not all(w.isascii() and w.isalpha() and w.isupper() for w in words):
            raise JournalError(f"not a judged play: {' '.join(map(str, words))!r}")
        return {
            "station": station_name, "mode": normalise_mode(mode),
            "game_table": _text(table), "round": _text(round), "words": " ".join(words),
            "acceptable": 1 if verdict.acceptable else 0,
            "lexicon_name": str(verdict.lexicon.name),
            "fingerprint": str(verdict.lexicon.fingerprint), "rule": _text(rule),
            "recheck_of": None if recheck_of is None else int(recheck_of),
            "secondary_agrees": None if secondary_agrees is None else int(bool(secondary_agrees)),
            "origin_journal": None, "origin_seq": None,
            "_window": self.split_window if split_window is None else float(split_window),
            "_event_version": int(event_version) if event_version else None,  # outbox only
        }

    def _append(self, rows: Sequence[dict], *, keep_times: bool = False,
                keep_flags: bool = False) -> list[int]:
        """Chain and insert ROWS in one IMMEDIATE transaction; merge passes times and flags."""
        return [seq for seq, _ in self._append_rows(rows, keep_times=keep_times,
                                                    keep_flags=keep_flags)]

    def _append_rows(self, rows: Sequence[dict], *, keep_times: bool = False,
                     keep_flags: bool = False) -> list[tuple[int, str]]:
        done = self._write(lambda conn: self._insert_all(conn, rows, keep_times, keep_flags),
                           checkpoint=False)
        if done:
            self._committed(*done[-1], later=self.settle_later)
        return done

    def _write(self, body: Callable[[sqlite3.Connection], Any], checkpoint: bool = True) -> Any:
        """BODY(conn) in one IMMEDIATE transaction under the lock: committed whole or rolled back
        whole; run again while another program holds the journal locked (up to .patience)."""
        with self._lock:
            conn = self.conn
            self.check()

            def attempt():
                conn.execute("BEGIN IMMEDIATE")
                try:
                    result = body(conn)
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
                return result

            try:
                result = db.retrying(attempt, self.patience)
            except sqlite3.Error as e:
                error = JournalLockedError if db.is_locked(e) else JournalError
                raise error(db.explain(e, self.path)) from e
            if checkpoint:
                db.checkpoint(conn)
            self._wal = db.identity(self.path + "-wal")
            return result

    def _insert_all(self, conn, rows, keep_times: bool, keep_flags: bool
                    ) -> list[tuple[int, str]]:
        head = db.meta(conn)
        seq, prev = int(head["head_seq"]), head["head_hash"]
        if seq == 0 and rows:
            prev = self._start_chain(conn, head, rows[0]["station"])
        seqs = []
        if not self._outbox:  # asked at every write until yes: enable() may come from elsewhere
            self._outbox = outbox.present(conn)
        for given in rows:
            row = {k: v for k, v in given.items() if not k.startswith("_")}
            if not keep_times:
                now = self._clock().astimezone(timezone.utc)
                row["time_utc"] = now.isoformat(timespec="microseconds")
                row["time_local"] = now.astimezone().isoformat(timespec="microseconds")
            if not keep_flags:
                row["flags"] = json.dumps(list(flags_for(
                    conn, station=row["station"], table=row["game_table"],
                    recheck_of=row["recheck_of"], acceptable=bool(row["acceptable"]),
                    now_utc=datetime.fromisoformat(row["time_utc"]),
                    split_window=given.get("_window", self.split_window))))
            seq += 1
            row["seq"], row["prev_hash"] = seq, prev
            row["hash"] = prev = chain.link(prev, row)
            columns = chain.CHAIN_COLUMNS
            conn.execute(f"INSERT INTO challenges ({', '.join(columns)}) VALUES "
                         f"({', '.join('?' * len(columns))})", [row[c] for c in columns])
            if self._outbox:  # queued for the hub in this same transaction
                outbox.add(conn, row, given.get("_event_version"))
            seqs.append((seq, prev))
        conn.executemany("UPDATE meta SET value = ? WHERE key = ?",
                         [(str(seq), "head_seq"), (prev, "head_hash")])
        return seqs

    def _start_chain(self, conn, head: Mapping[str, str], station: str) -> str:
        """Before row 1: fix the journal's id (a fresh one: copies of one empty file differ)
        and station name (unless already set, as merge does), and return the genesis that
        chains both (chain.py). Older journals (no "chain" in meta) keep theirs as they were."""
        if head.get("chain") != chain.CHAIN_VERSION:
            conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('station', ?)",
                         (station,))
            return head["head_hash"]
        import uuid

        station = head.get("station", station)
        fixed = {"journal_id": uuid.uuid4().hex, "station": station}
        conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                         list(fixed.items()))
        self._id = None
        return chain.genesis(fixed["journal_id"], station)

    def set_print_status(self, seq: int, status: str, reason: str = "") -> None:
        """Note what the docket printer did with challenge SEQ (outside the hash chain)."""
        if status not in PRINT_STATUSES:
            raise JournalError(f"print status {status!r} is not one of: "
                               f"{', '.join(PRINT_STATUSES)}")
        def note(conn) -> None:
            if conn.execute("SELECT 1 FROM challenges WHERE seq = ?", (seq,)).fetchone() is None:
                raise JournalError(f"no challenge {seq} in the journal {self.path}")
            conn.execute("INSERT INTO print_log (seq, status, reason, time_utc) "
                         "VALUES (?, ?, ?, ?)", (seq, status, str(reason),
                         self._clock().astimezone(timezone.utc).isoformat()))

        self._write(note)

    def note_event(self, event: str, detail: str = "") -> None:
        """Note what happened to the station itself (a kiosk restarted...): outside the chain.

        The table is made on the first note, so a journal with no event has none.
        """
        def note(conn) -> None:
            conn.execute("CREATE TABLE IF NOT EXISTS station_events (id INTEGER PRIMARY KEY, "
                         "event TEXT NOT NULL, detail TEXT NOT NULL, time_utc TEXT NOT NULL)")
            conn.execute("INSERT INTO station_events (event, detail, time_utc) VALUES (?, ?, ?)",
                         (event, detail, self._clock().astimezone(timezone.utc).isoformat()))

        self._write(note)

    def events(self) -> list[tuple[str, str, str]]:
        """Every station event noted: (event, detail, time_utc), oldest first."""
        if not self._query("SELECT 1 FROM sqlite_master WHERE name = 'station_events'"):
            return []
        return [tuple(r) for r in self._query(
            "SELECT event, detail, time_utc FROM station_events ORDER BY id")]

    def forward(self) -> int:
        """Queue every row for the director's hub from now on (outbox.py); rows already here
        are queued too. Returns how many were queued now."""
        with self._lock:
            self.check()
            try:
                queued = db.retrying(lambda: outbox.enable(self.conn), self.patience)
            except sqlite3.Error as e:
                raise JournalError(db.explain(e, self.path)) from e
            self._outbox = True
            return queued

    # -- reading ---------------------------------------------------------------------------

    def _query(self, sql: str, params: Sequence = ()) -> list:
        with self._lock:
            conn = self.conn
            self.check()
            try:
                return conn.execute(sql, params).fetchall()
            except sqlite3.Error as e:
                raise JournalError(db.explain(e, self.path)) from e

    def slip_printed(self, seq: int) -> bool:
        """True once a slip of challenge SEQ came out of the printer (whatever happened since):
        only then is another slip of it a REPRINT."""
        return bool(self._query(
            "SELECT 1 FROM print_log WHERE seq = ? AND status IN ('printed', 'reprinted') "
            "LIMIT 1", (seq,)))

    def get(self, seq: int) -> JournalRow:
        found = self._query(SELECT_ROWS + " WHERE c.seq = ?", (seq,))
        if not found:
            raise JournalError(f"no challenge {seq} in the journal {self.path}")
        return row_from_sql(found[0])

    def recent(self, n: int = 20) -> list[JournalRow]:
        """The last N challenges, newest first, with flags and print status."""
        return [row_from_sql(r) for r in
                self._query(SELECT_ROWS + " ORDER BY c.seq DESC LIMIT ?", (int(n),))]

    def rows(self, since: int | str | None = None) -> Iterator[JournalRow]:
        """All rows in seq order; since: after seq N (int) or at/after an ISO time (str)."""
        sql, params = SELECT_ROWS, ()
        if isinstance(since, int):
            sql, params = sql + " WHERE c.seq > ?", (since,)
        elif since is not None:
            sql, params = sql + " WHERE c.time_utc >= ?", (to_utc_text(since),)
        return iter([row_from_sql(r) for r in self._query(sql + " ORDER BY c.seq", params)])

    def count(self) -> int:
        return self._query("SELECT count(*) FROM challenges")[0][0]

    def counts_per_hour(self) -> list[tuple[str, int]]:
        """Challenges per local hour, oldest first, e.g. [("2026-11-22 14:00", 12), ...]."""
        found = self._query("SELECT substr(time_local, 1, 13) AS h, count(*) FROM challenges "
                            "GROUP BY h ORDER BY h")
        return [(h.replace("T", " ") + ":00", n) for h, n in found]

    def export(self, fmt: str = "csv", since: int | str | None = None,
               out: TextIO | None = None):
        """The rows as CSV or JSON for the director (see export.py); flags included. Streamed
        to OUT (returns the row count), else returned as text."""
        since = parse_since(since) if isinstance(since, str) else since
        buffer = io.StringIO() if out is None else out
        with self._lock:
            self.check()
            try:
                count = write(self.conn.execute(*query(since)), fmt, buffer)
            except sqlite3.Error as e:
                raise JournalError(db.explain(e, self.path)) from e
        return buffer.getvalue() if out is None else count

    def journal_id(self) -> str:
        return self._query("SELECT value FROM meta WHERE key = 'journal_id'")[0][0]

    def verify(self) -> chain.ChainReport:
        """Check this journal's chain (see chain.py); never raises for a broken chain."""
        with self._lock:
            self.check()
            try:
                return chain.check_connection(self.conn, self.path)
            except sqlite3.Error as e:
                raise JournalError(db.explain(e, self.path)) from e
