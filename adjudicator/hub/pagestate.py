"""The director's page as JSON-ready data, from the board (board.Board.snapshot).

The event at the top, the hub's count of checked verdicts, the alarms the most serious first
(each with its group and whether the director marked that group handled: handled.py),
the stations in trouble before the rest (alarmlist.py), the tables (at most what the page can
show: hub/tables.py, the rest counted in "tables_more"), the latest challenges, the waiting
panel. Whatever one station sends, the state stays about a megabyte at most (issue 41).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from adjudicator.event.history import AGREES, DISAGREES, OTHER_LIST, UNCHECKED, EventHistory
from adjudicator.text.visible import visible
from adjudicator.hub.alarmlist import (
    DISAGREED,
    OTHER,
    PRINTER_WORDS,
    UNLOCKED,
    WAITING,
    WRONG_ROWS,
    ordered,
    station_alarms,
    station_level,
    wrong_rows,
)
from adjudicator.hub.stationview import StationView, divisions_of

FROM = "_from"  # a kept challenge's station (journal id): not shown, read by shown_entries
# alarmlist's level of each finding of the hub's check
LEVELS = {DISAGREES: DISAGREED, OTHER_LIST: WRONG_ROWS, UNCHECKED: UNLOCKED}


def shown_entries(stations: Mapping[str, StationView], entries: Iterable[dict]) -> list[dict]:
    """Challenges as the page shows them: each says whether its station is new (its key not
    accepted by the director yet), so a newcomer's rows never pass for a known one's."""
    shown = []
    for entry in entries:
        view = stations.get(entry[FROM])
        shown.append({**{k: v for k, v in entry.items() if k != FROM},
                      "new": bool(view is not None and view.new)})
    return shown


def majority_fingerprint(stations: Iterable[StationView]) -> str | None:
    """The fingerprint most live stations judge with; None when they all agree."""
    prints = Counter(v.fingerprint for v in stations if v.fingerprint)
    if len(prints) < 2:
        return None
    (top, n), (_, m) = prints.most_common(2)
    return top if n > m else "(no majority)"


def page_state(board) -> dict:
    """BOARD's (board.Board) whole state for the page."""
    event = board.event_of()
    board.history.note(event, board.wall())
    majority = None if event is not None else majority_fingerprint(board.stations.values())
    wrong = wrong_rows(board.wrong_lists)
    wrong_at: dict[str, int] = {}
    for where, seen in board.wrong_lists.items():  # a row the hub could not check is not
        if seen[4] != LEVELS[UNCHECKED]:  # its station's trouble (the hub lacks a list)
            wrong_at[where[0]] = min(seen[4], wrong_at.get(where[0], seen[4]))
    now = board.clock()
    stations = []
    for view in board.stations.values():
        said = station_alarms(view, now, board.silent_after, event, majority)
        levels = [station_level(a) for a in said]
        if view.journal_id in wrong_at:
            levels.append(wrong_at[view.journal_id])
        stations.append(_station(view, said, min(levels) if levels else None, now))
    stations.sort(key=lambda s: (s["trouble"] is None, s["trouble"] or 0, s["name"], s["id"]))
    tables = board.tables.snapshot(board._shown, board._players, board._is_new)
    alarms = wrong + [{"station": s["name"], "text": a, "level": station_level(a)}
                      for s in stations for a in s["alarms"]]
    waiting = board.waiting.snapshot()
    if waiting:
        n = len(waiting)
        alarms.append({"station": "hub", "level": WAITING, "text": (
            f"{n} new station{'s wait' if n > 1 else ' waits'} for you: accept or reject "
            f"{'them' if n > 1 else 'it'} under Waiting for you"), "waiting": n})
    alarms += [{**a, "level": WAITING} for a in board.refusals.alarms(board.waiting)]
    alarms += board.flagged.alarms(OTHER)
    checks = board.checks
    return {"version": board.version, "time": board.wall().isoformat(timespec="seconds"),
            "event": _event_summary(event, board.history),
            "checked": {"rows": sum(checks.values()), "agree": checks[AGREES],
                        "disagree": checks[DISAGREES], "other_list": checks[OTHER_LIST],
                        "unchecked": checks[UNCHECKED]},
            "stations": stations, "tables": tables, "tables_more": board.tables.more,
            "latest": shown_entries(board.stations, board.latest),
            "alarms": board.handled.annotate(ordered(alarms)), "waiting": waiting,
            "tsh": board.names_warning() if board.names_warning else None}


def _station(view: StationView, said: list[str], trouble: int | None, now: float) -> dict:
    """One station as the page lists it (TROUBLE: alarmlist's level of its worst alarm)."""
    return {
        "id": view.journal_id, "name": visible(view.name[:60] or view.journal_id[:8]),
        "mode": view.mode, "challenges": view.challenges,
        "lexicon": view.lexicon, "fingerprint": view.fingerprint[:12],
        "lists": [{"division": visible(e.division), "lexicon": visible(e.lexicon),
                   "fingerprint": e.fingerprint[:12], "rule": visible(e.rule)}
                  for e in view.lists],
        "division": visible(divisions_of(view)),
        "printer": PRINTER_WORDS.get(view.printer, view.printer) or "none",
        "last_seq": view.last_seq, "acked": view.acked, "alarms": said, "trouble": trouble,
        "seen": None if view.last_beat is None else round(now - view.last_beat),
        "key": view.key_id, "new": view.new, "address": view.address, "joined": view.joined,
        "heard": None if view.heard is None else view.heard.isoformat(timespec="seconds"),
    }


def _event_summary(event, history: EventHistory) -> dict | None:
    """The top of the page: the event's name, version, and each division's list and rule."""
    if event is None:
        return None
    return {"name": event.name, "version": event.version,
            "divisions": [{"name": d.name, "lexicon": d.lexicon,
                           "fingerprint": d.fingerprint[:12], "rule": d.challenge_rule.value,
                           "tables": d.tables_text} for d in event.divisions]}
