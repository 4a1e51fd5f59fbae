"""The director's Tables: one row per game table, with the stations and devices that judged there.

A table is what adjudicator/tables.py says: "07" and "7" are table 7, whatever other text a
station sent is a table of its own, shown as text after the numbers. Table 9 judged from two
phones is one table with two devices listed, not two tables. A challenge records its table, not
its division: where tsh's divisions share table numbers, the table's row shows each division's
game there (tsh.py), unless the stations name the table with its division ("A3", "B3": two
tables, A's and B's, each with its own division's game, a division's tables listed together).
A split look-up (the same table at two stations within a short
time) stays an alarm on the board (board.py), whatever the grouping.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from .. import tables
from ..visible import visible as _visible
from .stationview import Newest

# each table's and station's whole text pictured once, not at every snapshot (one a second for
# the live feed: 1,000 odd 900-character tables cost 0.27 s a snapshot uncached, issue 33)
visible = functools.lru_cache(maxsize=4096)(_visible)

MAX_DEVICES = 12  # stations and devices listed in one table's row (more are counted)
NO_TABLE = "no table"  # the row of challenges judged at a desk that asks for no table
NAME_SHOWN = 60  # characters of a station's name listed in a table's row (the whole on hover)


@dataclass
class TableGroup:
    """One game table: challenges, the two verdict counts, who judged there."""

    recent: Newest  # the table's latest challenges, newest first
    challenges: int = 0
    acceptable: int = 0
    unacceptable: int = 0
    last: str = ""  # the time of its latest challenge, as the row said it
    last_when: datetime | None = None
    round: str = ""  # the round of its latest challenge, when the station knew it
    devices: dict = field(default_factory=dict)  # (journal id, station name) -> challenges


class TableBook:
    """Every table challenged at, grouped by table (tables.group_key)."""

    def __init__(self, recent: Callable[[], Newest]):
        """RECENT() -> an empty list of a table's latest challenges (board.Newest)."""
        self.recent = recent
        self.groups: dict[str, TableGroup] = {}

    def add(self, journal_id: str, name: str, row, when: datetime | None, entry: dict,
            order: int = 0) -> None:
        """One challenge (hub journal ROW, judged WHEN, shown as ENTRY, received as the hub
        journal's row ORDER) at its table."""
        key = tables.group_key(row.get("game_table"))
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = TableGroup(self.recent())
        group.challenges += 1
        if row["acceptable"]:
            group.acceptable += 1
        else:
            group.unacceptable += 1
        if group.last_when is None or (when and when >= group.last_when):
            group.last, group.last_when = str(row["time_utc"]), when
            group.round = str(row.get("round") or "")
        device = (journal_id, name)
        group.devices[device] = group.devices.get(device, 0) + 1
        group.recent.add(order, entry)

    def renamed(self, journal_id: str, rename: Callable[[str], str]) -> None:
        """The station journal JOURNAL_ID's station renamed: RENAME(old name) -> its new one."""
        for group in self.groups.values():
            devices: dict = {}
            for (j, n), count in group.devices.items():
                device = (j, rename(n) if j == journal_id else n)
                devices[device] = devices.get(device, 0) + count
            group.devices = devices

    def snapshot(self, shown: Callable[[Iterable], list], players: Callable[[str, str], str],
                 is_new: Callable[[str], bool]) -> list[dict]:
        """The tables as the page lists them, in table order (numbers first); SHOWN(recent) ->
        the challenges as the page shows them, PLAYERS(table, round) -> tsh's names there,
        IS_NEW(journal id) -> whether that station waits for the director's Accept."""
        rows = []
        for key in sorted(self.groups, key=tables.sort_key):
            group = self.groups[key]
            devices = sorted(group.devices.items(), key=lambda d: (d[0][1], d[0][0]))
            rows.append({
                "key": key, "table": tables.shown(key) or NO_TABLE,
                "whole": visible(key) if tables.number(key) is None else key,
                "challenges": group.challenges, "acceptable": group.acceptable,
                "unacceptable": group.unacceptable, "last": group.last,
                "recent": shown(group.recent),
                "players": visible(division_players(players, key, group.round)),
                "devices": [{"name": tables.shown(name, NAME_SHOWN), "whole": visible(name),
                             "challenges": n, "new": is_new(journal_id)}
                            for (journal_id, name), n in devices[:MAX_DEVICES]],
                "more_devices": max(0, len(devices) - MAX_DEVICES)})
        return rows


def division_players(players: Callable[[str, str], str], table: str, round_: str) -> str:
    """PLAYERS(table, round) for TABLE; for a table named by its division ("A3"), the games
    tsh has at table 3 in division A (tsh.py starts each with "A: " when there are several)."""
    found = players(table, round_)
    named = tables.division_table(table) if not found else None
    if named is None:
        return found
    division = named[0].strip().upper() + ": "
    games = players(str(named[1]), round_).split("; ")
    return "; ".join(g for g in games if g.startswith(division))
