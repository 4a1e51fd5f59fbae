"""A journal's SQLite file: where it lives, its schema and pragmas, and plain words for failures."""

from __future__ import annotations

import os
import re
import sqlite3
from urllib.parse import quote

from adjudicator.config.station import default_journal_path  # noqa: F401  (one definition, re-exported)
from adjudicator.files.destination import check_journal
from adjudicator.errors import FileAccessError, JournalError, JournalFileError

FORMAT = "adjudicator-journal"
SCHEMA_VERSION = 1
BUSY_TIMEOUT = 2.0  # seconds SQLite itself waits for a lock, per attempt
LOCK_PATIENCE = 120.0  # seconds a write keeps retrying a locked journal before "locked"


def is_locked(error: BaseException) -> bool:
    """A lock held by another program (wait and retry), as opposed to a failing disk."""
    low = str(error).lower()
    return isinstance(error, sqlite3.OperationalError) and ("locked" in low or "busy" in low)


def retrying(action, patience: float):
    """ACTION() again and again while another program holds the lock, for PATIENCE seconds.

    Any other error (disk full, read-only, I/O) is raised at once: only those become
    NOT RECORDED without waiting.
    """
    import time

    deadline = time.monotonic() + patience
    pause = 0.01
    while True:
        try:
            return action()
        except sqlite3.OperationalError as e:
            if not is_locked(e) or time.monotonic() >= deadline:
                raise
        time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
        pause = min(pause * 2, 0.25)

