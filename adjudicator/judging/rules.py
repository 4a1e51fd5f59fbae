"""Challenge rules (WESPA 3.10.13) and what a verdict means for the players under each."""

from __future__ import annotations

from enum import Enum

from adjudicator.errors import ConfigError


class ChallengeRule(str, Enum):
    """The event's penalty for an unsuccessful challenge (WESPA 3.10.13; NASPA VI)."""

    WORD5 = "5-per-word"
    WORD10 = "10-per-word"
    TURN5 = "5-per-turn"
    TURN10 = "10-per-turn"
    DOUBLE = "double"
    FREE = "free"

    @classmethod
    def parse(cls, text: str) -> ChallengeRule:
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(r.value for r in cls)
            raise ConfigError(f"challenge rule {text!r} is not one of: {names}") from None

    @property
    def label(self) -> str:
        return {
            "5-per-word": "5 points per word challenged",
            "10-per-word": "10 points per word challenged",
            "5-per-turn": "5 points per unsuccessful challenge",
            "10-per-turn": "10 points per unsuccessful challenge",
            "double": "double challenge: the challenger loses a turn",
            "free": "free challenge: no penalty",
        }[self.value]


def consequence(rule: ChallengeRule, acceptable: bool, word_count: int) -> str:
    """What happens at the board (WESPA 3.10.13), without saying anything about single words.

    A challenge penalty is added to the score of the player whose play stands (3.10.13(a)), so
    it is said that way round: "Its player scores 10 extra points", never "Penalty: 10 points
    to ...", which reads as if the challenged player lost them."""
    if not acceptable:
        return "The play comes off the board: its player loses the turn."
    if rule in (ChallengeRule.WORD5, ChallengeRule.WORD10):
        each = 5 if rule is ChallengeRule.WORD5 else 10
        noun = "word" if word_count == 1 else "words"
        return (
            f"The play stands. Its player scores {each * word_count} extra points "
            f"({word_count} {noun} x {each})."
        )
    if rule in (ChallengeRule.TURN5, ChallengeRule.TURN10):
        points = 5 if rule is ChallengeRule.TURN5 else 10
        return f"The play stands. Its player scores {points} extra points."
    if rule is ChallengeRule.DOUBLE:
        return "The play stands. The challenger loses the next turn."
    return "The play stands. No penalty (free challenge)."


def consequence_under(rule: str | ChallengeRule | None, acceptable: bool, word_count: int) -> str:
    """consequence() under RULE given as a value or text; '' for an acceptable play under an
    unknown rule (an unacceptable play comes off the board under every rule, WESPA 3.10.13)."""
    if rule is None or rule == "":
        return "" if acceptable else consequence(ChallengeRule.FREE, False, word_count)
    if not isinstance(rule, ChallengeRule):
        rule = ChallengeRule.parse(rule)
    return consequence(rule, acceptable, word_count)
