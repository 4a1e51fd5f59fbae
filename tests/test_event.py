"""The event's shape (adjudicator/event/setup.py): divisions, their lists, rules and tables, checked."""

import pytest

from adjudicator.event.setup import EventError, parse_event, parse_tables, to_dict
from adjudicator.judging.rules import ChallengeRule

TWO = [{"name": "A", "lexicon": "CSW19", "challenge_rule": "5-per-word", "tables": "1-20"},
       {"name": "B", "lexicon": "NWL2020", "challenge_rule": "double", "tables": "21-40, 45"}]


def test_two_divisions_each_with_its_list_rule_and_tables():
    event = parse_event({"name": "Club Open 2026"}, TWO)
    a, b = event.divisions
    assert (a.lexicon, a.challenge_rule, a.tables) == ("CSW19", ChallengeRule.WORD5, ((1, 20),))
    assert event.division_for_table("7") is a and event.division_for_table("45") is b
    assert event.division_for_table("07") is a  # a table is its number (adjudicator/event/tables.py)
    assert event.division_for_table("41") is None and event.division_for_table("²") is None
    assert not event.one_list and event.division("b") is b
    assert parse_event(**{"event": to_dict(event)["event"],
                          "divisions": to_dict(event)["division"]}) == event


def test_one_division_without_tables_has_every_table():
    event = parse_event({}, [{"name": "Open", "lexicon": "CSW24"}])
    assert event.division_for_table("999").name == "Open" and event.one_list


@pytest.mark.parametrize("divisions, says", [
    ([TWO[0], dict(TWO[1], tables="20-30")], "divisions A and B overlap: table 20 is in both"),
    ([TWO[0], dict(TWO[1], name="a")], "two divisions are named 'a'"),
    ([dict(TWO[0], lexicon="")], "division A: key lexicon: missing"),
    ([dict(TWO[0], challenge_rule="triple")], "division A: key challenge_rule"),
    ([dict(TWO[0], tables="0-5")], "'0-5' is not a table or a range of tables"),
    ([dict(TWO[0], tables="²")], "'²' is not a table"),
    ([dict(TWO[0], colour="red")], "key colour: is not a division setting"),
    ([dict(TWO[0], name="A\u200b")], "key name: holds a control or invisible"),
    ([{"name": "A", "lexicon": "X"}, {"name": "B", "lexicon": "Y"}], "only one division may"),
])
def test_an_event_that_cannot_run_is_refused_naming_the_key(divisions, says):
    with pytest.raises(EventError, match=None) as e:
        parse_event({"name": "E"}, divisions)
    assert says in str(e.value)


def test_tables_are_ranges_of_ascii_numbers():
    assert parse_tables("1-20, 25 ,30 - 32") == ((1, 20), (25, 25), (30, 32))
    for bad in ("20-1", "1-", "x", "１"):
        with pytest.raises(EventError):
            parse_tables(bad)
