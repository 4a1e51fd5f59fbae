"""The station service, headless: validate, judge, record before showing, recheck, print desk.

No Textual and no Pilot here: this is the one behaviour every surface renders (issue 14).
"""

from __future__ import annotations

import datetime as dt

import pytest

from adjudicator.config.station import Config, PrinterSettings, Timers
from adjudicator.errors import EntryError, JournalError
from adjudicator.journal import Journal
from adjudicator.station.printdesk import PrintDesk
from adjudicator.station.protocol import Action, Protocol, State
from adjudicator.station.service import NOT_RECORDED, open_station

WHEN = dt.datetime(2026, 11, 22, 14, 3, 12, tzinfo=dt.timezone.utc)


@pytest.fixture
def config(tmp_path) -> Config:
    return Config(event="Test Open", station="Desk 2", mode="runner",
                  journal=str(tmp_path / "journal.db"))


@pytest.fixture
def station(config, make_lexicon):
    service = open_station(config, make_lexicon(["QI", "ZA", "CAT"]), clock=lambda: WHEN)
    yield service
    service.close()


class SpyJournal:
    """Records what the station asked, and what a reader of the journal saw at that moment."""

    def __init__(self, fail: bool = False):
        self.rows, self.fail = [], fail

    def record(self, verdict, **fields):
        if self.fail:
            raise JournalError("disk full")
        self.rows.append((verdict, fields))
        return len(self.rows)

    def record_many(self, items):
        return [self.record(v, **f) for v, f in items]

    def close(self):
        pass


def test_submit_validates_first_and_a_malformed_entry_is_never_recorded(station):
    with pytest.raises(EntryError):
        station.submit("CAT5 QI")
    assert station.journal.count() == 0


def test_the_row_is_committed_before_the_outcome_reaches_the_caller(station, config):
    outcome = station.submit("qi, za", table="12", round="3")
    with Journal.open(config.journal) as reader:  # another connection, as the director's
        row = reader.get(outcome.seq)
    assert (row.words, row.acceptable, row.table, row.round, row.mode) == (
        ("QI", "ZA"), True, "12", "3", "runner")
    assert outcome.verdict.word == "ACCEPTABLE" and outcome.recorded and not outcome.problem


def test_a_failing_journal_never_hides_the_verdict(config, make_lexicon):
    service = open_station(config, make_lexicon(["QI"]), SpyJournal(fail=True))
    outcome = service.submit("qi zzz")
    assert outcome.verdict.word == "UNACCEPTABLE"
    assert not outcome.recorded and outcome.problem == "disk full"
    assert NOT_RECORDED.startswith("NOT RECORDED")


def test_no_journal_at_all_says_why(config, make_lexicon, tmp_path):
    (tmp_path / "blocker").write_text("x")
    service = open_station(config.with_changes(journal=str(tmp_path / "blocker" / "j.db")),
                           make_lexicon(["QI"]))
    outcome = service.submit("qi")
    assert outcome.verdict.acceptable and not outcome.recorded
    assert "blocker is not a folder" in outcome.problem


def test_recheck_points_at_the_first_challenge_and_asks_the_secondary_list(config,
                                                                           make_lexicon):
    # WESPA 3.10.9: during a lexicon transition a recheck also asks the secondary list. The
    # runner's desk used to skip it; every surface now goes through this one path.
    spy = SpyJournal()
    service = open_station(config, make_lexicon(["QI", "ZA"]), spy,
                           secondary=make_lexicon(["QI"], name="NEXT"))
    first = service.submit("qi za", table="4", round="1")
    again = service.recheck(first)
    third = service.recheck(again)
    assert (again.recheck_of, third.recheck_of) == (first.seq, first.seq)
    assert again.secondary_agrees is False and again.secondary_name == "NEXT"
    assert first.secondary_agrees is None  # a first judgement never asks the secondary list
    assert (again.table, again.round) == ("4", "1")
    fields = spy.rows[1][1]
    assert fields["recheck_of"] == 1 and fields["secondary_agrees"] is False
    assert fields["table"] == "4" and fields["mode"] == "runner"


def test_a_group_is_recorded_in_one_transaction(config, make_lexicon):
    calls = []

    class Counting(SpyJournal):
        def record_many(self, items):
            calls.append(len(items))
            return super().record_many(items)

    service = open_station(config, make_lexicon(["QI", "ZA"]), Counting())
    outcomes = service.judge_group([("QI",), ("ZA", "XX"), ("QI", "ZA")])
    assert calls == [3]
    assert [o.verdict.acceptable for o in outcomes] == [True, False, True]
    assert [o.seq for o in outcomes] == [1, 2, 3]


