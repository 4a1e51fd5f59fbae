"""Challenge rules (WESPA 3.10.13): the consequence a verdict has for the players."""

import pytest

from adjudicator.errors import ConfigError
from adjudicator.judging.rules import ChallengeRule, consequence


@pytest.mark.parametrize(
    "rule, words, text",
    [
        ("5-per-word", 2, "The play stands. Its player scores 10 extra points (2 words x 5)."),
        ("5-per-word", 1, "Its player scores 5 extra points (1 word x 5)."),
        ("10-per-word", 3, "Its player scores 30 extra points (3 words x 10)."),
        ("5-per-turn", 4, "The play stands. Its player scores 5 extra points."),
        ("10-per-turn", 4, "Its player scores 10 extra points."),
        ("double", 2, "The challenger loses the next turn."),
        ("free", 2, "No penalty"),
    ],
)
def test_acceptable_play_stands_with_the_event_penalty(rule, words, text):
    assert text in consequence(ChallengeRule.parse(rule), True, words)


@pytest.mark.parametrize("rule", list(ChallengeRule))
def test_unacceptable_play_comes_off_under_every_rule(rule):
    assert consequence(rule, False, 3) == "The play comes off the board: its player loses the turn."


def test_unknown_rule_names_the_choices():
    with pytest.raises(ConfigError, match="5-per-word"):
        ChallengeRule.parse("7-per-word")
