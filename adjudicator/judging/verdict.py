"""adjudicate(lexicon, words) -> one collective Verdict; no per-word result ever leaves here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from adjudicator.text.entry import Words, validate_words
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.lexicon.known import LexiconIdentity


class Verdict(NamedTuple):
    """The play as a whole (WESPA 3.11.2(a)(vii)-(viii); NASPA IV.K.3.d): no field says which word."""

    words: tuple[str, ...]
    acceptable: bool
    lexicon: LexiconIdentity

    @property
    def word(self) -> str:
        """ACCEPTABLE or UNACCEPTABLE, as the CLI prints and the screen reads."""
        return "ACCEPTABLE" if self.acceptable else "UNACCEPTABLE"


def adjudicate(lexicon: Lexicon, words: Sequence[str]) -> Verdict:
    """Judge the play. Every word is looked up, always: no early exit, so time tells nothing."""
    checked = words if type(words) is Words else validate_words(tuple(words))
    if not getattr(lexicon, "words_match", True):  # None: not yet checked; False: refused
        lexicon.check_words()  # no verdict from a list whose words are not its header's
    return Verdict(checked, all_found(lexicon, checked), lexicon.identity)


def all_found(lexicon: Lexicon, words: tuple[str, ...]) -> bool:
    """True when every word is in the lexicon; looks up each one (no early exit, no short-circuit).

    The caller guarantees the words came from parse_entry or validate_words.
    """
    return sum(map(lookup(lexicon), words)) == len(words)  # sum(map()) consumes every word


def lookup(lexicon) -> Callable[[str], bool]:
    """The fastest `word in lexicon` callable: a Lexicon's own trie look-up (no Python wrapper
    between), else the container's __contains__ (a set, in tests and baselines)."""
    return getattr(lexicon, "contains", None) or lexicon.__contains__
