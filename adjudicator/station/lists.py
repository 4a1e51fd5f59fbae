"""Which list and rule judge a table: a station's config and the event, decided here for every surface.

Every surface asks here (the kiosk, the runner's desk, the phone server, `judge`, `judge
--config`, `info`, `join`, a followed change): `lists_for(config)` loads the station's lists
through the one loader (lexicon/library.py), one per served division, each checked against the
fingerprint the event pins; `TableLists.choose(table)` names the list and the rule that judge a
challenge at that table. Without event divisions the station's own list judges every table.

A table in a division this station does not serve, or no table where the served divisions judge
with different lists, is refused before anything is judged (DivisionError, exit 2): never a
guess. When a followed change names a list the station cannot have (not on its shelf, the hub
could not send it), that division keeps the list it had, and says why (Served.kept): the
station's config then names the list it judges with, so it starts again as it runs.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from adjudicator.config.station import Config
from adjudicator.errors import AdjudicatorError, LexiconError
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.lexicon.library import Fetch, load_lexicon
from adjudicator.judging.rules import ChallengeRule
from adjudicator.event.tables import TableError

if TYPE_CHECKING:  # the event's module is read only by a station at an event (its cold start)
    from adjudicator.event.setup import Division, Event

NO_TABLE = ("Which table? Type the table number first: each division here judges with its own "
            "list or rule.")



class OwnList(NamedTuple):
    """A station's own list and rule, judging every table (no event divisions): shaped as a
    division named "" so every surface reads both alike."""

    lexicon: str  # how the config names it (a name, or a file)
    challenge_rule: ChallengeRule
    name: str = ""
    tables: tuple[tuple[int, int], ...] = ()
    fingerprint: str = ""
    tables_text: str = ""


class DivisionError(TableError):
    """A table no served division plays at (exit 2, like a bad table: nothing judged)."""


class Served(NamedTuple):
    """One served division and the list it judges with (loaded, its fingerprint checked). The
    station's own list, without event divisions, is a division named ""."""

    division: Division | OwnList
    lexicon: Lexicon
    kept: str = ""  # why this division judges with another list than the event's latest


class Choice(NamedTuple):
    """What judges a challenge: the list, the rule, and the division ('' when none was needed)."""

    lexicon: Lexicon
    rule: ChallengeRule
    division: str = ""


class TableLists:
    """A station's lists; choose(table) says which list and rule judge a challenge there."""

    def __init__(self, event: Event | None, served: tuple[Served, ...],
                 secondary: Lexicon | None = None):
        self.event = event  # the whole event (a table of a division not served here is named)
        self.served = served
        self.secondary = secondary  # the recheck's second list (WESPA 3.10.9), if any

    @property
    def by_division(self) -> bool:
        """True at an event with divisions (the table decides), False on a station's own list."""
        return self.event is not None and bool(self.event.divisions)

    @property
    def one_list(self) -> bool:
        """True when every served division judges with the same list (no table needed)."""
        return len({s.lexicon.fingerprint for s in self.served}) <= 1

    @property
    def needs_table(self) -> bool:
        """True when the table decides: the served divisions judge with different lists or
        under different rules (a consequence shown must be the table's, never a guess)."""
        return self.by_division and not (self.one_list and len(
            {s.division.challenge_rule for s in self.served}) == 1)

    @property
    def lexicons(self) -> tuple[Lexicon, ...]:
        """Each list once, in the order of the divisions, the secondary last."""
        seen: dict[str, Lexicon] = {}
        for lexicon in [s.lexicon for s in self.served] + [self.secondary] * bool(self.secondary):
            seen.setdefault(lexicon.fingerprint, lexicon)
        return tuple(seen.values())

    @property
    def first(self) -> Lexicon:
        return self.served[0].lexicon

    @property
    def kept(self) -> tuple[str, ...]:
        """Why divisions judge with a list the event no longer names (said on Ready)."""
        return tuple(f"division {s.division.name}: {s.kept}" for s in self.served if s.kept)

    def find(self, name: str) -> Served | None:
        return next((s for s in self.served if s.division.name.casefold() == name.casefold()),
                    None)

    def describe(self) -> str:
        """'A (tables 1-20): CSW19 · B (tables 21-40): NWL2020', for refusals and start lines."""
        return " · ".join(f"{s.division.name}"
                          + (f" (tables {s.division.tables_text})" if s.division.tables else "")
                          + f": {s.lexicon.name}" for s in self.served)

    def choose(self, table: str = "") -> Choice:
        """The list and rule for a challenge at TABLE (checked: "" or a table, tables.py).

        DivisionError when TABLE is in a division not served here, or when the served divisions
        judge with different lists and TABLE (or its absence) says none of them: never a guess."""
        if self.event is None or not self.by_division:
            own = self.served[0]
            return Choice(own.lexicon, own.division.challenge_rule)
        division = self.event.division_for_table(table) if table else None
        if division is not None:
            served = self.find(division.name)
            if served is None:
                raise DivisionError(f"Table {table} plays in division {division.name}, which this "
                                    f"station does not judge (it judges {self.describe()}).")
            return Choice(served.lexicon, served.division.challenge_rule, served.division.name)
        if not self.needs_table:
            return Choice(self.first, self.served[0].division.challenge_rule,
                          self.served[0].division.name if len(self.served) == 1 else "")
        if not table:
            raise DivisionError(NO_TABLE)
        raise DivisionError(f"Table {table} is in no division here ({self.describe()}): "
                            "check the table number.")

    def event_divisions(self) -> tuple[Division, ...]:
        """The event's divisions as this station judges them, for its config: a division that
        kept its list names that list, so the config never names one it could not start with."""
        mine = {s.division.name: s.division for s in self.served if s.division.name}
        return tuple(mine.get(d.name, d) for d in (self.event.divisions if self.event else ()))

    def check_words(self) -> None:
        """Every list's words checked against its fingerprint now (LexiconError if one is not
        its header's list): the kiosk does it just after its first paint."""
        for lexicon in self.lexicons:
            lexicon.check_words()


