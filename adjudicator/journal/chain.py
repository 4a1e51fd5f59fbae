"""The hash chain: each row's canonical content, its SHA-256 link, and the check that finds a break.

Canonical content of a row (what the hash covers), defined exactly:

    json.dumps({column: value for column in HASHED_COLUMNS}, sort_keys=True,
               separators=(",", ":"), ensure_ascii=True)

where each value is the column's value exactly as stored in SQLite: integers for seq,
acceptable (1/0), recheck_of, secondary_agrees (1/0) and origin_seq; text for the rest
(words upper case, one space apart; flags a JSON array as text); JSON null for NULL.

    hash = SHA-256( prev_hash + canonical_content ) as lowercase hex, over the UTF-8 bytes
    prev_hash = the previous row's hash; for row 1, the journal's genesis:

    genesis = SHA-256( "adjudicator-journal genesis\njournal " + journal_id
                       + "\nstation " + station + "\n" )

with journal_id and station as the meta table holds them. Both are fixed when the first row is
recorded (a fresh id then, so journals copied from one empty file still differ), so every hash
covers which journal and station the row belongs to: changing either breaks row 1. Journals made
before this (meta has no "chain" key) start from GENESIS, 64 zeros; their id and station are not
covered, and verify says so.

seq is inside the content, so moving a row changes its hash. The meta table's head_seq and
head_hash are updated in the same transaction as each row, so deleting the last rows shows too.
Print status is deliberately NOT covered (it changes after the row is written): it lives in the
print_log table. The chain is tamper-EVIDENT against edits to the file with any SQLite tool; it
holds no secret, so someone who re-computes every later hash and the head is not stopped by it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from adjudicator.errors import JournalError
from adjudicator.journal.db import meta

GENESIS = "0" * 64
HASHED_COLUMNS = (
    "seq", "time_utc", "time_local", "station", "mode", "game_table", "round", "words",
    "acceptable", "lexicon_name", "fingerprint", "rule", "recheck_of", "secondary_agrees",
    "flags", "origin_journal", "origin_seq",
)
CHAIN_COLUMNS = HASHED_COLUMNS + ("prev_hash", "hash")
_SORTED = tuple(sorted(HASHED_COLUMNS))  # the canonical content's key order
_KEYS = tuple(("{" if i == 0 else ",") + f'"{c}":' for i, c in enumerate(_SORTED))
_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode
_STRING = json.encoder.encode_basestring_ascii  # what _ENCODE does to a str, in C


CHAIN_VERSION = "2"  # meta "chain": the genesis covers the journal id and station name
LEGACY_NOTE = ("made by an older adjudicator: its journal id and station name are outside the "
               "chain (rows are covered as before)")


def genesis_of(info: Mapping[str, str]) -> str:
    """The prev_hash of row 1 for a journal whose meta table is INFO (see the module doc)."""
    if info.get("chain") != CHAIN_VERSION or "station" not in info:
        return GENESIS  # an older journal, or one with no row yet
    return genesis(info.get("journal_id", ""), info["station"])


def genesis(journal_id: str, station: str) -> str:
    text = f"adjudicator-journal genesis\njournal {journal_id}\nstation {station}\n"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def canonical(row: Mapping) -> str:
    """The canonical content of a row: its hashed columns as sorted, compact, ASCII JSON,
    exactly json.dumps({c: row[c] for c in HASHED_COLUMNS}, sort_keys=True,
    separators=(",", ":"), ensure_ascii=True) (a property test holds them equal)."""
    return canonical_values([row[c] for c in _SORTED])


def canonical_values(values) -> str:
    """canonical() of a row given as its values in sorted column order (_SORTED), built
    without a dict: text and integers (all a journal holds) directly, anything else as
    json.dumps would write it."""
    string, number, other = _STRING, int.__repr__, _ENCODE
    return "".join([key + (string(v) if type(v) is str else "null" if v is None
                           else number(v) if type(v) is int else other(v))
                    for key, v in zip(_KEYS, values)]) + "}"


def link(prev_hash: str, row: Mapping) -> str:
    """SHA-256 of the previous row's hash followed by this row's canonical content."""
    return hashlib.sha256((prev_hash + canonical(row)).encode("utf-8")).hexdigest()


def link_values(prev_hash: str, values) -> str:
    """link() of a row given as its values in sorted column order."""
    return hashlib.sha256((prev_hash + canonical_values(values)).encode("utf-8")).hexdigest()


class ChainBroken(JournalError):
    """A journal whose chain does not hold: names the file and the first broken row."""

    def __init__(self, path: str, row: int, reason: str):
        super().__init__(f"{path}: chain broken at row {row}: {reason}")
        self.path, self.row, self.reason = path, row, reason


@dataclass(frozen=True)
class ChainReport:
    """The result of checking one journal's chain."""

    path: str
    rows: int
    head_hash: str
    broken_row: int | None = None
    reason: str = ""
    missing: int = 0  # rows an anchor (head file, slip) shows were recorded but are not here
    notes: tuple[str, ...] = ()  # what could not be checked, e.g. no head file beside it

    @property
    def intact(self) -> bool:
        return self.broken_row is None

    def raise_if_broken(self) -> ChainReport:
        if self.broken_row is not None:
            raise ChainBroken(self.path, self.broken_row, self.reason)
        return self

    def describe(self) -> str:
        if self.broken_row is not None:
            text = f"{self.path}: chain broken at row {self.broken_row}: {self.reason}"
        else:
            text = (f"{self.path}: intact, {self.rows} challenge{'s' if self.rows != 1 else ''}"
                    f", head {self.head_hash[:16]}")
        return "".join([text] + [f"\n  note: {n}" for n in self.notes])

    def with_notes(self, *notes: str) -> ChainReport:
        return replace(self, notes=self.notes + tuple(n for n in notes if n))


