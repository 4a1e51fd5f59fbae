"""Export a journal as CSV or JSON for the tournament director (flags included; not for players).

Rows are streamed from SQLite to the output one at a time: memory stays small for any size. A
CSV cell a spreadsheet would take for a formula is written with a quote in front (OWASP's CSV
injection rule); a hub's journal adds whether each row's station was accepted by the director,
the hub's findings about the row, and the name the hub holds it under (hub_station: a renamed
station's row judged after its rename is its new name's, never the former name another station
may hold now).
"""

from __future__ import annotations

import csv
import io
import json
import operator
import sqlite3
from collections.abc import Iterable, Iterator
from typing import TextIO

from adjudicator.errors import JournalError
from adjudicator.event.history import OTHER_LIST, Check, EventHistory, utc_text
from adjudicator.journal.chain import SORTED_COLUMNS, Walk
from adjudicator.journal.rows import JournalRow, to_utc_text

# The rows to export with their latest print status (one pass over print_log: SQLite takes a
# bare column from the row max() picked) and prev_hash, so an export can check the chain too.
EXPORT_ROWS = """
SELECT c.seq, c.time_utc, c.time_local, c.station, c.mode, c.game_table, c.round, c.words,
       c.acceptable, c.lexicon_name, c.fingerprint, c.rule, c.recheck_of, c.secondary_agrees,
       c.flags, c.origin_journal, c.origin_seq, c.hash, p.status, p.reason, c.prev_hash
FROM challenges c LEFT JOIN (SELECT seq, status, reason, max(id) FROM print_log GROUP BY seq) p
     ON p.seq = c.seq
"""
EXPORT_COLUMNS = (
    "seq", "time_utc", "time_local", "station", "mode", "game_table", "round", "words",
    "acceptable", "lexicon_name", "fingerprint", "rule", "recheck_of", "secondary_agrees",
    "flags", "origin_journal", "origin_seq", "hash", "print_status", "print_reason", "prev_hash",
)
FORMATS = ("csv", "json")
FIELDS = (
    "seq", "time_utc", "time_local", "station", "mode", "table", "round", "words", "verdict",
    "lexicon_name", "fingerprint", "rule", "recheck_of", "secondary_agrees", "print_status",
    "print_reason", "flags", "origin_journal", "origin_seq", "hash",
)


# A cell starting with one of these is a formula to a spreadsheet (=HYPERLINK(...), +, -, @, a
# tab or a carriage return before them): written with a single quote in front (OWASP).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_CELL_STARTS = tuple("," + c for c in FORMULA_STARTS)
ACCEPTED = "accepted"  # the column a hub journal's export adds: the station accepted, yes/no
WRONG_LIST = "wrong_list"  # and the next: a row judged with another list or rule than its
#                            table's division's at the time (event/history.py), else ""
HUB_CHECK = "hub_check"  # and the next: the hub's own judgement of the row (hub/audit.py):
#                          "agrees", "disagrees: ...", "other list: ...", "unchecked: ..."
HUB_STATION = "hub_station"  # and the last: the station the hub holds the row under (its
#                              hub_row_names, hub/identity.row_name), else the row's own
_STATION = EXPORT_COLUMNS.index("station")  # the same in FIELDS
assert _STATION == FIELDS.index("station")
_CHECKED = tuple(EXPORT_COLUMNS.index(c) for c in (
    "game_table", "time_utc", "fingerprint", "rule", "lexicon_name"))  # the same in FIELDS
assert _CHECKED == tuple(FIELDS.index(c) for c in ("table", "time_utc", "fingerprint", "rule",
                                                    "lexicon_name"))
_ORIGIN = EXPORT_COLUMNS.index("origin_journal")  # in a row of EXPORT_ROWS
_ORIGIN_CELL = FIELDS.index("origin_journal")  # in a row's CSV cells


def safe_cells(cells: tuple) -> tuple:
    """CELLS with each text that a spreadsheet would run as a formula made plain text."""
    return tuple("'" + c if type(c) is str and c.startswith(FORMULA_STARTS) else c
                 for c in cells)


