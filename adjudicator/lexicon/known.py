"""The official lists known by content fingerprint (lexicons/known.toml), and how one is said."""

from __future__ import annotations

import os
import tomllib
from typing import NamedTuple
from functools import lru_cache

# The shipped data (known.toml, the embedded ENABLE list): the top-level lexicons/ folder, which the
# wheel installs as adjudicator/lexicons. A path is enough; importlib.resources would cost every
# kiosk start about a millisecond.
_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # adjudicator/
SHIPPED = next((p for p in (os.path.join(_HERE, "lexicons"), os.path.join(_HERE, "..", "lexicons"))
                if os.path.isfile(os.path.join(p, "known.toml"))), os.path.join(_HERE, "lexicons"))
NOT_FOR_TOURNAMENTS = "not a tournament word list"


class KnownLexicon(NamedTuple):
    """One official (or shipped) word list as published: its identity and its fingerprint."""

    id: str
    title: str
    edition: str
    publisher: str
    words: int
    fingerprint: str
    tournament: bool = True
    note: str = ""


@lru_cache(maxsize=1)
def known_lexicons() -> dict[str, KnownLexicon]:
    """Every entry of the shipped known.toml, by fingerprint."""
    with open(os.path.join(SHIPPED, "known.toml"), "rb") as f:
        table = tomllib.load(f)
    entries = [KnownLexicon(id=key, **value) for key, value in table.items()]
    return {entry.fingerprint: entry for entry in entries}


def identify(fingerprint: str) -> KnownLexicon | None:
    """The official list with this content fingerprint, or None for an unrecognised list."""
    return known_lexicons().get(fingerprint)


def by_id(lexicon_id: str) -> KnownLexicon | None:
    """The known list with this id (case-insensitive), e.g. 'csw19'."""
    wanted = lexicon_id.upper()
    return next((k for k in known_lexicons().values() if k.id.upper() == wanted), None)


class LexiconIdentity(NamedTuple):
    """What a verdict, a screen or a slip says about the list that judged."""

    name: str
    fingerprint: str
    word_count: int
    known: KnownLexicon | None

    @property
    def short_fingerprint(self) -> str:
        return self.fingerprint[:12]

    @property
    def recognised(self) -> bool:
        return self.known is not None

    @property
    def status(self) -> str:
        """'verified', 'not a tournament word list' or a loud 'UNRECOGNISED LIST'."""
        if self.known is None:
            return "UNRECOGNISED LIST"
        return "verified" if self.known.tournament else f"verified, {NOT_FOR_TOURNAMENTS}"

    @property
    def warning(self) -> str:
        """What every verdict and slip must say about a list unfit for a tournament ("" if fit).

        An unrecognised list (no official fingerprint) or a known non-tournament list (the
        embedded ENABLE) is said loudly wherever a verdict is shown or printed (issue 11).
        """
        if self.known is None:
            return (f"UNRECOGNISED WORD LIST {self.name} ({self.short_fingerprint}): "
                    "not an official list")
        if not self.known.tournament:
            return f"{self.known.id}: NOT A TOURNAMENT WORD LIST"
        return ""

    def describe(self) -> str:
        """One line, e.g. 'CSW19 — Collins Scrabble Words 2019 — 279,496 words — verified'."""
        if self.known is None:
            return (
                f"{self.name} — UNRECOGNISED LIST — {self.word_count:,} words — "
                f"fingerprint {self.short_fingerprint}"
            )
        return f"{self.known.id} — {self.known.title} — {self.word_count:,} words — {self.status}"
