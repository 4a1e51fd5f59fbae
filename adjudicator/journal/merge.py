"""Merge station journals into one event journal: verify each, keep identity, time order.

Streamed through a scratch SQLite file beside the output (sorting and de-duplication happen on
disk), so memory stays small for any number of rows.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass

from adjudicator.files.destination import destination
from adjudicator.errors import JournalError, JournalFileError
from adjudicator.journal import anchor, chain, db
from adjudicator.journal.backup import remove_journal_files
from adjudicator.journal.store import Journal

CHUNK = 1000  # rows per transaction written to the merged journal

SCRATCH = """
CREATE TABLE staged (
    okey_j TEXT NOT NULL, okey_s INTEGER NOT NULL,  -- the row's identity: origin journal, seq
    time_utc TEXT, time_local TEXT, station TEXT, mode TEXT, game_table TEXT, round TEXT,
    words TEXT, acceptable INTEGER, lexicon_name TEXT, fingerprint TEXT, rule TEXT,
    recheck_j TEXT, recheck_s INTEGER, recheck_raw INTEGER, secondary_agrees INTEGER,
    flags TEXT, hash TEXT, src INTEGER, src_seq INTEGER,
    PRIMARY KEY (okey_j, okey_s));
CREATE INDEX staged_src ON staged (src, src_seq);
CREATE TABLE plog (src INTEGER, seq INTEGER, id INTEGER, status TEXT, reason TEXT, time_utc TEXT);
CREATE TABLE ordered (new_seq INTEGER PRIMARY KEY, okey_j TEXT, okey_s INTEGER)
"""

# A source row's identity: where it was first recorded (carried through earlier merges).
_KEY = "coalesce(c.origin_journal, :own), coalesce(c.origin_seq, c.seq)"

STAGE = f"""
INSERT OR IGNORE INTO staged SELECT {_KEY}, c.time_utc, c.time_local, c.station, c.mode,
    c.game_table, c.round, c.words, c.acceptable, c.lexicon_name, c.fingerprint, c.rule,
    CASE WHEN t.seq IS NULL THEN NULL ELSE coalesce(t.origin_journal, :own) END,
    coalesce(t.origin_seq, t.seq), c.recheck_of, c.secondary_agrees, c.flags, c.hash, :src, c.seq
FROM src.challenges c LEFT JOIN src.challenges t ON t.seq = c.recheck_of ORDER BY c.seq
"""

CLASH = f"""
SELECT c.seq, c.station, s.hash = c.hash OR (s.time_utc = c.time_utc AND s.station = c.station
       AND s.words = c.words AND s.acceptable = c.acceptable AND s.fingerprint = c.fingerprint)
FROM src.challenges c JOIN staged s ON (s.okey_j, s.okey_s) = ({_KEY})
"""

MERGED = """
SELECT s.time_utc, s.time_local, s.station, s.mode, s.game_table, s.round, s.words,
       s.acceptable, s.lexicon_name, s.fingerprint, s.rule,
       CASE WHEN s.recheck_j IS NULL THEN s.recheck_raw ELSE r.new_seq END,
       s.secondary_agrees, s.flags, s.okey_j, s.okey_s
