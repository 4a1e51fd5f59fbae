"""What a station's judgement gives a surface (an Outcome), and its challenges counted per table."""

from __future__ import annotations

import datetime as dt
import threading
from collections import Counter
from typing import NamedTuple

from adjudicator.errors import AdjudicatorError
from adjudicator.judging.verdict import Verdict


class Outcome(NamedTuple):
    """What a surface shows: the collective verdict and its record, never a single word."""

    verdict: Verdict
    seq: int | None  # the challenge number in the journal; None when not recorded
    consequence: str
    time: dt.datetime
    recheck_of: int | None = None
    is_recheck: bool = False
    secondary_name: str = ""
    secondary_agrees: bool | None = None
    problem: str = ""  # NOT_RECORDED and why, for the director
    table: str = ""
    round: str = ""
    row_hash: str = ""  # the row's short chain hash, printed on the slip (journal/anchor.py)
    locked: bool = False  # not recorded: another program held the journal locked past the wait

    @property
    def recorded(self) -> bool:
        return self.seq is not None

    @property
    def first_seq(self) -> int | None:
        """The challenge a recheck of this outcome points at: the first one, never a recheck."""
        return self.recheck_of if self.is_recheck else self.seq


class TableCounts:
    """Challenges recorded per game table, for surfaces that serve many tables (the phone page):
    each table sees its own count, not every table's added together. Shared by the Stations of
    one server; read from the journal once (on first use), then kept up to date as rows are
    recorded."""

    def __init__(self) -> None:
        self._counts: Counter | None = None
        self._lock = threading.Lock()

    def count(self, table: str, journal) -> int | None:
        """How many recorded challenges name TABLE; None without a journal."""
        with self._lock:
            if self._counts is None:
                if journal is None:
                    return None
                try:
                    self._counts = Counter(row.table for row in journal.rows() if row.table)
                except AdjudicatorError:
                    return None
            return self._counts[table]

    def add(self, table: str) -> None:
        """One more recorded challenge at TABLE (ignored until the journal has been read)."""
        with self._lock:
            if self._counts is not None and table:
                self._counts[table] += 1