def accepted_journals(conn: sqlite3.Connection) -> frozenset | None:
    """A hub journal's station journals that the director accepted (a key of theirs is
    accepted; hub/ledger.py keeps them in hub_keys), read with SQL so the export never imports
    the hub; None for any other journal (a station's, a merge)."""
    found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                         "name = 'hub_keys'").fetchone()
    if found is None:
        return None
    return frozenset(j for (j,) in conn.execute(
        "SELECT DISTINCT journal_id FROM hub_keys WHERE accepted > 0"))


class HubChecks:
    """A hub journal's judgement of each row (its hub_audit, hub/audit.py) and its event's
    changes (its hub_meta), read with SQL: the export never imports the hub."""

    def __init__(self, conn: sqlite3.Connection):
        self.history = EventHistory.from_meta(conn) or EventHistory()
        self._conn = conn if conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'hub_audit'"
        ).fetchone() else None
        self._names = conn if conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'hub_row_names'"
        ).fetchone() else None

    def held_as(self, seq) -> str | None:
        """The name the hub holds row SEQ under, when not the row's own."""
        if self._names is None:
            return None
        found = self._names.execute("SELECT station FROM hub_row_names WHERE seq = ?",
                                    (seq,)).fetchone()
        return found[0] if found else None

    def of(self, seq) -> Check | None:
        """The hub's judgement of row SEQ, when it made one."""
        if self._conn is None:
            return None
        found = self._conn.execute("SELECT result FROM hub_audit WHERE seq = ?",
                                   (seq,)).fetchone()
        return Check.from_json(found[0]) if found else None


def hub_history(conn: sqlite3.Connection) -> HubChecks:
    """A hub journal's judgements of its rows and its event's changes, for the wrong_list and
    hub_check columns."""
    return HubChecks(conn)


def hub_cells(row, checks: HubChecks | None) -> tuple[str, str, str]:
    """ROW's (a row of EXPORT_ROWS, or its cells in FIELDS order) wrong_list, hub_check and
    hub_station cells: the hub's judgement (a row it judged when it arrived), else, for a row
    held before the hub judged rows, its list and rule against the event's changes by the
    row's time; the name the hub holds it under."""
    station = str(row[_STATION] or "")
    if checks is None:
        return "", "", station
    station = checks.held_as(row[0]) or station
    check = checks.of(row[0])
    if check is not None:
        said = check.text(utc_text) if check.why else ""
        return (said if check.state == OTHER_LIST else "",
                check.state + (f": {said}" if said else ""), station)
    if not checks.history.versions:
        return "", "", station
    table, time_utc, fingerprint, rule, lexicon = (row[i] for i in _CHECKED)
    found = checks.history.check(table, time_utc, fingerprint, rule, lexicon)
    return ("" if found is None else found.text(utc_text)), "", station


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


RECORD_KEYS = (
    "seq", "time_utc", "time_local", "station", "mode", "table", "round", "words", "verdict",
    "lexicon_name", "fingerprint", "rule", "recheck_of", "secondary_agrees", "print_status",
    "print_reason", "flags", "origin_journal", "origin_seq", "hash",
)  # a JSON record's keys, in order (row_record's)


def _records(cursor) -> Iterator[dict]:
    """Result rows of EXPORT_ROWS as export records (the same values as row_record); the
    reference _json_lines is held to."""
    for (seq, time_utc, time_local, station, mode, table, round_, words, acceptable, lexicon,
         fingerprint, rule, recheck_of, secondary, flags, origin_journal, origin_seq, hash_,
         print_status, print_reason, _prev) in cursor:
        yield dict(zip(RECORD_KEYS, (
            seq, time_utc, time_local, station, mode, table, round_, str(words).split(),
            "ACCEPTABLE" if acceptable else "UNACCEPTABLE", lexicon, fingerprint, rule,
            recheck_of, None if secondary is None else bool(secondary), print_status or "",
            print_reason or "", _flags(flags), origin_journal, origin_seq, hash_)))


