"""The one rule both screens follow for a verdict recorded and never shown (unseen_verdict.py).

Headless: the station service and its files, no Textual. The kiosk's own tests
(tests/kiosk/test_kiosk_unseen.py, test_kiosk_kill_campaign.py) check the screens call it.
"""

from __future__ import annotations

import datetime as dt

import pytest

from adjudicator.config.station import Config
from adjudicator.station.service import Outcome, open_station
from adjudicator.station.state import state_path
from adjudicator.station.unseen import last_shown, mark_shown
from adjudicator.station.unseen_verdict import UnseenVerdict


@pytest.fixture
def station(tmp_path, make_lexicon):
    config = Config(event="Test Open", station="Desk 2", mode="runner",
                    journal=str(tmp_path / "journal.db"))
    service = open_station(config, make_lexicon(["QI", "ZA", "CAT"]))
    yield service
    service.close()


def never_shown(station, words: str = "za cat", table: str = "7") -> UnseenVerdict:
    """A station whose last verdict (WORDS at TABLE) was recorded and never shown, looked at."""
    state = state_path(station.config.journal)
    mark_shown(state, 0)  # a station that has shown everything before
    station.submit(words, table=table)  # committed; the station "died" before its paint
    unseen = UnseenVerdict(station, state)
    found = unseen.look()
    assert found is not None and found.seq == 1 and found.verdict.words == ("ZA", "CAT")
    return unseen


def later(unseen: UnseenVerdict, seconds: float) -> dt.datetime:
    """SECONDS after the verdict never shown was recorded (by the journal's clock)."""
    return unseen.outcome.time + dt.timedelta(seconds=seconds)


def test_looked_for_once_only(station):
    unseen = never_shown(station)
    assert unseen.looked
    assert unseen.look() is None  # a later look finds nothing new, the verdict is still held
    assert unseen.outcome is not None and unseen.outcome.seq == 1


def test_nothing_never_shown_at_a_first_start(station):
    station.submit("qi")  # before this version marked anything: not claimed unseen
    unseen = UnseenVerdict(station, state_path(station.config.journal))
    assert unseen.look() is None and unseen.outcome is None
    assert last_shown(state_path(station.config.journal)) == 1


def test_the_same_words_again_are_its_recheck_then_it_is_forgotten(station):
    unseen = never_shown(station)
    outcome = unseen.judge("ZA  cat", table="07", now=later(unseen, 30))
    assert outcome.recheck_of == 1 and outcome.is_recheck and outcome.seq == 2
    assert outcome.table == "7"
    assert unseen.outcome is None
    again = unseen.judge("za cat", table="7", now=outcome.time)
    assert again.recheck_of is None and again.seq == 3  # a new challenge from now on


@pytest.mark.parametrize("text, table, after", [
    ("za qi", "7", 30),  # other words
    ("cat za", "7", 30),  # the same words in another order are another play
    ("za cat", "8", 30),  # another table's players
    ("za cat", "7", 91),  # past the split window (90 s)
])
def test_anything_else_is_a_new_challenge_and_forgets_it(station, text, table, after):
    unseen = never_shown(station)
    outcome = unseen.judge(text, table=table, now=later(unseen, after))
    assert outcome.recheck_of is None and not outcome.is_recheck and outcome.seq == 2
    assert unseen.outcome is None


def test_a_refused_entry_keeps_it(station):
    from adjudicator.errors import EntryError

    unseen = never_shown(station)
    with pytest.raises(EntryError):
        unseen.judge("za c4t", table="7", now=later(unseen, 0))
    with pytest.raises(EntryError):  # a table that is not one (tables.py)
        unseen.judge("za cat", table="²", now=later(unseen, 0))
    assert unseen.outcome is not None and unseen.outcome.seq == 1
    assert unseen.judge("za cat", table="7", now=later(unseen, 0)).recheck_of == 1


class LockedStation:
    """A station whose journal another program holds locked: nothing is recorded."""

    def __init__(self, real):
        self.config, self.real = real.config, real

    def recheck(self, previous: Outcome) -> Outcome:
        return self.real.recheck(previous)._replace(seq=None, locked=True)

    def submit(self, text: str, **fields) -> Outcome:
        return self.real.submit(text, **fields)._replace(seq=None, locked=True)


def test_a_locked_journal_keeps_it_for_the_players_retry(station):
    found = never_shown(station).outcome
    unseen = UnseenVerdict(LockedStation(station), None)
    unseen.outcome = found
    assert unseen.judge("za cat", table="7", now=later(unseen, 0)).locked
    assert unseen.outcome is found  # nothing recorded: the retry is still its recheck
    assert unseen.judge("qi", table="7", now=later(unseen, 0)).locked
    assert unseen.outcome is found


def test_shown_marks_it_for_the_next_start(station):
    state = state_path(station.config.journal)
    unseen = UnseenVerdict(station, state)
    unseen.look()
    outcome = station.submit("qi")
    unseen.shown(outcome.seq)
    assert last_shown(state) == outcome.seq
    unseen.shown(None)  # not recorded: nothing to mark
    assert last_shown(state) == outcome.seq
    assert UnseenVerdict(station, state).look() is None  # a restart shows nothing again
