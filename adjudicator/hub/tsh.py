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

import asyncio
import os
import re
import stat
import sys
import threading
from collections.abc import Callable, Mapping
from datetime import datetime, timezone

from adjudicator.errors import ConfigError
from adjudicator.hub.jsliteral import JSLiteralError, parse_assignment

MAX_BYTES = 16 * 1024 * 1024  # tsh's file for a 400-player, 31-round event is about 1 MB
CHUNK = 1 << 20  # bytes read at a time (the stop event looked at between them)
NAME_CHARS = 100  # a player's, a division's or a table's name longer than this is cut
ROUNDS_KEPT = 64  # rounds whose tables are kept worked out (a station may name any round)
if sys.platform == "win32":  # its bytes as they are (no CRLF or Ctrl-Z text mode), not inherited
    READ_FLAGS = os.O_RDONLY | os.O_BINARY | os.O_NOINHERIT
else:  # a pipe or a device never waited on, and never made the controlling terminal
    READ_FLAGS = (os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
                  | getattr(os, "O_NOCTTY", 0))


def tourney_path(path: str) -> str:
    """tsh's tourney.js for PATH (the file itself, or a tsh event folder holding html/)."""
    return os.path.join(path, "html", "tourney.js") if os.path.isdir(path) else path


def read_tourney(path: str, stop: threading.Event | None = None) -> dict:
    """The event tsh describes in PATH (tourney.js, or a tsh event folder holding html/); a
    ConfigError saying why not, in bounded time and memory, whatever is there (a pipe or a
    device is never waited on). STOP: set, the reading ends at once (a ConfigError)."""
    path = tourney_path(path)
    try:
        fd = os.open(path, READ_FLAGS)
    except OSError as e:
        raise ConfigError(f"cannot read tsh's {path}: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ConfigError(f"{path} is not tsh's tourney.js: not a plain file (a pipe, a "
                              "device or a socket?)")
        if st.st_size > MAX_BYTES:
            raise ConfigError(f"{path} is not tsh's tourney.js: larger than "
                              f"{MAX_BYTES >> 20} MB")
        chunks, size = [], 0
        while size <= MAX_BYTES:
            if stop is not None and stop.is_set():
                raise ConfigError(f"{path}: not read to the end: the hub is stopping")
            chunk = os.read(fd, min(CHUNK, MAX_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise ConfigError(f"cannot read tsh's {path}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if size > MAX_BYTES:
        raise ConfigError(f"{path} is not tsh's tourney.js: larger than {MAX_BYTES >> 20} MB")
    raw = b"".join(chunks)
    del chunks
    try:
        data = parse_assignment(raw, stop=stop)
    except JSLiteralError as e:
        raise ConfigError(f"{path} is not tsh's tourney.js (newt = {{...}}): {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("divisions"), list):
        raise ConfigError(f"{path} is not tsh's tourney.js: no divisions in it")
    return data


def _dict(value) -> Mapping:
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _name(player: Mapping) -> str:
    name = player.get("name")
    return re.sub(r",\s*$", "", name[:NAME_CHARS]) if isinstance(name, str) and name else "?"


def _at(values, r0: int):
    if isinstance(values, list) and 0 <= r0 < len(values):
        return values[r0]
    return None


def _paired(player, r0: int) -> bool:
    opp = _at(player.get("pairings"), r0)
    return _int(opp) and opp > 0


def current_round0(division: Mapping) -> int:
    """The round being played (0-based): the first one not every player has a score for; once
    every paired round is scored (the event is over, or the next round is not paired yet), the
    last round with pairings, whose players are the last ones at each table."""
    active = [p for p in _list(division.get("players"))[1:] if isinstance(p, dict)
              and not _dict(p.get("etc")).get("off")]
    counts = [len([s for s in _list(p.get("scores")) if s is not None]) for p in active]
    r0 = min(counts) if counts else 0
    last_paired = max((r for p in active for r in range(len(_list(p.get("pairings"))))
                       if _paired(p, r)), default=-1)
    return last_paired if 0 <= last_paired < r0 else r0


def games_at_tables(tourney: Mapping, round1: int | None = None) -> dict[str, list[str]]:
    """{table: ["Surname, Given - Surname, Given", ...]} for ROUND1 (1-based; None: each
    division's round in play). A division's name is put first when there are several. Any
    value of another type than tsh writes is passed over (the file is not trusted)."""
    tables = _dict(_dict(tourney.get("config")).get("tables"))
    divisions = [d for d in _list(tourney.get("divisions")) if isinstance(d, dict)]
    several = len(divisions) > 1
    found: dict[str, list[str]] = {}
    for division in divisions:
        dname = division.get("name")  # a number in some real files (SPC's division 1)
        dname = str(dname)[:NAME_CHARS] if isinstance(dname, (str, int, float)) else ""
        players = _list(division.get("players"))
        r0 = round1 - 1 if round1 else current_round0(division)
        board_tables = _list(tables.get(dname))
        seen = set()
        for index, p in enumerate(players[1:], 1):
            if not isinstance(p, dict):
                continue
            opp_id = _at(p.get("pairings"), r0)
            board = _at(_dict(p.get("etc")).get("board"), r0)
            if not _int(opp_id) or not 0 < opp_id < len(players) or not board:
                continue  # a bye, no pairing yet, or no board assigned
            pair = frozenset((index, opp_id))
            if pair in seen:
                continue
            seen.add(pair)
            if not _int(board) or board < 1:
                continue  # not a board number tsh would write
            table = _at(board_tables, board - 1)
            table = str(table if table and (_int(table) or isinstance(table, str)) else board)
            game = f"{_name(p)} - {_name(_dict(players[opp_id]))}"
            found.setdefault(table[:NAME_CHARS], []).append(
                f"{dname.upper()}: {game}" if several else game)
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
        self.stopping = threading.Event()  # set: a reading under way ends at once
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
                tourney = read_tourney(self.path, self.stopping)
            except ConfigError as e:
                self._stamp = None if self.stopping.is_set() else stamp
                return self._failed(str(e))
            except Exception as e:  # noqa: BLE001 - whatever the file holds: the warning
                self._stamp = stamp
                return self._failed(f"{tourney_path(self.path)} is not tsh's tourney.js "
                                    f"({type(e).__name__})")
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
        given = str(round_ or "").strip()
        round1 = int(given) if re.fullmatch(r"[0-9]{1,4}", given) and int(given) else None
        if round1 not in games:
            if len(games) >= ROUNDS_KEPT:
                games.clear()
            try:
                games[round1] = games_at_tables(tourney, round1)
            except Exception:  # noqa: BLE001 - a file no check foresaw: no names, no 500
                games[round1] = {}
        return "; ".join(games[round1].get(str(table).strip(), []))


async def refreshed(names: TshNames) -> bool:
    """NAMES.refresh() on a daemon thread of its own, awaited: a stop never waits for it (its
    reading ends at once when names.stopping is set), and it never fails (the warning says)."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()

    def settle(changed: bool) -> None:
        if not done.done():
            done.set_result(changed)

    def run() -> None:
        try:
            changed = names.refresh()
        except BaseException:  # noqa: BLE001 - refresh() says its own problems
            changed = False
        try:
            loop.call_soon_threadsafe(settle, changed)
        except RuntimeError:
            pass  # the loop has closed: the hub stopped meanwhile

    threading.Thread(target=run, name="hub-tsh", daemon=True).start()
    return await done
