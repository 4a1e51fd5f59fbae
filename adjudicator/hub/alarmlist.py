"""The director's alarms as one list: each once, counted, the most serious first (issue 33 item 1).

Levels, most serious first: a row judged with another list or rule than its table's division's
(event_history.py), a station on another list, rule or event version, a silent station, one not
locked, stations waiting for the director (and requests refused), then the rest (printer,
backlog, clock, flagged challenges). A challenge's flags are counted per table and kind ("possible
split look-up" at table 12: one line with its count), never one line a challenge. Each alarm
goes when its cause ends: the board builds the list again from what holds now.
"""

from __future__ import annotations

import json

from ..event import Event
from ..tables import shown
from ..visible import visible
from .eventalarms import event_alarms
from .identity import base_name
from .stationview import StationView

WRONG_ROWS, WRONG_LIST, SILENT, UNLOCKED, WAITING, OTHER = range(6)
DISAGREED = -1  # the hub judged a row's words otherwise than its station: above all else
MAX_FLAG_LINES = 100  # tables and kinds of flag counted (the oldest goes)
NAMES_KEPT = 4  # stations named in one counted line
CLOCK_SKEW = 60.0  # seconds a station's clock may differ from the hub's before it is named
PRINTER_WORDS = {"paper out": "out of paper"}  # docket/status.py's phrase -> the page's
PRINTER_FINE = ("", "ready", "ok", "none", "no printer")
WORDS_SHOWN = 200  # characters of a challenge's words shown (8 words of 15 letters fit)
FLAGS_SHOWN = 8  # flags shown per challenge (more are counted), each cut at WORDS_SHOWN
RECHECK_FLAGS = ("rechecks differ: director to decide",)


def station_alarms(view: StationView, now: float, silent_after: float, event: Event | None,
                   majority: str | None) -> list[str]:
    """One station's alarms, in words: silent after SILENT_AFTER s (monotonic NOW), the
    event's alarms for it (else a list other than the MAJORITY's), its printer, its rows, its
    sender, its backlog, its clock."""
    said = []
    if view.last_beat is None or now - view.last_beat > silent_after:
        said.append("silent")
    if event is not None:
        said += event_alarms(view, event, now)
    elif majority and view.fingerprint and view.fingerprint != majority:
        said.append("lexicon mismatch")
    state = view.printer.strip().lower()
    if state not in PRINTER_FINE:
        state = state.removeprefix("printer ").strip()
        said.append(f"printer: {PRINTER_WORDS.get(state, state)}")
    if view.refused:
        said.append(f"rows refused: {view.refused}")
    if view.sender:
        said.append(f"sender: {view.sender}")
    backlog = view.last_seq - view.acked
    if backlog > 0:
        said.append(f"backlog {backlog}")
    if abs(view.skew) > CLOCK_SKEW:
        said.append(f"clock {'ahead' if view.skew > 0 else 'behind'} by {abs(view.skew):.0f} s")
    return said


def flags_of(value) -> list[str]:
    """A row's flags (the journal's JSON text, or a list) as texts; unreadable ones said so."""
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    try:
        return [str(v) for v in json.loads(value or "[]")]
    except (TypeError, ValueError, RecursionError):
        return ["flags unreadable"]


def shown_flags(flags: list[str]) -> list[str]:
    """A challenge's flags as the page lists them: at most FLAGS_SHOWN, each cut, made visible."""
    said = [shown(_flag_words(f), WORDS_SHOWN) for f in flags[:FLAGS_SHOWN]]
    if len(flags) > FLAGS_SHOWN:
        said.append(f"{len(flags) - FLAGS_SHOWN} more flags")
    return said


def _flag_words(flag: str) -> str:
    return "recheck differs" if flag in RECHECK_FLAGS else flag


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
            seen[0] = list(dict.fromkeys(rename(x) if base_name(x) == old else x
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
    """Board.wrong_lists as alarms, the latest the hub took first (its own order, never a row's
    time): the station, the table, both lists, a count."""
    said = []
    for (_, table, *_rest), (name, text, time, n, level, order) in sorted(
            wrong_lists.items(), key=lambda item: item[1][5], reverse=True):
        said.append({"station": visible(name[:60]), "table": shown(table) or "-",
                     "text": text + (f" ({n} challenges)" if n > 1 else ""), "time": time,
                     "count": n, "level": level})
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
