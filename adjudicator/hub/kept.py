"""What the board keeps of each station's rows as counted alarms, so no station crowds another out.

Issue 41: one accepted station sending rows dated 2099, at hundreds of tables, with hundreds of
kinds of flag, pushed another station's alarms off the page, since the page kept 100 or 200
lines in all and dropped the oldest by the row's own time. Now each station has its own room:
MAX_WRONG lines of the hub's findings about its rows (Board.wrong_lists) and MAX_FLAG_LINES of
its flags, counted per table and kind. When a station's room is full, its least serious line
goes, then its oldest in the hub's own order of arrival (a count the hub keeps, never a row's
time); another station's lines are never touched. The page lists them the latest first, in
that same order.
"""

from __future__ import annotations

from adjudicator.event.tables import shown
from adjudicator.text.visible import visible
from adjudicator.hub.identity import base_name

MAX_WRONG = 20  # counted alarms of the hub's findings kept per station
MAX_FLAG_LINES = 20  # tables and kinds of flag counted per station
NAMES_KEPT = 4  # stations named in one counted line
SERIOUS_FLAGS = ("possible split look-up", "recheck differs", "the hub's check")  # kept first


def keep_wrong(wrong_lists: dict, where: tuple, name: str, said: str, time_utc: str,
               level: int, order: int) -> None:
    """One alarm in WRONG_LISTS (Board.wrong_lists: WHERE -> [name, said, time, count, level,
    order]) for each station (WHERE[0]), table and finding, counted; MAX_WRONG kept per
    station (its least serious, then the oldest the hub took, goes); ORDER: the hub's count."""
    seen = wrong_lists.get(where)
    if seen is None:
        mine = [k for k in wrong_lists if k[0] == where[0]]
        if len(mine) >= MAX_WRONG:
            del wrong_lists[max(mine, key=lambda k: (wrong_lists[k][4], -wrong_lists[k][5]))]
        seen = wrong_lists[where] = [name, said, time_utc, 0, level, 0]
    seen[1], seen[2], seen[3], seen[5] = said, time_utc, seen[3] + 1, order


def flag_kind(flag: str) -> str:
    """A flag's kind: its words before any detail in brackets."""
    return flag.split(" (", 1)[0].strip() or flag


class FlagCounts:
    """Flagged challenges counted per station, table and kind of flag (MAX_FLAG_LINES kept per
    station); the page's alarms add up each table and kind over the stations."""

    def __init__(self):
        # (journal id, kind, table) -> [names, count, row time, flag, order]
        self.lines: dict[tuple[str, str, str], list] = {}
        self._mine: dict[str, int] = {}  # journal id -> its lines
        self._order = 0

    def add(self, flags, table: str, station: str, time: str, journal_id: str = "") -> None:
        """A challenge's FLAGS (as the page shows them) at TABLE, judged by STATION (of station
        journal JOURNAL_ID) at TIME (the row's own: shown, never used to order)."""
        for flag in {flag_kind(f): f for f in flags}.values():
            self._order += 1
            where = (journal_id, flag_kind(flag), table)
            seen = self.lines.get(where)
            if seen is None:
                if self._mine.get(journal_id, 0) >= MAX_FLAG_LINES:
                    self._drop_one(journal_id)
                seen = self.lines[where] = [[], 0, "", flag, 0]
                self._mine[journal_id] = self._mine.get(journal_id, 0) + 1
            if station not in seen[0]:
                seen[0] = (seen[0] + [station])[-NAMES_KEPT:]
            seen[1] += 1
            seen[2], seen[4] = str(time), self._order

    def _drop_one(self, journal_id: str) -> None:
        """JOURNAL_ID's least serious line goes, the oldest the hub took of them first."""
        mine = [k for k in self.lines if k[0] == journal_id]
        gone = min(mine, key=lambda k: (k[1].startswith(SERIOUS_FLAGS), self.lines[k][4]))
        del self.lines[gone]
        self._mine[journal_id] -= 1

    def forget(self, journal_id: str) -> None:
        """A station gone from the board: its lines go."""
        for where in [w for w in self.lines if w[0] == journal_id]:
            del self.lines[where]
        self._mine.pop(journal_id, None)

    def renamed(self, old: str, rename) -> None:
        """A station renamed: its names (OLD, a phone's "OLD / device") as RENAME makes them."""
        for seen in self.lines.values():
            seen[0] = list(dict.fromkeys(rename(x) if base_name(x) == old else x
                                         for x in seen[0]))

    def alarms(self, level: int) -> list[dict]:
        """One alarm a table and kind, its stations' counts added up, at LEVEL; the latest the
        hub took first."""
        merged: dict[tuple[str, str], list] = {}
        for (_, kind, table), (names, n, time, flag, order) in self.lines.items():
            line = merged.get((kind, table))
            if line is None:
                merged[(kind, table)] = [list(names), n, time, flag, order]
                continue
            line[0] = list(dict.fromkeys(line[0] + names))[-NAMES_KEPT:]
            line[1] += n
            if order > line[4]:
                line[2], line[3], line[4] = time, flag, order
        said = []
        for (kind, table), (names, n, time, flag, order) in sorted(
                merged.items(), key=lambda item: item[1][4], reverse=True):
            who = " and ".join(visible(x[:60]) for x in names)
            said.append({"station": visible(names[-1][:60]) if names else "",
                         "text": flag if n == 1 else f"{kind}: {n} challenges"
                         + (f" ({who})" if len(names) > 1 else ""),
                         "table": shown(table), "time": time, "count": n, "level": level})
        return said
