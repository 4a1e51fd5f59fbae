"""The event as the director sets it up once: its name, its divisions (list, rule, tables), its PIN.

One shape for the hub's config (hub.toml), a station's config (written by `adjudicator join`) and
the wire between them (the hub's answers carry it; wire.py checks it as it checks rows): every
division names its list by name and pins it by fingerprint, has a challenge rule (WESPA 3.10.13)
and the tables it plays at. A table belongs to at most one division; a station given no division
at an event whose divisions use different lists asks for the table first and judges with that
table's division's list (never a guess).

    [event]
    name = "Club Open 2026"
    pin_hash = "scrypt$..."          # adjudicator set-pin --config hub.toml
    [[division]]
    name = "A"
    lexicon = "CSW19"                # a name on the shelf, or a file
    fingerprint = "..."              # pinned (the hub fills it in; optional when hand-written)
    challenge_rule = "5-per-word"
    tables = "1-20"                  # "1-20, 25, 30-32"; "" = every table not another's
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from adjudicator.errors import ConfigError
from adjudicator.judging.rules import ChallengeRule
from adjudicator.event.tables import as_read, division_table, number

MAX_DIVISIONS = 26
MAX_NAME = 40  # characters of an event's or a division's name
MAX_TABLE_NAME = 20  # characters of a table read for its division's name ("A3", "B 12")
HEX64 = re.compile(r"[0-9a-f]{64}\Z")
DIVISION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,15}\Z")
RANGE = re.compile(r"\s*([0-9]{1,4})\s*(?:-\s*([0-9]{1,4})\s*)?\Z", re.ASCII)


class EventError(ConfigError):
    """An event that cannot be run as written (exit 6, one line naming the key)."""


@dataclass(frozen=True)
class Division:
    """One division: the list it judges with, its challenge rule, the tables it plays at."""

    name: str
    lexicon: str  # a list's name (CSW19) or, in a hand-written config, a file
    challenge_rule: ChallengeRule = ChallengeRule.WORD5
    tables: tuple[tuple[int, int], ...] = ()  # inclusive ranges; () = every table not another's
    fingerprint: str = ""  # the list's fingerprint, pinned ("" = not pinned yet)

    def has_table(self, table: str) -> bool:
        n = number(table)
        return n is not None and any(low <= n <= high for low, high in self.tables)

    @property
    def tables_text(self) -> str:
        return ", ".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in self.tables)


@dataclass(frozen=True)
class Event:
    """The event: name, divisions (at least one when the event is set), the director's PIN."""

    name: str = ""
    divisions: tuple[Division, ...] = ()
    pin_hash: str = ""
    version: int = 0  # the hub's count of changes (a station takes a higher one only)

    def division(self, name: str) -> Division | None:
        return next((d for d in self.divisions if d.name.casefold() == name.casefold()), None)

    def served_by(self, names: tuple[str, ...]) -> tuple[Division, ...]:
        """The divisions a station naming NAMES serves: the named ones this event still has,
        else every division (a station naming none, or only divisions dropped, serves all)."""
        named = tuple(d for d in (self.division(n) for n in names) if d is not None)
        return named or self.divisions

    def division_for_table(self, table) -> Division | None:
        """THE rule for a table's division, asked by every station (lists.py) and by the hub's
        audit (event/history.py), so both ends give one answer (issue 40 item 5).

        TABLE as people read it (tables.as_read: "１２" and "12" + U+200B are 12): a number
        (ASCII digits, tables.number) is the division whose ranges hold it; a division's name
        and a number ("A3", "B 12") is that division; anything else (a number outside every
        range, "Top table") is the only division with no ranges, else the only division. No
        table: the only division, or the first when every division judges alike (one list, one
        rule). None when nothing says which (a station asks for the table; the hub says it
        cannot tell)."""
        text = as_read(table)
        if not text:
            alike = {(d.fingerprint or d.lexicon, d.challenge_rule) for d in self.divisions}
            return self.divisions[0] if len(alike) == 1 else None
        if number(text) is not None:
            held = next((d for d in self.divisions if d.has_table(text)), None)
            if held is not None:
                return held
        elif len(text) <= MAX_TABLE_NAME:
            named = division_table(text)
            found = self.division(named[0]) if named is not None else None
            if found is not None:
                return found
        open_ = [d for d in self.divisions if not d.tables]
        if len(open_) == 1:
            return open_[0]
        return self.divisions[0] if len(self.divisions) == 1 else None

    @property
    def one_list(self) -> bool:
        """True when every division judges with the same list (no table needed to choose)."""
        return len({(d.lexicon, d.fingerprint) for d in self.divisions}) <= 1


def parse_tables(text: str, where: str = "tables") -> tuple[tuple[int, int], ...]:
    """'1-20, 25' -> ((1, 20), (25, 25)); EventError naming WHERE for anything else."""
    if not isinstance(text, str):
        raise EventError(f'{where}: must be table numbers in quotes, e.g. "1-20, 25"')
    ranges = []
    for part in filter(str.strip, text.split(",")):
        found = RANGE.match(part)
        low = int(found.group(1)) if found else 0
        high = int(found.group(2) or low) if found else 0
        if not found or not 1 <= low <= high <= 9999:
            raise EventError(f"{where}: {part.strip()!r} is not a table or a range of tables "
                             '(numbers 1-9999, e.g. "1-20, 25")')
        ranges.append((low, high))
    return tuple(sorted(ranges))