def test_a_group_of_one_recheck_records_what_judge_records(config, make_lexicon):
    # `judge --recheck-of` is a group of one (terminal/recording.py): its row and its outcome
    # are the ones Station.judge gives a recheck (WESPA 3.10.9: the secondary list asked too)
    lists = dict(secondary=make_lexicon(["QI"], name="NEXT"))
    alone, grouped = SpyJournal(), SpyJournal()
    by_judge = open_station(config, make_lexicon(["QI", "ZA"]), alone, **lists)
    by_group = open_station(config, make_lexicon(["QI", "ZA"]), grouped, **lists)
    for service in (by_judge, by_group):
        service.submit("qi")
    one = by_judge.judge(("QI", "ZA"), table="4", round="1", recheck_of=1, is_recheck=True)
    (other,) = by_group.judge_group([("QI", "ZA")], table="4", round="1", recheck_of=1)
    rows = [[(v.words, v.acceptable, fields) for v, fields in j.rows] for j in (alone, grouped)]
    assert rows[0] == rows[1] and rows[1][1][2]["secondary_agrees"] is False
    assert (other.recheck_of, other.is_recheck, other.secondary_agrees, other.secondary_name,
            other.seq) == (1, True, False, "NEXT", 2) == (
        one.recheck_of, one.is_recheck, one.secondary_agrees, one.secondary_name, one.seq)
    (first,) = by_group.judge_group([("QI",)])  # not a recheck: the secondary list not asked
    assert (first.is_recheck, first.secondary_agrees, first.secondary_name) == (False, None, "")


def test_a_failed_group_numbers_none_and_says_why(config, make_lexicon):
    service = open_station(config, make_lexicon(["QI"]), SpyJournal(fail=True))
    outcomes = service.judge_group([("QI",), ("QI", "QI")])
    assert [o.recorded for o in outcomes] == [False, False]
    assert {o.problem for o in outcomes} == {"disk full"}


def test_a_terminal_station_records_no_rule_it_was_not_given(config, make_lexicon):
    spy = SpyJournal()
    service = open_station(config, make_lexicon(["QI"]), spy, rule_known=False)
    accepted, refused = service.submit("qi"), service.submit("qi zz")
    assert spy.rows[0][1]["rule"] is None
    assert accepted.consequence == ""  # no penalty is invented
    assert "comes off the board" in refused.consequence  # the same under every rule


def test_outcomes_never_name_a_word_that_failed(station):
    outcome = station.submit("qi zzz cat")
    exposed = {k: v for k, v in outcome._asdict().items() if k != "verdict"}
    assert "ZZZ" not in repr(exposed)
    assert set(outcome.verdict._fields) == {"words", "acceptable", "lexicon"}


# -- the print desk ----------------------------------------------------------------------------


def test_print_desk_without_a_printer_prints_nothing_and_says_nothing(station):
    desk = PrintDesk(station)
    assert desk.print_outcome(station.submit("qi")).text == ""
    assert desk.reprint(1).error and "No printer" in desk.reprint(1).text


def test_print_desk_refuses_to_print_an_unrecorded_verdict(config, make_lexicon):
    cfg = config.with_changes(printer=PrinterSettings(url="loop://"))
    service = open_station(cfg, make_lexicon(["QI"]), SpyJournal(fail=True))
    note = PrintDesk(service).print_outcome(service.submit("qi"))
    assert note.error and NOT_RECORDED in note.text and "a single TICK" in note.text


def test_print_desk_says_there_is_nothing_to_reprint_yet(config, station):
    station.config = config.with_changes(printer=PrinterSettings(url="loop://"))
    desk = PrintDesk(station)
    try:
        assert desk.reprint(None).text == "No slip to reprint yet."
        assert "Cannot reprint #99" in desk.reprint(99).text
    finally:
        desk.close(wait=0)


# -- the protocol as data ----------------------------------------------------------------------


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_protocol_entry_idle_clears_an_unfinished_entry():
    clock = Clock()
    protocol = Protocol(Timers(entry_idle=30, verdict_hold=2, verdict_clear=15), clock)
    assert protocol.typed("qi") is State.ENTRY and protocol.remaining() == 30
    clock.now += 29
    assert protocol.expire() is State.ENTRY
    protocol.typed("qi za")  # each key restarts the idle timer
    clock.now += 29
    assert protocol.expire() is State.ENTRY
    clock.now += 1
    assert protocol.expire() is State.READY and protocol.deadline is None
    assert protocol.typed("   ") is State.READY  # only spaces: nothing typed yet


def test_protocol_holds_the_verdict_then_clears_it_from_when_it_was_shown():
    clock = Clock()
    protocol = Protocol(Timers(entry_idle=30, verdict_hold=2, verdict_clear=15), clock)
    protocol.typed("qi")
    assert protocol.judged() is State.VERDICT_HELD
    assert protocol.key_on_verdict("x") is Action.IGNORE  # the end of a burst skips nothing
    assert protocol.typed("late letters") is State.VERDICT_HELD  # typing cannot leave it
    clock.now += 2
    assert protocol.expire() is State.VERDICT and protocol.remaining() == 13
    assert protocol.key_on_verdict("r") is Action.RECHECK
    assert protocol.key_on_verdict("space") is Action.NEXT
    clock.now += 13
    assert protocol.expire() is State.READY


