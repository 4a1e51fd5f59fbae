"""The lists a station judges with at an event: one per served division, chosen by the table.

A station (or the phone server) given the event's divisions loads each served division's list
once (by name, from the shelf or the lexicon folders), checked against the fingerprint the hub
pinned: a list that is not the one pinned refuses to start (exit 3), never judges. A challenge
at table T is judged with T's division's list and challenge rule (Event.division_for_table);
a table this station does not serve is refused before anything is judged or recorded. When
every served division judges with one list, no table is needed: the station judges as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import Config
from .errors import LexiconError
from .event import Division, Event
from .lexicon.compiled import Lexicon
from .rules import ChallengeRule
from .tables import TableError

NO_TABLE = "Which table? Type the table number first: each division here judges with its own list."


class DivisionError(TableError):
    """A table no served division plays at (exit 2, like a bad table: nothing judged)."""


@dataclass(frozen=True)
class Served:
    """One served division and the list it judges with (loaded, its fingerprint checked)."""

    division: Division
    lexicon: Lexicon


@dataclass(frozen=True)
class Choice:
    """What judges a challenge: the list, the rule, and the division ('' when none was needed)."""

    lexicon: Lexicon
    rule: ChallengeRule
    division: str = ""


class DivisionLists:
    """The served divisions' lists; choose(table) says which judges a challenge at that table."""

    def __init__(self, event: Event, served: tuple[Served, ...]):
        self.event = event  # the whole event: a table of a division not served here is named
        self.served = served

    @property
    def one_list(self) -> bool:
        """True when every served division judges with the same list (no table needed)."""
        return len({s.lexicon.fingerprint for s in self.served}) <= 1

    @property
    def lexicons(self) -> tuple[Lexicon, ...]:
        """Each list once, in the order of the divisions."""
        seen: dict[str, Lexicon] = {}
        for s in self.served:
            seen.setdefault(s.lexicon.fingerprint, s.lexicon)
        return tuple(seen.values())

    @property
    def first(self) -> Lexicon:
        return self.served[0].lexicon

    def loaded(self) -> dict[str, Lexicon]:
        """{a division's lexicon setting: its loaded list}, for load_division_lists(new config,
        loaded) when the event changes (Station.follow): a list kept is not read again."""
        return {s.division.lexicon: s.lexicon for s in self.served}

    def find(self, name: str) -> Served | None:
        return next((s for s in self.served if s.division.name.casefold() == name.casefold()),
                    None)

    def describe(self) -> str:
        """'A (tables 1-20): CSW19 · B (tables 21-40): NWL2020', for refusals and start lines."""
        return " · ".join(f"{s.division.name}"
                          + (f" (tables {s.division.tables_text})" if s.division.tables else "")
                          + f": {s.lexicon.name}" for s in self.served)

    def choose(self, table: str, default_rule: ChallengeRule) -> Choice:
        """The list and rule for a challenge at TABLE (checked: "" or a table, tables.py).

        DivisionError when TABLE is in a division not served here, or when the served divisions
        judge with different lists and TABLE (or its absence) says none of them: never a guess."""
        division = self.event.division_for_table(table) if table else None
        if division is not None:
            served = self.find(division.name)
            if served is None:
                raise DivisionError(f"Table {table} plays in division {division.name}, which this "
                                    f"station does not judge (it judges {self.describe()}).")
            return Choice(served.lexicon, served.division.challenge_rule, served.division.name)
        if self.one_list:
            rules = {s.division.challenge_rule for s in self.served}
            rule = rules.pop() if len(rules) == 1 else default_rule
            return Choice(self.first, rule, self.served[0].division.name if len(self.served) == 1
                          else "")
        if not table:
            raise DivisionError(NO_TABLE)
        raise DivisionError(f"Table {table} is in no division here ({self.describe()}): "
                            "check the table number.")


def load_division_lists(config: Config, loaded: dict | None = None) -> DivisionLists | None:
    """The served divisions' lists for CONFIG, or None when it names no event divisions.

    Each list is loaded once (LOADED: name -> Lexicon already in memory, reused when its
    fingerprint is the one pinned); LexiconError (exit 3, one line) for a list missing or not
    the one the division pins."""
    served = config.served()
    if not served:
        return None
    from .lexicon.library import load_lexicon

    cache: dict[str, Lexicon] = dict(loaded or {})
    result = []
    for division in served:
        lex = cache.get(division.lexicon)
        if lex is None or (division.fingerprint and lex.fingerprint != division.fingerprint):
            try:
                lex = load_lexicon(division.lexicon, dirs=list(config.lexicon_dirs))
            except LexiconError as e:
                raise LexiconError(f"division {division.name}: {e}") from None
            cache[division.lexicon] = lex
        if division.fingerprint and lex.fingerprint != division.fingerprint:
            raise LexiconError(
                f"division {division.name}: the list {division.lexicon!r} found here is "
                f"{lex.name} {lex.fingerprint[:12]}, not the one the event pins "
                f"({division.fingerprint[:12]}): get the event's list (adjudicator join) "
                "or ask the director")
        result.append(Served(division, lex))
    return DivisionLists(config.event_setup, tuple(result))


def event_lines(event: Event | None) -> list[str]:
    """What `adjudicator hub` says at start about the event: its name and each division's list
    (name, edition as published, fingerprint pinned) and rule; [] without an event."""
    if event is None or not (event.name or event.divisions):
        return []
    from .lexicon.known import by_id, identify

    lines = [f"Event: {event.name or '(no name)'}"]
    for d in event.divisions:
        known = identify(d.fingerprint) if d.fingerprint else by_id(d.lexicon)
        edition = known.title if known else "not an official list"
        pinned = d.fingerprint[:12] if d.fingerprint else "not pinned"
        tables = f" (tables {d.tables_text})" if d.tables else ""
        lines.append(f"Division {d.name}{tables}: {d.lexicon} — {edition} — {pinned} · "
                     f"{d.challenge_rule.value}")
    return lines
