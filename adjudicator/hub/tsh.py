"""Players' names for a table, read (never written) from tsh's html/tourney.js and its `tables`.

tsh writes its whole event as `newt = {...};` in html/tourney.js (its own pages eval the file and
read `newt`; here it is read as data, never run: jsliteral.py). What is read here, as tsh's own
page code reads it: `divisions[]`, each with `name` and `players[]` (index 0 unused), each
player with `id`, `name` ("Surname, Given"),
`pairings[r0]` (the opponent's id, 0 for a bye), `scores[r0]` and `etc.board[r0]` (the board
number); and `config.tables[division name][board - 1]`, the table a board is at (without it, the
board number is the table). Divisions that share board numbers without a `tables` setting show
every game at that table, each with its division.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Mapping
from datetime import datetime, timezone

from ..errors import ConfigError
from .jsliteral import JSLiteralError, decode_text, parse_assignment

MAX_BYTES = 64 * 1024 * 1024  # a tsh file for the largest event is a few MB


def tourney_path(path: str) -> str:
    """tsh's tourney.js for PATH (the file itself, or a tsh event folder holding html/)."""
    return os.path.join(path, "html", "tourney.js") if os.path.isdir(path) else path


def read_tourney(path: str) -> dict:
    """The event tsh describes in PATH (tourney.js, or a tsh event folder holding html/)."""
    path = tourney_path(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise ConfigError(f"cannot read tsh's {path}: {e.strerror or e}") from e
    if len(raw) > MAX_BYTES:
        raise ConfigError(f"{path} is not tsh's tourney.js: larger than {MAX_BYTES >> 20} MB")
    try:
        data = parse_assignment(decode_text(raw))
    except JSLiteralError as e:
        raise ConfigError(f"{path} is not tsh's tourney.js (newt = {{...}}): {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("divisions"), list):
        raise ConfigError(f"{path} is not tsh's tourney.js: no divisions in it")
    return data


def _name(player: Mapping) -> str:
    return re.sub(r",\s*$", "", str(player.get("name") or "?"))


def _at(values, r0: int):
    if isinstance(values, list) and 0 <= r0 < len(values):
        return values[r0]
    return None


def _paired(player, r0: int) -> bool:
    opp = _at(player.get("pairings"), r0)
    return isinstance(opp, int) and not isinstance(opp, bool) and opp > 0


def current_round0(division: Mapping) -> int:
    """The round being played (0-based): the first one not every player has a score for; once
    every paired round is scored (the event is over, or the next round is not paired yet), the
    last round with pairings, whose players are the last ones at each table."""
    active = [p for p in (division.get("players") or [])[1:] if isinstance(p, dict)
              and not (p.get("etc") or {}).get("off")]
    counts = [len([s for s in (p.get("scores") or []) if s is not None]) for p in active]
    r0 = min(counts) if counts else 0
    last_paired = max((r for p in active for r in range(len(p.get("pairings") or []))
                       if _paired(p, r)), default=-1)
    return last_paired if 0 <= last_paired < r0 else r0


def games_at_tables(tourney: Mapping, round1: int | None = None) -> dict[str, list[str]]:
    """{table: ["Surname, Given - Surname, Given", ...]} for ROUND1 (1-based; None: each
    division's round in play). A division's name is put first when there are several."""
    config = tourney.get("config")
    tables = config.get("tables") if isinstance(config, dict) else None
    divisions = [d for d in tourney.get("divisions") or [] if isinstance(d, dict)]
    several = len(divisions) > 1
    found: dict[str, list[str]] = {}
    for division in divisions:
        dname = str(division.get("name") or "")
        players = division.get("players")
        players = players if isinstance(players, list) else []
        r0 = round1 - 1 if round1 else current_round0(division)
        board_tables = tables.get(dname) if isinstance(tables, dict) else None
        board_tables = board_tables if isinstance(board_tables, list) else None
        seen = set()
        for p in players[1:]:
            if not isinstance(p, dict):
                continue
            opp_id = _at(p.get("pairings"), r0)
            board = _at((p.get("etc") or {}).get("board"), r0)
            if not opp_id or not board or not isinstance(opp_id, int) or opp_id >= len(players):
                continue  # a bye, no pairing yet, or no board assigned
            pair = frozenset((p.get("id"), opp_id))
            if pair in seen:
                continue
            seen.add(pair)
            if not isinstance(board, int) or isinstance(board, bool) or board < 1:
                continue  # not a board number tsh would write
            table = _at(board_tables, board - 1) if board_tables else None
            table = str(table if table else board)
            opponent = players[opp_id] if isinstance(players[opp_id], dict) else {}
            game = f"{_name(p)} - {_name(opponent)}"
            found.setdefault(table, []).append(f"{dname.upper()}: {game}" if several else game)
    return found


class TshNames:
    """The names at each table, from tsh's file as it is now. refresh() reads it again when it
    changed (call it off the event loop: a big event's file takes a moment); a file that stops
    reading well (tsh caught mid-write, a damaged file) keeps the last good names and is said,
    with when it started, by warning()."""

    def __init__(self, path: str,
                 wall: Callable[[], datetime] = lambda: datetime.now(timezone.utc)):
        self.path, self.wall = path, wall
        self._state: tuple[dict | None, dict] = (None, {})  # (tourney, round1 -> games)
        self._stamp = None
        self._lock = threading.Lock()  # one refresh at a time
        self.problem = ""
        self.since: datetime | None = None  # when the current problem was first seen
        self.refresh()

    def _stat(self):
        st = os.stat(tourney_path(self.path))
        return (st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns)

    def refresh(self) -> bool:
        """Read tsh's file again if it changed; True when the names or the warning changed."""
        with self._lock:
            try:
                stamp = self._stat()
            except OSError as e:
                return self._failed(f"cannot read tsh's {tourney_path(self.path)}: "
                                    f"{e.strerror or e}")
            if stamp == self._stamp:
                return False
            try:
                tourney = read_tourney(self.path)
            except ConfigError as e:
                self._stamp = stamp
                return self._failed(str(e))
            try:
                self._stamp = stamp if self._stat() == stamp else None  # changed while read
            except OSError:
                self._stamp = None
            self._state = (tourney, {})
            self.problem, self.since = "", None
            return True

    def _failed(self, problem: str) -> bool:
        changed = problem != self.problem
        if not self.problem:
            self.since = self.wall()
        self.problem = problem
        return changed

    def warning(self) -> dict | None:
        """{"problem", "since" (ISO time)} while tsh's file does not read; None when it does."""
        if not self.problem or self.since is None:
            return None
        return {"problem": self.problem, "since": self.since.isoformat(timespec="seconds"),
                "names_kept": self._state[0] is not None}

    def at(self, table: str, round_: str | None = None) -> str:
        """The game(s) at TABLE ("Smith, Ann - Jones, Bo"; "" when tsh does not say)."""
        tourney, games = self._state
        if not tourney or not table:
            return ""
        round1 = int(round_) if round_ and str(round_).strip().isdigit() else None
        if round1 not in games:
            games[round1] = games_at_tables(tourney, round1)
        return "; ".join(games[round1].get(str(table).strip(), []))
