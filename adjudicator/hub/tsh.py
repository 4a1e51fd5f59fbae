"""Players' names for a table, read (never written) from tsh's html/tourney.js and its `tables`.

tsh writes its whole event as `newt = {...};` in html/tourney.js (its own pages eval the file and
read `newt`). What is read here, as tsh's own page code reads it: `divisions[]`, each with `name`
and `players[]` (index 0 unused), each player with `id`, `name` ("Surname, Given"),
`pairings[r0]` (the opponent's id, 0 for a bye), `scores[r0]` and `etc.board[r0]` (the board
number); and `config.tables[division name][board - 1]`, the table a board is at (without it, the
board number is the table). Divisions that share board numbers without a `tables` setting show
every game at that table, each with its division.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping

from ..errors import ConfigError

NEWT = re.compile(r"^\s*(?:var\s+)?newt\s*=\s*", re.S)


def read_tourney(path: str) -> dict:
    """The event tsh describes in PATH (tourney.js, or a tsh event folder holding html/)."""
    if os.path.isdir(path):
        path = os.path.join(path, "html", "tourney.js")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise ConfigError(f"cannot read tsh's {path}: {e.strerror or e}") from e
    body = NEWT.sub("", text, count=1).strip().rstrip(";").strip()
    try:
        data = json.loads(body)
    except ValueError as e:
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


def current_round0(division: Mapping) -> int:
    """The round being played: the first one not every paired player has a score for."""
    counts = [len([s for s in (p.get("scores") or []) if s is not None])
              for p in (division.get("players") or [])[1:] if isinstance(p, dict)
              and not (p.get("etc") or {}).get("off")]
    return min(counts) if counts else 0


def games_at_tables(tourney: Mapping, round1: int | None = None) -> dict[str, list[str]]:
    """{table: ["Surname, Given - Surname, Given", ...]} for ROUND1 (1-based; None: each
    division's round in play). A division's name is put first when there are several."""
    config = tourney.get("config") or {}
    tables = config.get("tables") or {}
    divisions = [d for d in tourney.get("divisions") or [] if isinstance(d, dict)]
    several = len(divisions) > 1
    found: dict[str, list[str]] = {}
    for division in divisions:
        dname = str(division.get("name") or "")
        players = division.get("players") or []
        r0 = round1 - 1 if round1 else current_round0(division)
        board_tables = tables.get(dname) if isinstance(tables, dict) else None
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
            table = _at(board_tables, int(board) - 1) if board_tables else None
            table = str(table if table else board)
            opponent = players[opp_id] if isinstance(players[opp_id], dict) else {}
            game = f"{_name(p)} - {_name(opponent)}"
            found.setdefault(table, []).append(f"{dname.upper()}: {game}" if several else game)
    return found


class TshNames:
    """The names at each table, from tsh's file as it is now (read again when it changes)."""

    def __init__(self, path: str):
        self.path = path
        self._stamp = None
        self._tourney: dict | None = None
        self._games: dict = {}  # round1 -> games_at_tables(), for the file as read now
        self.problem = ""

    def _load(self) -> dict | None:
        where = self.path
        if os.path.isdir(where):
            where = os.path.join(where, "html", "tourney.js")
        try:
            st = os.stat(where)
        except OSError as e:
            self.problem = f"cannot read tsh's {where}: {e.strerror or e}"
            return self._tourney
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp != self._stamp:
            try:
                self._tourney, self.problem = read_tourney(self.path), ""
                self._games = {}
            except ConfigError as e:
                self.problem = str(e)  # the last good reading stays
            self._stamp = stamp
        return self._tourney

    def at(self, table: str, round_: str | None = None) -> str:
        """The game(s) at TABLE ("Smith, Ann - Jones, Bo"; "" when tsh does not say)."""
        tourney = self._load()
        if not tourney or not table:
            return ""
        round1 = int(round_) if round_ and str(round_).strip().isdigit() else None
        if round1 not in self._games:
            self._games[round1] = games_at_tables(tourney, round1)
        return "; ".join(self._games[round1].get(str(table).strip(), []))
