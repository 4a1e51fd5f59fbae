"""Merge station journals into one event journal: verify each, keep identity, time order."""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime

from ..errors import JournalError
from . import chain, db
from .rows import SELECT_ROWS, row_from_sql
from .store import Journal


@dataclass(frozen=True)
class MergeReport:
    """What went into a merged journal."""

    out: str
    rows: int
    sources: tuple[tuple[str, str, int], ...]  # (file, station, rows read)
    duplicates: int


def _read_source(path: str) -> tuple[dict, list, dict]:
    """Verify and read one journal: (meta, rows, print log by seq). ChainBroken if broken."""
    conn = db.connect_ro(path)
    try:
        chain.check_connection(conn, path).raise_if_broken()
        conn.execute("BEGIN")
        info = db.meta(conn)
        rows = [row_from_sql(r) for r in conn.execute(SELECT_ROWS + " ORDER BY c.seq")]
        log: dict[int, list] = {}
        for seq, status, reason, when in conn.execute(
                "SELECT seq, status, reason, time_utc FROM print_log ORDER BY id"):
            log.setdefault(seq, []).append((status, reason, when))
        conn.execute("COMMIT")
        return info, rows, log
    except sqlite3.Error as e:
        raise JournalError(db.explain(e, path)) from e
    finally:
        conn.close()


def merge(inputs: list[str], out: str, *, force: bool = False) -> MergeReport:
    """Merge INPUTS into a new journal OUT; refuses a broken chain, naming the file and row.

    Each merged row keeps its station, and its origin (journal id and seq in that journal) as
    columns; rows come in time order (UTC), then station, then original seq. recheck_of is
    renumbered to the merged seq. A row given twice (the same journal, or a later copy of it)
    is kept once. Merged journals may be merged again: origins are carried through.
    """
    if not inputs:
        raise JournalError("give at least one journal to merge")
    out_real = os.path.realpath(out)
    for path in inputs:
        if os.path.realpath(path) == out_real:
            raise JournalError(f"{out} is one of the journals being merged; choose another -o")
    if os.path.exists(out) and not force:
        raise JournalError(f"{out} already exists (use --force to replace it)")

    entries: dict[tuple[str, int], tuple] = {}
    sources, duplicates = [], 0
    for path in inputs:
        info, rows, log = _read_source(path)
        own_id = info["journal_id"]
        key_of_seq = {r.seq: (r.origin_journal or own_id, r.origin_seq or r.seq) for r in rows}
        for r in rows:
            key = key_of_seq[r.seq]
            recheck_key = key_of_seq.get(r.recheck_of) if r.recheck_of is not None else None
            if key in entries:
                if entries[key][0].hash != r.hash and _content(entries[key][0]) != _content(r):
                    raise JournalError(f"{path}: challenge {r.seq} of {r.station} differs "
                                       "from the same challenge in another journal")
                duplicates += 1
                continue
            entries[key] = (r, recheck_key, log.get(r.seq, []))
        sources.append((path, info.get("station", ""), len(rows)))

    ordered = sorted(entries.items(), key=lambda kv: (
        _utc(kv[1][0].time_utc), kv[1][0].station, kv[0][1]))
    new_seq = {key: i + 1 for i, (key, _) in enumerate(ordered)}

    tmp = out + ".merging"
    _remove(tmp)
    journal = Journal.open(tmp)
    try:
        rows = []
        for key, (r, recheck_key, _log) in ordered:
            rows.append({
                "time_utc": r.time_utc, "time_local": r.time_local, "station": r.station,
                "mode": r.mode, "game_table": r.table, "round": r.round,
                "words": " ".join(r.words), "acceptable": int(r.acceptable),
                "lexicon_name": r.lexicon_name, "fingerprint": r.fingerprint, "rule": r.rule,
                "recheck_of": new_seq.get(recheck_key) if recheck_key else r.recheck_of,
                "secondary_agrees": None if r.secondary_agrees is None
                else int(r.secondary_agrees),
                "flags": json.dumps(list(r.flags)), "origin_journal": key[0],
                "origin_seq": key[1],
            })
        journal._append(rows, keep_times=True, keep_flags=True)
        _copy_print_log(journal, ordered, new_seq)
        _write_sources_meta(journal, sources)
    except BaseException:
        journal.close()
        _remove(tmp)
        raise
    journal.close()
    try:
        for suffix in ("-wal", "-shm"):
            _remove(out + suffix)
        os.replace(tmp, out)
    except OSError as e:
        _remove(tmp)
        raise JournalError(db.explain(e, out)) from e
    return MergeReport(out, len(ordered), tuple(sources), duplicates)


def _copy_print_log(journal: Journal, ordered, new_seq) -> None:
    conn = journal.conn
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(
            "INSERT INTO print_log (seq, status, reason, time_utc) VALUES (?, ?, ?, ?)",
            [(new_seq[key], status, reason, when)
             for key, (_r, _k, log) in ordered for status, reason, when in log])
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


def _content(r) -> tuple:
    return (r.time_utc, r.station, r.words, r.acceptable, r.fingerprint)


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _remove(path: str) -> None:
    for p in (path, path + "-wal", path + "-shm"):
        try:
            os.remove(p)
        except (FileNotFoundError, NotADirectoryError):
            pass
        except OSError as e:
            raise JournalError(f"cannot replace {p}: {e.strerror or e}") from e
