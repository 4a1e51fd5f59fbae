"""Export a journal as CSV or JSON for the tournament director (flags included; not for players)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable

from ..errors import JournalError
from .rows import JournalRow, to_utc_text

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


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def render(rows: Iterable[JournalRow], fmt: str) -> str:
    """The rows as CSV (words space-separated, flags '; '-separated) or a JSON array."""
    if fmt not in FORMATS:
        raise JournalError(f"export format {fmt!r} is not one of: {', '.join(FORMATS)}")
    records = [row_record(r) for r in rows]
    if fmt == "json":
        return json.dumps(records, indent=2, ensure_ascii=False) + "\n"
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FIELDS)
    for rec in records:
        cells = {k: _cell(v) for k, v in rec.items()}
        cells["words"] = " ".join(rec["words"])
        cells["flags"] = "; ".join(rec["flags"])
        writer.writerow([cells[f] for f in FIELDS])
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