def check_rows(rows: Iterable[Mapping], path: str, head_seq: int | None = None,
               head_hash: str | None = None, anchors: Mapping[int, tuple[str, str]] | None = None,
               genesis: str = GENESIS) -> ChainReport:
    """Walk rows in seq order; report the first one that is missing, moved, edited or forged.

    ANCHORS: {seq: (hash or its prefix, where it comes from)} kept outside the file (the head
    file, typed slips): a row that no longer matches its anchor, or an anchored row that is not
    here, is reported with how many rows are missing.
    """
    return _check(((tuple(r[c] for c in _SORTED), r["prev_hash"], r["hash"]) for r in rows),
                  path, head_seq, head_hash, anchors, genesis)


_SEQ = _SORTED.index("seq")


def _check(rows, path, head_seq, head_hash, anchors, genesis) -> ChainReport:
    """check_rows over (values in _SORTED order, prev_hash, hash) triples."""
    walk = Walk(path, head_seq, head_hash, anchors, genesis)
    step = walk.step
    for values, prev_hash, hash_ in rows:
        if not step(values, prev_hash, hash_):
            break
    return walk.report()


class Walk:
    """The chain check, fed one row at a time (so an export can check the rows it writes):
    step() is False from the first broken row on; report() says what was found."""

    def __init__(self, path: str, head_seq: int | None = None, head_hash: str | None = None,
                 anchors: Mapping[int, tuple[str, str]] | None = None, genesis: str = GENESIS):
        self.path, self.head_seq, self.head_hash = path, head_seq, head_hash
        self.anchors = anchors or {}
        self.expected_prev, self.position = genesis, 0
        self.broken: ChainReport | None = None

    def step(self, values, prev_hash: str, hash_: str) -> bool:
        """Check the next row (its values in sorted column order); False once broken."""
        if self.broken is not None:
            return False
        path, expected_prev = self.path, self.expected_prev
        self.position = position = self.position + 1
        seq = values[_SEQ]
        if seq != position:
            why = (f"row {position} is missing (deleted); the next row is {seq}"
                   if seq > position else f"row numbered {seq} is out of place")
            return self._break(ChainReport(path, position - 1, expected_prev, position, why))
        if prev_hash != expected_prev:
            what = ("does not start the chain of this journal (its first row or the journal "
                    "id was changed)" if position == 1 else
                    f"does not follow row {position - 1} (a row was deleted, inserted, "
                    "reordered or forged here)")
            return self._break(ChainReport(path, position - 1, expected_prev, position, what))
        try:
            actual = link_values(prev_hash, values)
        except (TypeError, ValueError):
            actual = None
        if actual != hash_:
            return self._break(ChainReport(path, position - 1, expected_prev, position,
                                           "its content was changed after it was recorded"))
        anchor = self.anchors.get(seq)
        if anchor is not None and not hash_.startswith(anchor[0]):
            return self._break(ChainReport(
                path, position - 1, expected_prev, position,
                f"it is not the row {anchor[1]} recorded (hash {anchor[0]}, here "
                f"{hash_[:len(anchor[0])]}): this row or one before it was rewritten and the "
                "chain recomputed"))
        self.expected_prev = hash_
        return True

    def _break(self, report: ChainReport) -> bool:
        self.broken = report
        return False

    def report(self) -> ChainReport:
        """The result, once every row was stepped through (or the first broken one)."""
        if self.broken is not None:
            return self.broken
        path, position, expected_prev = self.path, self.position, self.expected_prev
        anchors, head_seq, head_hash = self.anchors, self.head_seq, self.head_hash
        last_anchor = max(anchors, default=0)
        if last_anchor > position:
            lost = last_anchor - position
            span = f"row {last_anchor}" if lost == 1 else f"rows {position + 1}-{last_anchor}"
            return ChainReport(path, position, expected_prev, position + 1,
                               f"{span} missing ({lost} row{'s' if lost != 1 else ''}): "
                               f"{anchors[last_anchor][1]} shows row {last_anchor} was "
                               f"recorded, the journal ends at row {position}", missing=lost)
        if head_seq is not None:
            if position < head_seq:
                lost = head_seq - position
                return ChainReport(path, position, expected_prev, position + 1,
                                   f"row {position + 1} is missing: the journal recorded "
                                   f"{head_seq} rows and only {position} remain", missing=lost)
            if position > head_seq:
                return ChainReport(path, position, expected_prev, head_seq + 1,
                                   "this row was not recorded by the adjudicator (added "
                                   "afterwards)")
            if head_hash is not None and head_hash != expected_prev:
                return ChainReport(path, position, expected_prev, max(position, 1),
                                   "the journal's head does not match its last row")
        return ChainReport(path, position, expected_prev)


