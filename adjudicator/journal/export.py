"""Export a journal as CSV or JSON for the tournament director (flags included; not for players).

Rows are streamed from SQLite to the output one at a time: memory stays small for any size.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from typing import TextIO

from ..errors import JournalError
from .rows import SELECT_ROWS, JournalRow, to_utc_text

FORMATS = ("csv", "json")
FIELDS = (
    "seq", "time_utc", "time_local", "station", "mode", "table", "round", "words", "verdict",
    "lexicon_name", "fingerprint", "rule", "recheck_of", "secondary_agrees", "print_status",
    "print_reason", "flags", "origin_journal", "origin_seq", "hash",
)


def row_record(row: JournalRow) -> dict:
    """One row as plain JSON-ready values: the words and the ONE collective verdict."""
    return {
        "seq": row.seq, "time_utc": row.time_utc, "time_local": row.time_local,
        "station": row.station, "mode": row.mode, "table": row.table, "round": row.round,
        "words": list(row.words), "verdict": row.verdict, "lexicon_name": row.lexicon_name,
        "fingerprint": row.fingerprint, "rule": row.rule, "recheck_of": row.recheck_of,
        "secondary_agrees": row.secondary_agrees, "print_status": row.print_status,
        "print_reason": row.print_reason, "flags": list(row.flags),
        "origin_journal": row.origin_journal, "origin_seq": row.origin_seq, "hash": row.hash,
    }


def _flags(text) -> list:
    if text == "[]":
        return []
    try:
        return list(json.loads(text))
    except (TypeError, ValueError):
        return ["flags unreadable"]


def _records(cursor) -> Iterator[dict]:
    """Result rows of SELECT_ROWS as export records (the same values as row_record)."""
    for (seq, time_utc, time_local, station, mode, table, round_, words, acceptable, lexicon,
         fingerprint, rule, recheck_of, secondary, flags, origin_journal, origin_seq, hash_,
         print_status, print_reason) in cursor:
        yield {
            "seq": seq, "time_utc": time_utc, "time_local": time_local, "station": station,
            "mode": mode, "table": table, "round": round_, "words": str(words).split(),
            "verdict": "ACCEPTABLE" if acceptable else "UNACCEPTABLE", "lexicon_name": lexicon,
            "fingerprint": fingerprint, "rule": rule, "recheck_of": recheck_of,
            "secondary_agrees": None if secondary is None else bool(secondary),
            "print_status": print_status or "", "print_reason": print_reason or "",
            "flags": _flags(flags), "origin_journal": origin_journal, "origin_seq": origin_seq,
            "hash": hash_,
        }


def _csv_cells(cursor) -> Iterator[tuple]:
    """Result rows of SELECT_ROWS as CSV cells, in FIELDS order, without building records."""
    yes_no = {None: "", 0: "no", 1: "yes"}
    for (seq, time_utc, time_local, station, mode, table, round_, words, acceptable, lexicon,
         fingerprint, rule, recheck_of, secondary, flags, origin_journal, origin_seq, hash_,
         print_status, print_reason) in cursor:
        yield (seq, time_utc, time_local, station, mode, table, round_, " ".join(words.split()),
               "ACCEPTABLE" if acceptable else "UNACCEPTABLE", lexicon, fingerprint, rule,
               recheck_of, yes_no.get(secondary, "yes"), print_status, print_reason,
               "" if flags == "[]" else "; ".join(_flags(flags)), origin_journal, origin_seq,
               hash_)


def query(since: int | str | None) -> tuple[str, tuple]:
    """SELECT_ROWS in seq order, after seq N (int) or at/after an ISO time (str)."""
    if isinstance(since, int):
        return SELECT_ROWS + " WHERE c.seq > ? ORDER BY c.seq", (since,)
    if since is not None:
        return SELECT_ROWS + " WHERE c.time_utc >= ? ORDER BY c.seq", (to_utc_text(since),)
    return SELECT_ROWS + " ORDER BY c.seq", ()


def write(cursor, fmt: str, out: TextIO) -> int:
    """Stream a cursor over SELECT_ROWS to OUT as CSV or a JSON array; returns rows written.

    CSV: words space-separated, flags '; '-separated, None as an empty cell. JSON: one object
    per line inside the array.
    """
    if fmt not in FORMATS:
        raise JournalError(f"export format {fmt!r} is not one of: {', '.join(FORMATS)}")
    count = 0
    if fmt == "json":
        dumps = json.JSONEncoder(ensure_ascii=False).encode
        out.write("[")
        for rec in _records(cursor):
            out.write(",\n  " if count else "\n  ")
            out.write(dumps(rec))
            count += 1
        out.write("\n]\n" if count else "]\n")
        return count
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FIELDS)
    for chunk in _chunks(_csv_cells(cursor), 2048):
        writer.writerows(chunk)
        count += len(chunk)
    return count


def _chunks(items: Iterator, size: int) -> Iterator[list]:
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def render(rows: Iterable[JournalRow], fmt: str) -> str:
    """JournalRows as CSV or JSON text (small exports; write() streams large ones)."""
    def as_sql(r: JournalRow) -> tuple:
        return (r.seq, r.time_utc, r.time_local, r.station, r.mode, r.table, r.round,
                " ".join(r.words), int(r.acceptable), r.lexicon_name, r.fingerprint, r.rule,
                r.recheck_of, None if r.secondary_agrees is None else int(r.secondary_agrees),
                json.dumps(list(r.flags)), r.origin_journal, r.origin_seq, r.hash,
                r.print_status or None, r.print_reason or None)

    out = io.StringIO()
    write(map(as_sql, rows), fmt, out)
    return out.getvalue()


def parse_since(text: str | None) -> int | str | None:
    """--since: a challenge number (rows after it) or an ISO time (rows at or after it)."""
    if text is None or not str(text).strip():
        return None
    text = str(text).strip()
    if text.isdigit():
        return int(text)
    to_utc_text(text)  # JournalError with an example when it is neither
    return text
