"""Director's flags on a new row (never shown to players): split look-ups, differing rechecks."""

from __future__ import annotations

import sqlite3
from datetime import datetime

SPLIT_LOOKUP = "possible split look-up"  # NASPA IV.J.2: all words of a play entered together
RECHECKS_DIFFER = "rechecks differ: director to decide"  # WESPA 3.10.9(c)
UNKNOWN_RECHECK = "recheck of a challenge not in this journal"
DEFAULT_SPLIT_WINDOW = 90.0  # seconds


def flags_for(conn: sqlite3.Connection, *, station: str, table: str | None,
              recheck_of: int | None, acceptable: bool, now_utc: datetime,
              split_window: float) -> tuple[str, ...]:
    """Flags for a row about to be recorded at STATION, looking at the rows before it.

    Split look-up: the previous adjudication at the same station was within split_window
    seconds. Not raised for a recheck (re-adjudication is allowed, WESPA 3.10.9), nor when both
    rows name different tables (a runner serving several games), nor when split_window <= 0.
    Rechecks differ: the verdict differs from the challenge it rechecks.
    """
    flags: list[str] = []
    if recheck_of is None and split_window > 0:
        last = conn.execute(
            "SELECT time_utc, game_table FROM challenges WHERE station = ? "
            "ORDER BY seq DESC LIMIT 1", (station,)).fetchone()
        if last is not None:
            other_table = last[1]
            different_games = table is not None and other_table is not None and table != other_table
            try:
                gap = abs((now_utc - datetime.fromisoformat(last[0])).total_seconds())
            except (TypeError, ValueError):
                gap = None
            if gap is not None and gap <= split_window and not different_games:
                flags.append(SPLIT_LOOKUP)
    if recheck_of is not None:
        original = conn.execute("SELECT acceptable FROM challenges WHERE seq = ?",
                                (recheck_of,)).fetchone()
        if original is None:
            flags.append(UNKNOWN_RECHECK)
        elif bool(original[0]) != bool(acceptable):
            flags.append(RECHECKS_DIFFER)
    return tuple(flags)
