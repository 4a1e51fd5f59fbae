"""The director's alarms as one list: each once, counted, the most serious first (issue 33 item 1).

Levels, most serious first: a row judged with another list or rule than its table's division's
(event/history.py), a station on another list, rule or event version, a silent station, one not
locked, stations waiting for the director (and requests refused), then the rest (printer,
backlog, clock, flagged challenges). A challenge's flags are counted per table and kind ("possible
split look-up" at table 12: one line with its count), never one line a challenge (kept.py keeps
them, each station in its own room). Each alarm
goes when its cause ends: the board builds the list again from what holds now.
"""

from __future__ import annotations

import json
import re

from adjudicator.event.setup import Event
from adjudicator.event.tables import shown
from adjudicator.text.visible import visible
from adjudicator.hub.eventalarms import event_alarms
from adjudicator.hub.stationview import StationView

WRONG_ROWS, WRONG_LIST, SILENT, UNLOCKED, WAITING, OTHER = range(6)
DISAGREED = -1  # the hub judged a row's words otherwise than its station: above all else
CLOCK_SKEW = 60.0  # seconds a station's clock may differ from the hub's before it is named
PRINTER_WORDS = {"paper out": "out of paper"}  # docket/status.py's phrase -> the page's
PRINTER_FINE = ("", "ready", "ok", "none", "no printer")
WORDS_SHOWN = 200  # characters of a challenge's words shown (8 words of 15 letters fit)
FLAGS_SHOWN = 8  # flags shown per challenge (more are counted), each cut at WORDS_SHOWN
FLAG_CHARS = 600  # characters of a challenge's flags shown in all (more flags are counted)
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
        said.append(f"clock {'ahead' if view.skew > 0 else 'behind'} by {skew_words(view.skew)}")
    return said


def skew_words(seconds: float) -> str:
    """A clock's error as a director reads it: '14 h 23 min', '5 min', '1 day 2 h', never
    '51800 s' (a time zone set wrong shows as whole hours at a glance)."""
    n = round(abs(seconds))
    days, rest = divmod(n, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} day{'s' if days > 1 else ''}" + (f" {hours} h" if hours else "")
    if hours:
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    if minutes >= 10 or not secs:
        return f"{minutes} min"
    return f"{minutes} min {secs} s"


def flags_of(value) -> list[str]:
    """A row's flags (the journal's JSON text, or a list) as texts; unreadable ones said so."""
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    try:
        return [str(v) for v in json.loads(value or "[]")]
    except (TypeError, ValueError, RecursionError):
        return ["flags unreadable"]


def shown_flags(flags: list[str]) -> list[str]:
    """A challenge's flags as the page lists them: at most FLAGS_SHOWN and FLAG_CHARS in all,
    each cut, made visible; the rest counted."""
    said, chars = [], 0
    for f in flags[:FLAGS_SHOWN]:
        if said and chars + min(len(f), WORDS_SHOWN) > FLAG_CHARS:
            break
        said.append(shown(_flag_words(f), WORDS_SHOWN))
        chars += min(len(f), WORDS_SHOWN)
    if len(flags) > len(said):
        said.append(f"{len(flags) - len(said)} more flags")
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


def alarm_kind(text: str) -> str:
    """What kind of alarm TEXT is, its details left out: "printer: out of paper" -> "printer",
    "backlog 12" -> "backlog", "clock ahead by 5 min" -> "clock ahead", "possible split look-up
    (table 9 ...)" and "possible split look-up: 3 challenges" -> "possible split look-up"."""
    head = re.sub(r"^\d+\s+", "", text.split(":", 1)[0].split(" (", 1)[0].split(",", 1)[0])
    head = re.sub(r"\s+(by|at|for|with|under)\s.*$|\s+\d.*$", "", head).strip()
    return head[:60] or "alarm"


def group_of(alarm: dict) -> str:
    """The group an alarm is listed in (and marked handled by): its kind and its station."""
    return f"{alarm_kind(str(alarm.get('text', '')))}\t{alarm.get('station', '')}"