def walk_of(conn: sqlite3.Connection, path: str,
            anchors: Mapping[int, tuple[str, str]] | None = None) -> tuple[Walk, list[str]]:
    """A Walk for the journal open on CONN (inside the caller's snapshot), and notes."""
    info = meta(conn)
    walk = Walk(path, int(info.get("head_seq", "0")), info.get("head_hash"), anchors,
                genesis_of(info))
    return walk, [LEGACY_NOTE] if info.get("chain") != CHAIN_VERSION else []


SORTED_COLUMNS = _SORTED  # the order Walk.step takes a row's values in


def check_connection(conn: sqlite3.Connection, path: str,
                     anchors: Mapping[int, tuple[str, str]] | None = None) -> ChainReport:
    """Check the chain of the journal open on CONN (read in one snapshot) against ANCHORS."""
    conn.execute("BEGIN")  # one consistent snapshot even while a station keeps recording
    try:
        walk, notes = walk_of(conn, path, anchors)
        cursor = conn.execute(
            f"SELECT {', '.join(_SORTED)}, prev_hash, hash FROM challenges ORDER BY seq")
        n = len(_SORTED)
        step = walk.step
        for r in cursor:
            if not step(r[:n], r[n], r[n + 1]):
                break
        report = walk.report()
        return report.with_notes(*notes) if report.rows else report
    finally:
        conn.execute("COMMIT")
