"""The event's versions over time, and whether a row was judged with its table's list and rule.

The hub checks every row it holds (issue 32 item 4), whatever its station says it serves: the
row's list (its fingerprint) and its challenge rule against its table's division at the event
version in force when the row was judged. "When it was judged" is the row's own time_utc (the
station's clock, as the row recorded it) read against the hub's change times (the hub's clock,
as its journal recorded each change): a station takes a change at its next Ready and its clock
may be off by up to a minute before the hub names it (alarmlist.CLOCK_SKEW), so a row is right when
it matches the division at any version in force within GRACE of its time. A row at a table in
no division is not checked; nor is a row without a table, unless every division of the version
judges with one list and one rule (there is then no doubt which). A row without a rule (a
station older than rules) is checked for its list only.

Both the director's page (hub/board.py) and the hub journal's export (journal/export.py, which
reads the changes from the journal's hub_meta) go through check(): one answer everywhere.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import NamedTuple

from adjudicator.errors import ConfigError
from adjudicator.event.setup import Division, Event, parse_event

GRACE = timedelta(seconds=120)  # a challenge under way at a change, and a clock a minute off


@dataclass(frozen=True)
class Finding:
    """A row judged with another list or rule than its table's division used then."""

    judged_list: str  # the row's list, as it named it
    judged_rule: str | None
    other_list: bool  # False: the list is the division's, the rule is not
    division: Division  # the division as it was when the row was judged
    since: datetime  # since when the division has used that list and rule (the hub's clock)

    def text(self, at: Callable[[datetime], str]) -> str:
        """"judged with NWL2020; division B uses NWL2023 since 21:10" (AT(since) -> "21:10")."""
        d, rule = self.division, self.division.challenge_rule.value
        other_rule = self.judged_rule is not None and self.judged_rule != rule
        if not self.other_list:
            return (f"judged under rule {self.judged_rule}; division {d.name} uses rule {rule} "
                    f"since {at(self.since)}")
        if other_rule:
            return (f"judged with {self.judged_list} under rule {self.judged_rule}; division "
                    f"{d.name} uses {d.lexicon} with rule {rule} since {at(self.since)}")
        return f"judged with {self.judged_list}; division {d.name} uses {d.lexicon} since " \
               f"{at(self.since)}"


AGREES, DISAGREES, OTHER_LIST, UNCHECKED = "agrees", "disagrees", "other list", "unchecked"
SERIOUS = {DISAGREES: 0, OTHER_LIST: 1, UNCHECKED: 2, AGREES: 3}  # the lower, the worse


class Check(NamedTuple):
    """The hub's judgement of one row, kept with it in the hub journal (hub_audit)."""

    state: str  # AGREES, DISAGREES, OTHER_LIST or UNCHECKED
    why: str = ""  # in words, without the station's name (the board puts it first)
    division: str = ""
    list_name: str = ""  # the list the division had when the row was judged
    version: int = 0  # the event version the hub judged it under
    since: str = ""  # since when that division had its list and rule (UTC, the hub's clock)
    claimed: int = 0  # the version the row said it was judged under (0: none said)

    def to_json(self) -> str:
        return json.dumps(self._asdict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text) -> Check | None:
        try:
            said = json.loads(text)
            return cls(**{f: said[f] for f in cls._fields if f in said})
        except (TypeError, ValueError, KeyError, RecursionError):
            return None

    def text(self, at: Callable[[datetime], str]) -> str:
        """The flag a page shows: the WHY, its 'since' in the hub's local time."""
        when = parse_time(self.since) if self.since else None
        return self.why.replace("{since}", at(when) if when else "?")


def local_time(when: datetime) -> str:
    """The hub's local time of day, as the page's lines say it: '21:10'."""
    return when.astimezone().strftime("%H:%M")


def utc_text(when: datetime) -> str:
    return when.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


