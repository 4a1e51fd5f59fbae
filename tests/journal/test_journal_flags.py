"""Director's flags: split look-ups (NASPA IV.J.2) and differing rechecks (WESPA 3.10.9(c))."""

from __future__ import annotations

import pytest
from journal_helpers import verdict

from adjudicator.journal import RECHECKS_DIFFER, SPLIT_LOOKUP, Journal
from adjudicator.journal.flags import UNKNOWN_RECHECK


def judge(j, *words, station="Station 1", acceptable=True, **kw):
    return j.record(verdict(*words, acceptable=acceptable), station=station, mode="station", **kw)


def test_second_adjudication_within_the_window_is_a_possible_split_lookup(journal, clock):
    judge(journal, "cat")
    clock.advance(89)
    judge(journal, "xu")
    assert journal.get(1).flags == ()
    assert journal.get(2).flags == (SPLIT_LOOKUP,)  # NASPA IV.J.2: all words together


def test_default_window_is_90_seconds_inclusive(journal, clock):
    judge(journal, "cat")
    clock.advance(90)
    judge(journal, "xu")
    clock.advance(90.5)
    judge(journal, "qi")
    assert [journal.get(s).flags for s in (2, 3)] == [(SPLIT_LOOKUP,), ()]


def test_other_stations_do_not_count(journal, clock):
    judge(journal, "cat", station="Station 1")
    clock.advance(10)
    judge(journal, "xu", station="Station 2")
    clock.advance(10)
    judge(journal, "qi", station="Station 1")
    assert [journal.get(s).flags for s in (1, 2, 3)] == [(), (), (SPLIT_LOOKUP,)]


def test_different_known_tables_are_different_games(journal, clock):
    judge(journal, "cat", table="4")
    clock.advance(10)
    judge(journal, "xu", table="9")
    clock.advance(10)
    judge(journal, "qi", table="9")
    assert [journal.get(s).flags for s in (2, 3)] == [(), (SPLIT_LOOKUP,)]


def test_window_is_a_parameter_of_open_and_of_record(jpath, clock):
    with Journal.open(jpath, clock=clock, split_window=300) as j:
        judge(j, "cat")
        clock.advance(200)
        judge(j, "xu")
        clock.advance(200)
        judge(j, "qi", split_window=100)
        clock.advance(1)
        judge(j, "za", split_window=0)  # 0 turns the flag off
        assert [j.get(s).flags for s in (2, 3, 4)] == [(SPLIT_LOOKUP,), (), ()]


def test_a_recheck_that_differs_is_for_the_director(journal, clock):
    judge(journal, "cat", "xu", acceptable=True)
    clock.advance(20)
    seq = judge(journal, "cat", "xu", acceptable=False, recheck_of=1)
    row = journal.get(seq)
    assert row.recheck_of == 1
    assert row.flags == (RECHECKS_DIFFER,)  # WESPA 3.10.9(c); a recheck is not a split look-up


def test_a_recheck_that_agrees_is_not_flagged(journal, clock):
    judge(journal, "cat", "xu", acceptable=False)
    clock.advance(20)
    assert journal.get(judge(journal, "cat", "xu", acceptable=False, recheck_of=1)).flags == ()


def test_a_recheck_of_a_challenge_not_in_the_journal_says_so(journal):
    assert journal.get(judge(journal, "qi", recheck_of=42)).flags == (UNKNOWN_RECHECK,)


@pytest.mark.parametrize("flag", [SPLIT_LOOKUP, RECHECKS_DIFFER])
def test_flags_are_in_recent_for_the_director_view(journal, clock, flag):
    judge(journal, "cat", acceptable=True)
    clock.advance(5)
    judge(journal, "cat", acceptable=False, recheck_of=1 if flag == RECHECKS_DIFFER else None)
    assert flag in journal.recent(1)[0].flags


def test_flags_are_inside_the_hash_chain(journal, jpath, clock):
    from journal_helpers import raw

    from adjudicator.journal import verify

    judge(journal, "cat")
    clock.advance(5)
    judge(journal, "xu")
    raw(jpath, "UPDATE challenges SET flags='[]' WHERE seq=2")  # hiding a flag shows
    report = verify(jpath)
    assert report.broken_row == 2