def _json_lines(cursor) -> Iterator[str]:
    """Each row of EXPORT_ROWS as JSONEncoder(ensure_ascii=False).encode(its record) would
    write it (a property test holds them equal to _records' encoding), built as one string
    concatenation per row: each value written by the C string encoder or int repr when it has
    the type a journal holds, else as json would (any_); this is the export's inner loop."""
    text, number = json.encoder.encode_basestring, int.__repr__
    other = json.JSONEncoder(ensure_ascii=False).encode

    def any_(v) -> str:
        if type(v) is str:
            return text(v)
        if v is None:
            return "null"
        if type(v) is int:
            return number(v)
        return "true" if v is True else "false" if v is False else other(v)

    for (seq, time_utc, time_local, station, mode, table, round_, words, acceptable, lexicon,
         fingerprint, rule, recheck_of, secondary, flags, origin_journal, origin_seq, hash_,
         print_status, print_reason, _prev) in cursor:
        yield ('{"seq": ' + (number(seq) if type(seq) is int else any_(seq))
               + ', "time_utc": ' + (text(time_utc) if type(time_utc) is str
                                     else any_(time_utc))
               + ', "time_local": ' + (text(time_local) if type(time_local) is str
                                       else any_(time_local))
               + ', "station": ' + (text(station) if type(station) is str else any_(station))
               + ', "mode": ' + (text(mode) if type(mode) is str else any_(mode))
               + ', "table": ' + ("null" if table is None else any_(table))
               + ', "round": ' + ("null" if round_ is None else any_(round_))
               + ', "words": [' + ", ".join(map(text, str(words).split())) + "]"
               + ', "verdict": ' + ('"ACCEPTABLE"' if acceptable else '"UNACCEPTABLE"')
               + ', "lexicon_name": ' + (text(lexicon) if type(lexicon) is str
                                         else any_(lexicon))
               + ', "fingerprint": ' + (text(fingerprint) if type(fingerprint) is str
                                        else any_(fingerprint))
               + ', "rule": ' + ("null" if rule is None else any_(rule))
               + ', "recheck_of": ' + ("null" if recheck_of is None else any_(recheck_of))
               + ', "secondary_agrees": ' + ("null" if secondary is None
                                             else "true" if secondary else "false")
               + ', "print_status": ' + (any_(print_status) if print_status else '""')
               + ', "print_reason": ' + (any_(print_reason) if print_reason else '""')
               + ', "flags": ' + ("[]" if flags == "[]" else other(_flags(flags)))
               + ', "origin_journal": ' + ("null" if origin_journal is None
                                           else any_(origin_journal))
               + ', "origin_seq": ' + ("null" if origin_seq is None else any_(origin_seq))
               + ', "hash": ' + (text(hash_) if type(hash_) is str else any_(hash_)) + "}")


def _csv_cells(cursor) -> Iterator[tuple]:
    """Result rows of EXPORT_ROWS as CSV cells, in FIELDS order, without building records."""
    yes_no = {None: "", 0: "no", 1: "yes"}
    for (seq, time_utc, time_local, station, mode, table, round_, words, acceptable, lexicon,
         fingerprint, rule, recheck_of, secondary, flags, origin_journal, origin_seq, hash_,
         print_status, print_reason, _prev) in cursor:
        yield (seq, time_utc, time_local, station, mode, table, round_, " ".join(words.split()),
               "ACCEPTABLE" if acceptable else "UNACCEPTABLE", lexicon, fingerprint, rule,
               recheck_of, yes_no.get(secondary, "yes"), print_status, print_reason,
               "" if flags == "[]" else "; ".join(map(str, _flags(flags))), origin_journal, origin_seq,
               hash_)


def _csv_lines(cursor, accepted: frozenset | None = None,
               history: HubChecks | None = None) -> Iterator[str]:
    """Each row's CSV line (no end) exactly as csv.writer writes its safe_cells (a property test
    holds them equal): cells joined with commas when none needs quoting, else csv.writer's.
    Formula starts are looked for in a group of lines joined (a few searches of C speed per
    group, not per line); only a group where one may be is looked at line by line. ACCEPTED
    (a hub's): each line ends with its station's mark (_mark)."""
    slow = io.StringIO()
    writer = csv.writer(slow, lineterminator="\n")  # "\n" in a cell is quoted only then
    commas = len(FIELDS) - 1
    starts = FORMULA_STARTS

    def written(cells) -> str:
        slow.seek(0)
        slow.truncate()
        writer.writerow(cells)
        return slow.getvalue()[:-1]

    for group in _chunks(_csv_cells(cursor), 512):
        lines = [",".join(["" if c is None else c if type(c) is str else str(c) for c in cells])
                 for cells in group]
        # every cell of the group follows a comma here; = @ tab and CR are rare anywhere
        # (a one-byte search each), + and - are looked for only after a comma
        text = "," + ",".join(lines)
        risky = ("=" in text or "@" in text or "\t" in text or "\r" in text or ",-" in text
                 or ",+" in text)
        for cells, line in zip(group, lines):
            if risky and (line.startswith(starts) or any(s in line for s in _CELL_STARTS)):
                line = written(safe_cells(cells))  # (a comma inside a cell: only slower)
            elif line.count(",") != commas or '"' in line or "\n" in line or "\r" in line:
                line = written(cells)
            if accepted is not None:
                line += "," + _mark(cells[_ORIGIN_CELL], accepted, "", "yes", "no")
                line += "," + ",".join(written(safe_cells((c,))) if c else ""
                                       for c in hub_cells(cells, history))
            yield line