def parse_event(event: Any, divisions: Any, where: str = "") -> Event:
    """The [event] table and the [[division]] array of a TOML file, checked whole: a name, a
    list and a rule per division, no two divisions with one name or one table."""
    at = f"{where}: " if where else ""
    event = {} if event is None else event
    if not isinstance(event, dict):
        raise EventError(f"{at}[event] must be a table")
    unknown = sorted(set(event) - {"name", "pin_hash", "version"})
    if unknown:
        raise EventError(f"{at}key event.{unknown[0]}: is not an event setting (name, pin_hash)")
    name = _text(event.get("name", ""), f"{at}key event.name", MAX_NAME)
    pin_hash = _text(event.get("pin_hash", ""), f"{at}key event.pin_hash", 400)
    version = event.get("version", 0)
    if type(version) is not int or version < 0:  # noqa: E721
        raise EventError(f"{at}key event.version: must be a whole number")
    divisions = [] if divisions is None else divisions
    if not isinstance(divisions, list) or len(divisions) > MAX_DIVISIONS:
        raise EventError(f"{at}[[division]] must be a list of at most {MAX_DIVISIONS} tables")
    parsed = tuple(_division(d, f"{at}division {i + 1}") for i, d in enumerate(divisions))
    _check_apart(parsed, at)
    return Event(name=name, divisions=parsed, pin_hash=pin_hash, version=version)


def _division(raw: Any, where: str) -> Division:
    if not isinstance(raw, dict):
        raise EventError(f"{where}: must be a table of name, lexicon, challenge_rule, tables")
    unknown = sorted(set(raw) - {"name", "lexicon", "fingerprint", "challenge_rule", "tables"})
    if unknown:
        raise EventError(f"{where}: key {unknown[0]}: is not a division setting (name, lexicon,"
                         " fingerprint, challenge_rule, tables)")
    name = _text(raw.get("name", ""), f"{where}: key name", MAX_NAME).strip()
    if not DIVISION_NAME.match(name):
        raise EventError(f"{where}: key name: {name!r} is not a division's name (letters, "
                         "digits, spaces, dots and dashes, e.g. \"A\")")
    where = f"division {name}"
    lexicon = _text(raw.get("lexicon", ""), f"{where}: key lexicon", 1000).strip()
    if not lexicon:
        raise EventError(f'{where}: key lexicon: missing (a list\'s name, e.g. "CSW24")')
    fingerprint = _text(raw.get("fingerprint", ""), f"{where}: key fingerprint", 64)
    if fingerprint and not HEX64.match(fingerprint):
        raise EventError(f"{where}: key fingerprint: must be 64 lowercase hex digits")
    rule = raw.get("challenge_rule", ChallengeRule.WORD5.value)
    if not isinstance(rule, str):
        raise EventError(f"{where}: key challenge_rule: must be text, e.g. \"5-per-word\"")
    try:
        challenge_rule = ChallengeRule.parse(rule)
    except ConfigError as e:
        raise EventError(f"{where}: key challenge_rule: {e}") from None
    return Division(name, lexicon, challenge_rule,
                    parse_tables(raw.get("tables", ""), f"{where}: key tables"), fingerprint)


def _check_apart(divisions: tuple[Division, ...], at: str) -> None:
    seen: dict[str, str] = {}
    for d in divisions:
        if d.name.casefold() in seen:
            raise EventError(f"{at}two divisions are named {d.name!r}")
        seen[d.name.casefold()] = d.name
    spans = sorted((lo, hi, d.name) for d in divisions for lo, hi in d.tables)
    for (lo1, hi1, n1), (lo2, hi2, n2) in zip(spans, spans[1:]):
        if lo2 <= hi1:
            raise EventError(f"{at}divisions {n1} and {n2} overlap: table {lo2} is in both")
    if sum(1 for d in divisions if not d.tables) > 1:
        raise EventError(f"{at}only one division may leave out its tables (it has every table "
                         "no other division has)")


def _text(value: Any, where: str, limit: int) -> str:
    if not isinstance(value, str):
        raise EventError(f"{where}: must be text in quotes")
    if len(value) > limit:
        raise EventError(f"{where}: is longer than {limit} characters")
    if any(not c.isprintable() for c in value):
        raise EventError(f"{where}: holds a control or invisible character")
    return value


def to_dict(event: Event) -> dict:
    """EVENT as TOML tables and as the wire carries it: {"event": {...}, "division": [...]};
    parse_event(d["event"], d["division"]) gives it back."""
    return {"event": {"name": event.name, "pin_hash": event.pin_hash, "version": event.version},
            "division": [{"name": d.name, "lexicon": d.lexicon, "fingerprint": d.fingerprint,
                          "challenge_rule": d.challenge_rule.value, "tables": d.tables_text}
                         for d in event.divisions]}


class Judging(Protocol):
    """What judges a served division: a Division, or a station's own list shaped as one."""

    @property
    def lexicon(self) -> str: ...
    @property
    def challenge_rule(self) -> ChallengeRule: ...
    @property
    def fingerprint(self) -> str: ...


def station_settings(event: Event, served: Sequence[Judging]) -> dict:
    """The config settings EVENT gives a station judging the SERVED divisions, by Config's
    field names: the one function `adjudicator join` writes a config with (joining.py) and a
    station following its hub takes a change with (follow.prepare). Its divisions and version
    always; its name and the director's PIN when the event has them (a station keeps its own
    otherwise); the list and challenge rule when every served division shares one."""
    settings: dict = {"event": event.name} if event.name else {}
    settings.update(event_divisions=event.divisions, event_version=event.version)
    if event.pin_hash:
        settings["pin_hash"] = event.pin_hash
    rules = {d.challenge_rule for d in served}
    if len(rules) == 1:
        settings["challenge_rule"] = rules.pop()
    if len({(d.lexicon, d.fingerprint) for d in served}) == 1:
        settings["lexicon"] = served[0].lexicon
    return settings
