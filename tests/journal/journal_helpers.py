"""Journal test helpers: verdicts without a lexicon, a settable clock, raw SQL on a journal file."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone

from adjudicator.journal import Journal
from adjudicator.lexicon.known import LexiconIdentity
from adjudicator.judging.verdict import Verdict

TEST_LEXICON = LexiconIdentity("TINY", "ab" * 32, 4, None)


def verdict(*words: str, acceptable: bool = True) -> Verdict:
    """A collective verdict on WORDS as the core would give it (no lexicon needed)."""
    return Verdict(tuple(w.upper() for w in words), acceptable, TEST_LEXICON)


class Clock:
    """A clock the test moves by hand: clock.advance(seconds)."""

    def __init__(self, start: datetime | None = None):
        self.now = start or datetime(2026, 11, 22, 14, 0, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def fill(journal: Journal, n: int, station: str = "Station 1", clock: Clock | None = None,
         gap: float = 120.0) -> list[int]:
    """Record N challenges (CAT XU / QI QZX alternating), GAP seconds apart on CLOCK."""
    seqs = []
    for i in range(n):
        if clock is not None:
            clock.advance(gap)
        words = ("CAT", "XU") if i % 2 == 0 else ("QI", "QZX")
        seqs.append(journal.record(verdict(*words, acceptable=i % 2 == 0), station=station,
                                   mode="station", rule="5-per-word"))
    return seqs


def raw(path: str, sql: str, params=()) -> list:
    """Run SQL on the journal file directly, as someone tampering with it would."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()