def test_protocol_without_a_hold_takes_keys_at_once():
    protocol = Protocol(Timers(entry_idle=30, verdict_hold=0, verdict_clear=15), Clock())
    assert protocol.judged() is State.VERDICT
    assert protocol.key_on_verdict("R") is Action.RECHECK
    assert protocol.next_challenge() is State.READY


def test_protocol_takes_one_judgement_at_a_time_and_only_from_ready_or_entry():
    """Issue 28: two clicks on ADJUDICATE (or a click and TAB) read together are one challenge;
    a request to judge or recheck is taken only in the state that allows it, by every surface."""
    clock = Clock()
    protocol = Protocol(Timers(entry_idle=30, verdict_hold=2, verdict_clear=15), clock)
    protocol.typed("cat xu")
    assert protocol.take_judgement() is True
    assert protocol.take_judgement() is False  # the second request of the same challenge
    assert protocol.take_recheck() is False
    assert protocol.key_on_verdict("r") is Action.IGNORE
    clock.now += 60
    assert protocol.expire() is State.ENTRY  # no timer applies while the judgement is made
    assert protocol.judged() is State.VERDICT_HELD
    assert protocol.take_judgement() is False  # a verdict takes no judgement
    assert protocol.take_recheck() is False  # held: a stray R is not a recheck
    clock.now += 2
    assert protocol.expire() is State.VERDICT
    assert protocol.take_judgement() is False
    assert protocol.take_recheck() is True
    assert protocol.take_recheck() is False and protocol.key_on_verdict("space") is Action.IGNORE
    assert protocol.judged() is State.VERDICT_HELD  # the recheck shown, held again
    clock.now += 2
    protocol.expire()
    assert protocol.key_on_verdict("space") is Action.NEXT
    protocol.next_challenge()
    assert protocol.take_recheck() is False  # gone back to Ready: no recheck nobody sees
    assert protocol.take_judgement() is True
    assert protocol.refused() is State.READY  # refused entry: nothing judged, ask again
    assert protocol.take_judgement() is True


def test_each_table_counts_its_own_challenges_across_stations_sharing_a_counter(config,
                                                                                 make_lexicon):
    """The phone server's Stations (one per device) share one TableCounts: table 12's count is
    table 12's, whichever phone judged, and it starts from what the journal already holds."""
    from adjudicator.station.service import TableCounts

    lexicon = make_lexicon(["QI", "ZA"])
    first = open_station(config, lexicon)
    first.submit("qi", table="12")
    first.close()
    counts = TableCounts()
    phone_a = open_station(config, lexicon, session="phone-a", table_counts=counts)
    phone_b = open_station(config, lexicon, session="phone-b", table_counts=counts)
    try:
        assert phone_a.table_count("12") == 1  # read from the journal on first use
        phone_a.submit("za", table="12")
        phone_b.submit("qi zz", table="12")
        phone_b.submit("qi", table="7")
        with pytest.raises(EntryError):
            phone_b.submit("q1", table="7")  # never judged: never counted
        assert (phone_a.table_count("12"), phone_b.table_count("7")) == (3, 1)
        assert phone_a.table_count("99") == 0
        assert phone_a.judged_count() == 4  # the journal's whole count is unchanged
    finally:
        phone_a.close()
        phone_b.close()


def test_an_entry_longer_than_any_play_is_refused_unparsed_and_unrecorded(station):
    """Every surface submits through the station: 100 KB of letters is refused with a message."""
    with pytest.raises(EntryError, match="at most 136 characters") as e:
        station.submit("qi " * 34_000)
    assert e.value.code == "entry-too-long"
    assert station.judged_count() == 0
    assert station.submit("qi").verdict.words == ("QI",)


@pytest.mark.parametrize("table, round_", [("²", ""), ("１２", ""), ("0", ""), ("12", "٣"),
                                           ("\x1b[2J", ""), ("x" * 600, "")])
def test_a_table_or_round_that_is_not_one_is_refused_before_anything_is_judged(station, table,
                                                                                 round_):
    """What the hub would not sort or show as a table (adjudicator/event/tables.py) never leaves the
    station: a TableError (exit 2, as a malformed entry), nothing judged, nothing recorded."""
    from adjudicator.event.tables import TableError

    with pytest.raises(TableError, match="is not a (table|round): type a number from 1 to 9999"):
        station.submit("QI", table=table, round=round_)
    with pytest.raises(TableError):
        station.judge_group([("QI",)], table=table, round=round_)
    assert station.journal.count() == 0
    outcome = station.submit("QI", table=" 007 ", round="03")  # leading zeros: table 7
    assert (outcome.table, outcome.round) == ("7", "3")
    assert [(r.table, r.round) for r in station.journal.recent(5)] == [("7", "3")]
