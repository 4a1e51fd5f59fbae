"""JournalRow (one recorded adjudication as read back) and the query that reads rows."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone

from adjudicator.errors import JournalError

MODES = ("station", "smart device", "runner", "director")
PRINT_STATUSES = ("printed", "failed", "reprinted")

# Rows with their latest print status (print_log is outside the chain; see chain.py).
SELECT_ROWS = """
SELECT c.seq, c.time_utc, c.time_local, c.station, c.mode, c.game_table, c.round, c.words,
       c.acceptable, c.lexicon_name, c.fingerprint, c.rule, c.recheck_of, c.secondary_agrees,
       c.flags, c.origin_journal, c.origin_seq, c.hash,
       (SELECT p.status FROM print_log p WHERE p.seq = c.seq ORDER BY p.id DESC LIMIT 1),
       (SELECT p.reason FROM print_log p WHERE p.seq = c.seq ORDER BY p.id DESC LIMIT 1)
FROM challenges c
"""


@dataclass(frozen=True)
class JournalRow:
    """One adjudication: the words and ONE collective verdict (no per-word result, ever)."""

    seq: int
    time_utc: str
    time_local: str
    station: str
    mode: str
    table: str | None
    round: str | None
    words: tuple[str, ...]
    acceptable: bool
    lexicon_name: str
    fingerprint: str
    rule: str | None
    recheck_of: int | None
    secondary_agrees: bool | None
    print_status: str  # "" until a printer reports; then printed | failed | reprinted
    print_reason: str
    flags: tuple[str, ...]  # for the director only, e.g. "possible split look-up"
    origin_journal: str | None = None  # merged journals: the station journal's id
    origin_seq: int | None = None  # merged journals: the row's seq in its station journal
    hash: str = ""

    @property
    def verdict(self) -> str:
        """ACCEPTABLE or UNACCEPTABLE."""
        return "ACCEPTABLE" if self.acceptable else "UNACCEPTABLE"


def row_from_sql(r: sqlite3.Row | tuple) -> JournalRow:
    """Build a JournalRow from one result of SELECT_ROWS."""
    (seq, time_utc, time_local, station, mode, table, round_, words, acceptable, lexicon_name,
     fingerprint, rule, recheck_of, secondary, flags, origin_journal, origin_seq, hash_,
     print_status, print_reason) = tuple(r)
    try:
        flag_list = tuple(json.loads(flags))
    except (TypeError, ValueError):
        flag_list = ("flags unreadable",)
    return JournalRow(
        seq=seq, time_utc=time_utc, time_local=time_local, station=station, mode=mode,
        table=table, round=round_, words=tuple(str(words).split()), acceptable=bool(acceptable),
        lexicon_name=lexicon_name, fingerprint=fingerprint, rule=rule, recheck_of=recheck_of,
        secondary_agrees=None if secondary is None else bool(secondary),
        print_status=print_status or "", print_reason=print_reason or "", flags=flag_list,
        origin_journal=origin_journal, origin_seq=origin_seq, hash=hash_,
    )


def to_utc_text(when: str | datetime) -> str:
    """An ISO time (naive = local time) as the journal's UTC text, for comparisons."""
    if isinstance(when, str):
        try:
            when = datetime.fromisoformat(when.strip().replace("Z", "+00:00"))
        except ValueError:
            raise JournalError(f"{when!r} is not a time like 2026-11-22T14:00 "
                               "or a challenge number") from None
    if when.tzinfo is None:
        when = when.astimezone()
    return when.astimezone(timezone.utc).isoformat(timespec="microseconds")
