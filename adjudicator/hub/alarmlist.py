"""The director's alarms as one list: each once, counted, the most serious first (issue 33 item 1).

Levels, most serious first: a row judged with another list or rule than its table's division's
(event_history.py), a station on another list, rule or event version, a silent station, one not
locked, stations waiting for the director (and requests refused), then the rest (printer,
backlog, clock, flagged challenges). A challenge's flags are counted per table and kind ("possible
split look-up" at table 12: one line with its count), never one line a challenge. Each alarm
goes when its cause ends: the board builds the list again from what holds now.
"""

from __future__ import annotations

from ..tables import shown
from ..visible import visible

WRONG_ROWS, WRONG_LIST, SILENT, UNLOCKED, WAITING, OTHER = range(6)
MAX_FLAG_LINES = 100  # tables and kinds of flag counted (the oldest goes)
NAMES_KEPT = 4  # stations named in one counted line


def station_level(text: str) -> int:
    """How serious one of a station's alarms is (board.alarms' words)."""
    if text.startswith(("judges ", "runs event version", "serves division", "lexicon mismatch")):
        return WRONG_LIST
    if text == "silent":
        return SILENT
    if text.startswith("not locked"):
        return UNLOCKED
    return OTHER


def flag_kind(flag: str) -> str:
    """A flag's kind: its words before any detail in brackets."""
    return flag.split(" (", 1)[0].strip() or flag


class FlagCounts:
    """Flagged challenges counted per table and kind of flag."""

    def __init__(self):
        self.lines: dict[tuple[str, str], list] = {}  # (kind, table) -> [names, n, time, flag]

    def add(self, flags, table: str, station: str, time: str) -> None:
        """A challenge's FLAGS (as the page shows them) at TABLE, judged by STATION at TIME."""
        for flag in {flag_kind(f): f for f in flags}.values():
            where = (flag_kind(flag), table)
            seen = self.lines.get(where)
            if seen is None:
                if len(self.lines) >= MAX_FLAG_LINES:
                    del self.lines[min(self.lines, key=lambda k: self.lines[k][2])]
                seen = self.lines[where] = [[], 0, "", flag]
            if station not in seen[0]:
                seen[0] = (seen[0] + [station])[-NAMES_KEPT:]
            seen[1] += 1
            seen[2] = max(seen[2], str(time))

    def renamed(self, old: str, rename) -> None:
        """A station renamed: its names (OLD, a phone's "OLD / device") as RENAME makes them."""
        for seen in self.lines.values():
            seen[0] = list(dict.fromkeys(rename(x) if x.partition(" / ")[0] == old else x
                                         for x in seen[0]))

    def alarms(self) -> list[dict]:
        said = []
        for (kind, table), (names, n, time, flag) in self.lines.items():
            who = " and ".join(visible(x[:60]) for x in names)
            said.append({"station": visible(names[-1][:60]) if names else "",
                         "text": flag if n == 1 else f"{kind}: {n} challenges"
                         + (f" ({who})" if len(names) > 1 else ""),
                         "table": shown(table), "time": time, "count": n, "level": OTHER})
        said.sort(key=lambda a: a["time"], reverse=True)
        return said


def wrong_rows(wrong_lists: dict) -> list[dict]:
    """Board.wrong_lists as alarms, newest first: the station, the table, both lists, a count."""
    said = []
    for (_, table, *_rest), (name, text, time, n) in wrong_lists.items():
        said.append({"station": visible(name[:60]), "table": shown(table) or "-",
                     "text": text + (f" ({n} challenges)" if n > 1 else ""), "time": time,
                     "count": n, "level": WRONG_ROWS})
    said.sort(key=lambda a: a["time"], reverse=True)
    return said


def ordered(alarms: list[dict]) -> list[dict]:
    """ALARMS, each once, the most serious first (the order within a level kept)."""
    seen, said = set(), []
    for a in sorted(alarms, key=lambda a: a.get("level", OTHER)):
        where = (a.get("station"), a.get("table"), a["text"])
        if where not in seen:
            seen.add(where)
            said.append(a)
    return said