def _mark(origin, accepted: frozenset, none, yes, no):
    """A row's mark in a hub's export: from no station, from an accepted one, or not."""
    return none if origin is None else yes if origin in accepted else no


def _json_marked(cursor, accepted: frozenset,
                 history: HubChecks | None = None) -> Iterator[str]:
    """_json_lines, each record ending with "accepted": its station's mark (_mark), and
    "wrong_list", "hub_check" and "hub_station": hub_cells()."""
    held = [None]

    def rows():
        for row in cursor:
            held[0] = row
            yield row
    text = json.encoder.encode_basestring
    for line in _json_lines(rows()):  # one line a row, in step
        wrong, check, station = hub_cells(held[0], history)
        yield (line[:-1] + _mark(held[0][_ORIGIN], accepted, ', "accepted": null',
                                 ', "accepted": true', ', "accepted": false')
               + ', "wrong_list": ' + text(wrong) + ', "hub_check": ' + text(check)
               + ', "hub_station": ' + text(station) + "}")


def query(since: int | str | None) -> tuple[str, tuple]:
    """EXPORT_ROWS in seq order, after seq N (int) or at/after an ISO time (str)."""
    if isinstance(since, int):
        return EXPORT_ROWS + " WHERE c.seq > ? ORDER BY c.seq", (since,)
    if since is not None:
        return EXPORT_ROWS + " WHERE c.time_utc >= ? ORDER BY c.seq", (to_utc_text(since),)
    return EXPORT_ROWS + " ORDER BY c.seq", ()


def checked(cursor, walk: Walk) -> Iterator[tuple]:
    """The rows of a cursor over EXPORT_ROWS (all of them, in seq order), each also stepped
    through WALK: the export checks the chain in the same read."""
    pick = operator.itemgetter(*(EXPORT_COLUMNS.index(c) for c in SORTED_COLUMNS))
    prev, hash_ = EXPORT_COLUMNS.index("prev_hash"), EXPORT_COLUMNS.index("hash")
    step = walk.step
    for row in cursor:
        step(pick(row), row[prev], row[hash_])
        yield row


def write(cursor, fmt: str, out: TextIO, accepted: frozenset | None = None,
          history: HubChecks | None = None) -> int:
    """Stream a cursor over EXPORT_ROWS to OUT as CSV or a JSON array; returns rows written.

    CSV: words space-separated, flags '; '-separated, None as an empty cell, a formula's start
    quoted (safe_cells). JSON: one object per line inside the array. ACCEPTED (a hub journal's,
    accepted_journals): each row also says whether its station was accepted, and (HISTORY: the
    hub journal's judgements, hub_history) whether it was judged with the wrong list, and what
    the hub's own judgement of it was.
    """
    if fmt not in FORMATS:
        raise JournalError(f"export format {fmt!r} is not one of: {', '.join(FORMATS)}")
    count = 0
    if fmt == "json":
        lines = (_json_lines(cursor) if accepted is None
                 else _json_marked(cursor, accepted, history))
    else:
        lines = _csv_lines(cursor, accepted, history)
    if fmt == "json":
        head, between, end = "[\n  ", ",\n  ", "\n]\n"
    else:
        fields = (FIELDS if accepted is None
                  else FIELDS + (ACCEPTED, WRONG_LIST, HUB_CHECK, HUB_STATION))
        head, between, end = ",".join(fields) + "\n", "\n", "\n"
    for chunk in _chunks(lines, 2048):
        out.write((between if count else head) + between.join(chunk))
        count += len(chunk)
    if count:
        out.write(end)
    else:
        out.write("[]\n" if fmt == "json" else head)
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
                r.print_status or None, r.print_reason or None, None)

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