FROM ordered o JOIN staged s ON (s.okey_j, s.okey_s) = (o.okey_j, o.okey_s)
LEFT JOIN ordered r ON (r.okey_j, r.okey_s) = (s.recheck_j, s.recheck_s)
ORDER BY o.new_seq
"""
MERGED_COLUMNS = ("time_utc", "time_local", "station", "mode", "game_table", "round", "words",
                  "acceptable", "lexicon_name", "fingerprint", "rule", "recheck_of",
                  "secondary_agrees", "flags", "origin_journal", "origin_seq")

PRINT_LOG = """
SELECT o.new_seq, p.status, p.reason, p.time_utc FROM plog p
JOIN staged s ON s.src = p.src AND s.src_seq = p.seq
JOIN ordered o ON (o.okey_j, o.okey_s) = (s.okey_j, s.okey_s) ORDER BY o.new_seq, p.id
"""


@dataclass(frozen=True)
class MergeReport:
    """What went into a merged journal."""

    out: str
    rows: int
    sources: tuple[tuple[str, str, int], ...]  # (file, station, rows read)
    duplicates: int
    notes: tuple[str, ...] = ()  # e.g. a journal whose id is not under its chain (older)


def merge(inputs: list[str], out: str, *, force: bool = False) -> MergeReport:
    """Merge INPUTS into a new journal OUT; refuses a broken chain, naming the file and row.

    Each merged row keeps its station, and its origin (journal id and seq in that journal) as
    columns; rows come in time order (UTC), then station, then original seq. recheck_of is
    renumbered to the merged seq. A row given twice (the same journal, or a later copy of it)
    is kept once. Merged journals may be merged again: origins are carried through.

    A row's identity is chained: its origin journal id (covered by the genesis of that
    journal's chain, see chain.py, or by the merged row's hash) and its seq there. Two rows
    with one identity must be the same challenge, else the merge is refused. Journals made
    before ids were chained are merged by the id their meta table holds, and a note says so:
    an edited id there can make one journal's rows count twice, never drop them.
    """
    if not inputs:
        raise JournalError("give at least one journal to merge")
    out_real = os.path.realpath(out)
    for path in inputs:
        if os.path.realpath(path) == out_real:
            raise JournalError(f"{out} is one of the journals being merged; choose another -o")
    target = destination(out)  # a symlink's target; a device, pipe or folder: exit 4
    if os.path.exists(target) and not force:
        raise JournalFileError(f"{out} already exists (use --force to replace it)")
    for path in inputs:  # every chain first: nothing is written for a broken one
        anchor.verify_file(path).raise_if_broken()

    tmp, scratch = target + ".merging", target + ".merging-scratch"
    remove_journal_files(tmp)
    journal = Journal.open(tmp)
    # a scratch file until it is complete and renamed: no fsync per chunk (see the end)
    journal.conn.execute("PRAGMA synchronous=OFF")
    work = None
    try:
        try:
            remove_journal_files(scratch)
            work = sqlite3.connect(scratch, isolation_level=None)
            work.execute("PRAGMA journal_mode=OFF")
            work.execute("PRAGMA synchronous=OFF")
            for statement in SCRATCH.split(";"):
                work.execute(statement)
            sources, duplicates, notes = _stage(work, inputs)
            work.execute("BEGIN")
            work.execute("INSERT INTO ordered (okey_j, okey_s) SELECT okey_j, okey_s "
                         "FROM staged ORDER BY time_utc, station, okey_s")
            work.execute("CREATE UNIQUE INDEX ordered_key ON ordered (okey_j, okey_s)")
            work.execute("COMMIT")
            _write_sources_meta(journal, sources)  # before row 1: its station is chained
            total = _write_rows(work, journal)
            _copy_print_log(work, journal)
            journal.conn.execute("PRAGMA synchronous=FULL")  # all of it on disk now, once
            journal.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error as e:
            raise JournalError(db.explain(e, out)) from e
        finally:
            if work is not None:
                work.close()
            remove_journal_files(scratch)
            journal.close()
    except BaseException:
        remove_journal_files(tmp)
        raise
    try:
        remove_journal_files(target, beside_only=True)
        os.replace(tmp, target)
        if os.path.exists(anchor.head_path(tmp)):
            os.replace(anchor.head_path(tmp), anchor.head_path(target))
    except OSError as e:
        remove_journal_files(tmp)
        raise JournalError(db.explain(e, out)) from e
    return MergeReport(out, total, tuple(sources), duplicates, tuple(notes))


def _stage(work: sqlite3.Connection, inputs: list[str]) -> tuple[list, int, list]:
    """Each source's rows into the scratch table, keyed by identity; (sources, duplicates,
    notes)."""
    sources, duplicates, notes = [], 0, []
    for number, path in enumerate(inputs):
        work.execute("ATTACH DATABASE ? AS src", (db.ro_uri(path),))
        try:
            work.execute("BEGIN")
            info = dict(work.execute("SELECT key, value FROM src.meta").fetchall())
            names = {"own": info["journal_id"], "src": number}
            for seq, station, same in work.execute(CLASH, names):
                if not same:
                    raise JournalError(f"{path}: challenge {seq} of {station} differs "
                                       "from the same challenge in another journal")
                duplicates += 1
            work.execute(STAGE, names)
            work.execute("INSERT INTO plog SELECT :src, seq, id, status, reason, time_utc "
                         "FROM src.print_log", names)
            rows = work.execute("SELECT count(*) FROM src.challenges").fetchone()[0]
            station = info.get("station", "")
            if info.get("chain") != chain.CHAIN_VERSION and rows:
                notes.append(f"{path}: {chain.LEGACY_NOTE}; merged by the id in its meta table")
                station = work.execute("SELECT station FROM src.challenges "
                                       "ORDER BY seq LIMIT 1").fetchone()[0]
            work.execute("COMMIT")
        except BaseException:
            if work.in_transaction:
                work.execute("ROLLBACK")
            raise
        finally:
            work.execute("DETACH DATABASE src")
        sources.append((path, station, rows))
    return sources, duplicates, notes


def _write_rows(work: sqlite3.Connection, journal: Journal) -> int:
    """The staged rows, in merged order, chained into JOURNAL CHUNK rows per transaction."""
    total, chunk = 0, []
    for values in work.execute(MERGED):
        chunk.append(dict(zip(MERGED_COLUMNS, values)))
        if len(chunk) == CHUNK:
            total += len(journal._append(chunk, keep_times=True, keep_flags=True))
            chunk = []
    if chunk:
        total += len(journal._append(chunk, keep_times=True, keep_flags=True))
    return total


def _copy_print_log(work: sqlite3.Connection, journal: Journal) -> None:
    conn = journal.conn
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("INSERT INTO print_log (seq, status, reason, time_utc) "
                         "VALUES (?, ?, ?, ?)", work.execute(PRINT_LOG))
        conn.execute("COMMIT")
    except sqlite3.Error as e:
        raise JournalError(db.explain(e, journal.path)) from e


def _write_sources_meta(journal: Journal, sources) -> None:
    conn = journal.conn
    described = json.dumps([{"file": os.path.basename(p), "station": s, "rows": n}
                            for p, s, n in sources])
    try:
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('station', ?)",
                     ("(merged)",))
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('merged_from', ?)",
                     (described,))
    except sqlite3.Error as e:
        raise JournalError(db.explain(e, journal.path)) from e