def single(lexicon: Lexicon, rule: ChallengeRule = ChallengeRule.WORD5,
           secondary: Lexicon | None = None, setting: str = "") -> TableLists:
    """LEXICON judging every table (a station's own list, one given on the command line); SETTING:
    how its config names it (a name or a file; default its name)."""
    return TableLists(None, (Served(OwnList(setting or lexicon.name, rule), lexicon),), secondary)


def lists_for(config: Config, *, lexicon: Lexicon | None = None,
              secondary: Lexicon | None = None, check_words: bool = True,
              fetch: Fetch | None = None, before: TableLists | None = None) -> TableLists:
    """The lists CONFIG judges with: one per served division of its event, else its own list.

    Each list comes through the one loader (read once per process), pinned to the fingerprint
    the event gives. CHECK_WORDS: fingerprints computed from the words now (False: before the
    first verdict, verdict.py). FETCH: how to get a pinned list the shelf lacks (from the hub).
    BEFORE: the lists the station judges with now; a division whose new list cannot be had
    keeps its list from there, and says why. Without BEFORE, LexiconError (exit 3) names the
    division and the list. LEXICON (and SECONDARY): a list given for every table instead
    (`judge --lexicon`, a test's)."""
    event = config.event_setup if config.event_divisions else None  # no event: none imported
    divisions = event.served_by(config.divisions) if event and lexicon is None else ()
    dirs = list(config.lexicon_dirs)
    if secondary is None and config.secondary_lexicon:
        secondary = load_lexicon(config.secondary_lexicon, dirs=dirs, check_words=check_words)
    if lexicon is None and not divisions:
        lexicon = load_lexicon(config.lexicon or None, dirs=dirs, check_words=check_words)
    served = []
    for division in divisions:
        try:
            served.append(Served(division, load_lexicon(
                division.lexicon, dirs=dirs, pin=division.fingerprint, check_words=check_words,
                fetch=fetch)))
        except AdjudicatorError as e:
            old = _kept(before, division)
            if old is None:
                raise LexiconError(f"division {division.name}: {e}") from None
            served.append(old)
    if lexicon is not None:
        return single(lexicon, config.challenge_rule, secondary, config.lexicon)
    return TableLists(event, tuple(served), secondary)


def _kept(before: TableLists | None, division: Division) -> Served | None:
    """DIVISION judged as BEFORE judged it (its own division, else the station's own list), with
    the event's new rule and tables: what a station does when the new list cannot be had."""
    if before is None:
        return None
    old = before.find(division.name) or (before.served[0] if not before.by_division else None)
    if old is None:
        return None
    lexicon = old.lexicon
    why = (f"the event's list {division.lexicon} could not be had: it judges with "
           f"{lexicon.name} meanwhile")
    return Served(replace(division, lexicon=old.division.lexicon or lexicon.name,
                          fingerprint=lexicon.fingerprint), lexicon, why)
