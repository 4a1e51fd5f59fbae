"""The director's Tables: one row per game table, with the stations and devices that judged there.

A table is what adjudicator/event/tables.py says: "07" and "7" are table 7, whatever other text a
station sent is a table of its own, shown as text after the numbers. Table 9 judged from two
phones is one table with two devices listed, not two tables. A challenge records its table, not
its division: where tsh's divisions share table numbers, the table's row shows each division's
game there (tsh.py), unless the stations name the table with its division ("A3", "B3": two
tables, A's and B's, each with its own division's game, a division's tables listed together).
A split look-up (the same table at two stations within a short
time) stays an alarm on the board (board.py), whatever the grouping.

No station crowds the others out (issue 41): the page lists at most MAX_SHOWN tables and
SHOWN_BYTES of them, chosen a station at a time (each station's most recent tables, by the hub's
order of arrival, never a row's own time, up to its share, then whatever room is left), shown
in table order; the rest are counted ("and 4,980 more tables"). A table's odd text is cut to
WHOLE_SHOWN characters even on hover.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from adjudicator.event import tables
from adjudicator.text.visible import visible as _visible
from adjudicator.hub.stationview import Newest

# each table's and station's whole text pictured once, not at every snapshot (one a second for
# the live feed: 1,000 odd 900-character tables cost 0.27 s a snapshot uncached, issue 33)
visible = functools.lru_cache(maxsize=4096)(_visible)

MAX_DEVICES = 12  # stations and devices listed in one table's row (more are counted)
NO_TABLE = "no table"  # the row of challenges judged at a desk that asks for no table
NAME_SHOWN = 60  # characters of a station's name listed in a table's row (the whole on hover)
WHOLE_SHOWN = 200  # characters of a table's odd text shown on hover (a table name has 16)
MAX_SHOWN = 400  # tables listed on the page (more are counted)
SHOWN_BYTES = 500_000  # bytes of JSON the tables listed may take (the page's state <= 1 MB)


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
        self.by_station: dict[str, dict[str, int]] = {}  # journal id -> table -> its latest
        self._arrivals = 0  # challenges added: the hub's order when a row names none
        self.more = 0  # tables the last snapshot left out (counted on the page)

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
        self._arrivals += 1
        self.by_station.setdefault(journal_id, {})[key] = order or self._arrivals

    def renamed(self, journal_id: str, rename: Callable[[str], str]) -> None:
        """The station journal JOURNAL_ID's station renamed: RENAME(old name) -> its new one
        (only its own tables looked at)."""
        for key in self.by_station.get(journal_id, ()):
            group = self.groups[key]
            devices: dict = {}
            for (j, n), count in group.devices.items():
                device = (j, rename(n) if j == journal_id else n)
                devices[device] = devices.get(device, 0) + count
            group.devices = devices

    def snapshot(self, shown: Callable[[Iterable], list], players: Callable[[str, str], str],
                 is_new: Callable[[str], bool]) -> list[dict]:
        """The tables as the page lists them, in table order (numbers first), at most MAX_SHOWN
        and SHOWN_BYTES of them (self.more: how many are left out); SHOWN(recent) -> the
        challenges as the page shows them, PLAYERS(table, round) -> tsh's names there,
        IS_NEW(journal id) -> whether that station waits for the director's Accept."""
        rows = self._chosen(lambda key: self._row(key, shown, players, is_new))
        self.more = len(self.groups) - len(rows)
        return [rows[key] for key in sorted(rows, key=tables.sort_key)]

    def _chosen(self, row: Callable[[str], dict]) -> dict[str, dict]:
        """The tables to list, each ROW(key): a station at a time, each its most recent table
        not chosen yet, until each has had its share of SHOWN_BYTES, then as long as room is
        left; never more than MAX_SHOWN."""
        queues = {j: sorted(keys, key=keys.__getitem__, reverse=True)
                  for j, keys in sorted(self.by_station.items()) if keys}
        at = dict.fromkeys(queues, 0)  # each station's next table in its queue
        spent = dict.fromkeys(queues, 0)
        share = SHOWN_BYTES // max(1, len(queues))
        chosen: dict[str, dict] = {}
        total = 0
        for capped in (True, False):
            turn = list(queues)
            while turn:
                for j in list(turn):
                    queue = queues[j]
                    while at[j] < len(queue) and queue[at[j]] in chosen:
                        at[j] += 1
                    if at[j] >= len(queue) or (capped and spent[j] >= share):
                        turn.remove(j)
                        continue
                    key = queue[at[j]]
                    one = row(key)
                    cost = len(json.dumps(one)) + 1
                    if total + cost > SHOWN_BYTES or len(chosen) >= MAX_SHOWN:
                        return chosen
                    chosen[key], spent[j], total = one, spent[j] + cost, total + cost
        return chosen

    def _row(self, key: str, shown: Callable[[Iterable], list],
             players: Callable[[str, str], str], is_new: Callable[[str], bool]) -> dict:
        """One table as the page lists it."""
        group = self.groups[key]
        devices = sorted(group.devices.items(), key=lambda d: (d[0][1], d[0][0]))
        return {
                "key": key, "table": tables.shown(key) or NO_TABLE,
                "whole": (visible(key[:WHOLE_SHOWN]) + ("…" if len(key) > WHOLE_SHOWN else "")
                          if tables.number(key) is None else key),
                "challenges": group.challenges, "acceptable": group.acceptable,
                "unacceptable": group.unacceptable, "last": group.last,
                "recent": shown(group.recent),
                "players": visible(division_players(players, key, group.round)),
                "devices": [{"name": tables.shown(name, NAME_SHOWN),
                             "whole": visible(name[:WHOLE_SHOWN]),
                             "challenges": n, "new": is_new(journal_id)}
                            for (journal_id, name), n in devices[:MAX_DEVICES]],
                "more_devices": max(0, len(devices) - MAX_DEVICES)}


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