# Every column of a challenge row. The ones in chain.HASHED_COLUMNS are covered by the hash
# chain; prev_hash and hash are the chain itself. Print status is NOT here: it changes after the
# row is written, so it lives in print_log (outside the chain) and never breaks verification.
SCHEMA = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE challenges (
    seq              INTEGER PRIMARY KEY,   -- 1, 2, 3 ... in recording order; the row number
    time_utc         TEXT NOT NULL,         -- ISO 8601, microseconds, +00:00
    time_local       TEXT NOT NULL,         -- the same instant in the station's local time
    station          TEXT NOT NULL,
    mode             TEXT NOT NULL,         -- one of MODES
    game_table       TEXT,                  -- table when known
    round            TEXT,                  -- round when known
    words            TEXT NOT NULL,         -- the words as judged, upper case, one space apart
    acceptable       INTEGER NOT NULL,      -- the ONE collective verdict: 1 or 0
    lexicon_name     TEXT NOT NULL,
    fingerprint      TEXT NOT NULL,
    rule             TEXT,                  -- challenge rule (WESPA 3.10.13) when known
    recheck_of       INTEGER,               -- seq of the challenge this one rechecks
    secondary_agrees INTEGER,               -- 1/0 when a secondary lexicon was asked, else NULL
    flags            TEXT NOT NULL,         -- JSON array of director's flags
    origin_journal   TEXT,                  -- merged journals: id of the station journal
    origin_seq       INTEGER,               -- merged journals: seq in the station journal
    prev_hash        TEXT NOT NULL,
    hash             TEXT NOT NULL
);
CREATE INDEX challenges_station ON challenges (station, seq);
CREATE TABLE print_log (                    -- outside the chain: appended, never updated
    id       INTEGER PRIMARY KEY,
    seq      INTEGER NOT NULL,
    status   TEXT NOT NULL,                 -- printed | failed | reprinted
    reason   TEXT NOT NULL,
    time_utc TEXT NOT NULL
);
CREATE INDEX print_log_seq ON print_log (seq, id);
"""


def schema_statements() -> list[str]:
    """SCHEMA as single statements (executescript would commit the open transaction)."""
    bare = re.sub(r"--[^\n]*", "", SCHEMA)
    return [s.strip() for s in bare.split(";") if s.strip()]


def explain(error: BaseException, path: str) -> str:
    """One plain sentence for a director: what went wrong with the journal file at PATH."""
    text = str(error)
    low = text.lower()
    if "locked" in low or "busy" in low:
        return f"the journal {path} is locked by another program (close it and try again)"
    if "full" in low or getattr(error, "errno", None) == 28:
        return f"the disk holding the journal {path} is full"
    if "readonly" in low or "read-only" in low or getattr(error, "errno", None) in (13, 30):
        return f"the journal {path} cannot be written (read-only file, folder or disk)"
    if "unable to open" in low or isinstance(error, OSError):
        return f"cannot open the journal {path}: folder missing or not writable ({text})"
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return f"{path} is not a journal, or it is damaged ({text})"
    if "disk i/o" in low:
        return f"disk error on the journal {path}"
    return f"journal {path}: {text}"


def connect_rw(path: str, timeout: float | None = None) -> sqlite3.Connection:
    """Open (creating folders, file and schema when new) for writing: WAL, synchronous=FULL.

    TIMEOUT: how long to keep retrying while another program holds the journal locked.
    """
    timeout = LOCK_PATIENCE if timeout is None else timeout
    try:
        check_journal(path)  # a folder, a device, its folder not there: exit 4
    except FileAccessError as e:
        raise JournalFileError(str(e)) from None
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)  # only the default journal's (check_journal)
    except OSError as e:
        if e.errno in (13, 30):
            raise JournalError(explain(e, path)) from e
        raise JournalError(f"cannot create the folder for the journal {path}: "
                           f"{e.strerror or e}") from e
    if os.path.isfile(path) and os.path.getsize(path) > 0:
        # a foreign file is refused before anything is written
        try:
            retrying(lambda: _refuse_foreign(path, min(timeout, BUSY_TIMEOUT)), timeout)
        except sqlite3.Error as e:
            raise JournalError(explain(e, path)) from e
    conn = None
    try:
        conn = sqlite3.connect(path, timeout=min(timeout, BUSY_TIMEOUT), isolation_level=None,
                               check_same_thread=False)
        mode = retrying(lambda: conn.execute("PRAGMA journal_mode=WAL").fetchone()[0], timeout)
        if str(mode).lower() != "wal":
            raise JournalError(f"the journal {path} cannot use WAL mode (got {mode!r})")
        conn.execute("PRAGMA synchronous=FULL")
        retrying(lambda: _ensure_schema(conn, path), timeout)
        return conn
    except sqlite3.Error as e:
        if conn is not None:
            conn.close()
        raise JournalError(explain(e, path)) from e
    except JournalError:
        if conn is not None:
            conn.close()
        raise


def connect_ro(path: str, timeout: float = BUSY_TIMEOUT) -> sqlite3.Connection:
    """Open an existing journal read-only (verify, export, merge inputs); never writes a byte.

    A live journal (its -wal beside it, in a folder we may write) is opened mode=ro, so rows
    still in the -wal are read. Otherwise (no -wal: the journal is closed; or read-only media,
    where SQLite could not create its -shm) it is opened immutable: nothing at all is created
    or changed. `wal_unread(path)` says when a -wal was there but could not be read.
    """
    uri = ro_uri(path)
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None,
                               check_same_thread=False)
    except sqlite3.Error as e:
        raise JournalError(explain(e, path)) from e
    try:
        _check_format(conn, path)
    except sqlite3.Error as e:
        conn.close()
        raise JournalError(explain(e, path)) from e
    except JournalError:
        conn.close()
        raise
    return conn


def _refuse_foreign(path: str, timeout: float) -> None:
    """JournalError when PATH holds another program's SQLite data (read-only look). A file with
    no table yet is not foreign: another writer has just created it and is adding the schema."""
    try:
        conn = sqlite3.connect(ro_uri(path), uri=True, timeout=timeout, isolation_level=None)
    except sqlite3.Error as e:
        raise JournalError(explain(e, path)) from e
    try:
        if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            _check_format(conn, path)
    except sqlite3.OperationalError as e:
        if is_locked(e):
            raise
        raise JournalError(explain(e, path)) from e
    except sqlite3.Error as e:
        raise JournalError(explain(e, path)) from e
    finally:
        conn.close()


def ro_uri(path: str) -> str:
    """The URI connect_ro opens PATH with (also for ATTACH): mode=ro, or immutable (see there)."""
    if not os.path.isfile(path):
        raise JournalFileError(f"no journal at {path}")
    full = os.path.abspath(path)
    live = os.path.exists(full + "-wal") and os.access(os.path.dirname(full), os.W_OK)
    return "file:" + quote(full) + ("?mode=ro" if live else "?mode=ro&immutable=1")


def wal_unread(path: str) -> str:
    """A note when connect_ro(PATH) cannot read the -wal beside it (read-only folder), else ""."""
    full = os.path.abspath(path)
    wal = full + "-wal"
    if (not os.access(os.path.dirname(full), os.W_OK) and os.path.isfile(wal)
            and os.path.getsize(wal) > 0):
        return (f"{path}-wal is beside it but its folder is read-only, so rows in it were not "
                "read; copy both files to a writable folder and verify again")
    return ""


def identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the file at PATH, or None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def lost(path: str, held: tuple[int, int] | None) -> str:
    """Why the file at PATH is no longer the journal file HELD (its identity at open): deleted,
    a folder, another file; "" while it is the same file (issue 42: verdicts were numbered
    and written into a deleted file, and lost)."""
    import stat

    try:
        st = os.stat(path)
    except FileNotFoundError:
        return f"the journal {path} was deleted while the station ran"
    except OSError as e:
        return f"the journal {path} cannot be reached ({e.strerror or e})"
    if stat.S_ISDIR(st.st_mode):
        return f"the journal {path} was replaced by a folder while the station ran"
    if held is not None and (st.st_dev, st.st_ino) != held:
        return f"the journal {path} was replaced by another file while the station ran"
    return ""


def unwritable(path: str) -> str:
    """Why the journal's files at PATH cannot be written now (read-only, immutable), else "".

    Asked before SQLite touches them: its -shm is memory-mapped, and a write into the map of a
    file made immutable (`chattr +i`) kills the process with SIGBUS (issue 42), where a write()
    would only fail. access() says no for an immutable file even to root.
    """
    for name in (path, path + "-wal", path + "-shm"):
        if os.path.exists(name) and not os.access(name, os.W_OK):
            return (f"the journal {path} cannot be written ({os.path.basename(name)} is "
                    "read-only or immutable)")
    return ""


def checkpoint(conn: sqlite3.Connection) -> None:
    """Copy committed rows from the -wal into the main file now (PASSIVE: never waits).

    At a station's write rate this keeps the .db complete after every commit, so a copy of the
    .db alone (its -wal left behind) still holds every row. A reader holding an older snapshot
    can leave the newest rows in the -wal for a while; the head file (anchor.py) shows that.
    """
    try:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    except sqlite3.Error:
        pass  # the rows are committed in the -wal; the next checkpoint copies them


def _ensure_schema(conn: sqlite3.Connection, path: str) -> None:
    if conn.execute("PRAGMA user_version").fetchone()[0] != 0:
        _check_format(conn, path)
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] == 0:  # nobody beat us to it
            if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise JournalError(f"{path} is an SQLite file but not an adjudicator journal")
            import uuid  # only when a journal is created

            for statement in schema_statements():
                conn.execute(statement)
            conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [
                ("format", FORMAT), ("schema", str(SCHEMA_VERSION)),
                ("journal_id", uuid.uuid4().hex), ("head_seq", "0"), ("head_hash", "0" * 64),
                ("chain", "2"),  # chain.CHAIN_VERSION: the genesis covers id and station
            ])
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _check_format(conn: sqlite3.Connection, path: str) -> None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key='format'").fetchone()
    except sqlite3.OperationalError as e:
        if "no such table" in str(e):
            raise JournalError(f"{path} is not an adjudicator journal") from e
        raise
    if row is None or row[0] != FORMAT:
        raise JournalError(f"{path} is not an adjudicator journal")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version != SCHEMA_VERSION:
        raise JournalError(f"{path} is a journal of schema {version}; this program reads "
                           f"schema {SCHEMA_VERSION}")


def meta(conn: sqlite3.Connection) -> dict[str, str]:
    """The journal's meta table: format, schema, journal_id, station, head_seq, head_hash..."""
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())