class EventHistory:
    """The event's versions, each from the time the hub took it (oldest first)."""

    def __init__(self, versions: Iterable[tuple[datetime, Event]] = ()):
        self.versions: list[tuple[datetime, Event]] = sorted(versions, key=lambda v: v[0])
        self._known: dict[tuple, object] = {}  # (version index, table) -> its division, and
        # (version index, division, claimed) -> its AGREES Check: versions only ever follow

    def division_at(self, i: int, table) -> Division | None:
        """The division playing at TABLE under version I (Event.division_for_table, kept)."""
        key = (i, table)
        if key not in self._known:
            if len(self._known) > 4096:
                self._known.clear()
            self._known[key] = self.versions[i][1].division_for_table(table)
        return self._known[key]  # type: ignore[return-value]

    def agrees_at(self, i: int, division: Division, claimed: int) -> Check:
        """A row agreeing with DIVISION under version I, as the hub keeps it."""
        key = (i, division.name, claimed, "agrees")
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = Check(
                AGREES, division=division.name, list_name=division.lexicon,
                version=self.versions[i][1].version,
                since=utc_text(self.since(i, division)), claimed=claimed)
        return found  # type: ignore[return-value]

    @classmethod
    def from_changes(cls, changes: Iterable[Mapping]) -> EventHistory:
        """From the hub journal's changes (ledger.event_changes(): when, event); a change
        that does not read as one is left out."""
        versions = []
        for change in changes:
            when = parse_time(change.get("when") if isinstance(change, Mapping) else None)
            shape = change.get("event") if isinstance(change, Mapping) else None
            if when is None or not isinstance(shape, Mapping):
                continue
            try:
                versions.append((when, parse_event(shape.get("event"), shape.get("division"))))
            except ConfigError:
                continue
        return cls(versions)

    @classmethod
    def from_meta(cls, conn) -> EventHistory | None:
        """From a hub journal's hub_meta (SQL only: the export never imports the hub); None for
        a journal that holds no event change (a station's, or a hub that ran no event)."""
        found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                             "name = 'hub_meta'").fetchone()
        if found is None:
            return None
        changes = []
        for (value,) in conn.execute("SELECT value FROM hub_meta WHERE key LIKE "
                                     "'event_change:%' ORDER BY key"):
            try:
                changes.append(json.loads(value))
            except (TypeError, ValueError, RecursionError):
                continue
        return cls.from_changes(changes) if changes else None

    @property
    def latest(self) -> Event | None:
        return self.versions[-1][1] if self.versions else None

    def note(self, event: Event | None, when: datetime) -> bool:
        """EVENT is in force from WHEN, unless it is already the latest; True when added."""
        latest = self.latest
        if event is None or event is latest or event == latest:
            return False
        self.versions.append((max(when, self.versions[-1][0]) if self.versions else when, event))
        return True

    def _index(self, when: datetime) -> int:
        """The version in force at WHEN (the first one just before it: within GRACE)."""
        return max(0, bisect_right([v[0] for v in self.versions], when) - 1)

    def check(self, table, time_utc, fingerprint, rule, lexicon_name) -> Finding | None:
        """A Finding when a row (its game_table, time_utc, fingerprint, rule, lexicon_name) was
        judged with another list or rule than its table's division at every version in force
        within GRACE of its time; None when it matches one, or nothing says which it should."""
        if not self.versions:
            return None
        when = parse_time(time_utc)
        if when is None:
            first = last = len(self.versions) - 1
        elif when + GRACE < self.versions[0][0]:
            return None  # judged before the hub had an event: nothing said which list
        else:
            first, last = self._index(when - GRACE), self._index(when + GRACE)
        rule = rule if isinstance(rule, str) and rule else None
        wrong = None
        for i in range(first, last + 1):
            division = table_division(self.versions[i][1], table)
            if division is None or not division.fingerprint:
                continue
            if division.fingerprint == fingerprint and rule in (
                    None, division.challenge_rule.value):
                return None
            wrong = (i, division)
        if wrong is None:
            return None
        i, division = wrong
        return Finding(str(lexicon_name or str(fingerprint)[:12]), rule,
                       division.fingerprint != fingerprint, division, self._since(i, division))

    def in_force(self, start: datetime | None, end: datetime) -> list[int]:
        """The versions (indexes) in force at some moment from START (None: the first) to END,
        oldest first: the one in force at START, and each taken up to END."""
        if not self.versions or end < self.versions[0][0]:
            return []
        if len(self.versions) == 1:
            return [0]
        times = [v[0] for v in self.versions]
        first = 0 if start is None else max(0, bisect_right(times, start) - 1)
        last = max(first, bisect_right(times, end) - 1)
        return list(range(first, last + 1))

    def since(self, i: int, division: Division) -> datetime:
        """When DIVISION (as at version I) took its list and rule (the hub's clock)."""
        return self._since(i, division)

    def _since(self, i: int, division: Division) -> datetime:
        """When DIVISION (as at version I) took its list and rule."""
        while i > 0:
            before = self.versions[i - 1][1].division(division.name)
            if before is None or (before.fingerprint, before.challenge_rule) != (
                    division.fingerprint, division.challenge_rule):
                break
            i -= 1
        return self.versions[i][0]


def table_division(event: Event, table) -> Division | None:
    """The division of EVENT playing at TABLE: the event's one rule (Event.division_for_table),
    the one every station asks too."""
    return event.division_for_table(table)


def parse_time(text) -> datetime | None:
    """An ISO time as an aware datetime (UTC when it names no zone); None when it is not one."""
    if isinstance(text, datetime):
        when = text
    else:
        try:
            when = datetime.fromisoformat(str(text).strip().replace("Z", "+00:00"))
        except (TypeError, ValueError):
            return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)
