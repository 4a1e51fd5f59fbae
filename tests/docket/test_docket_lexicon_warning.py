"""A slip judged with ENABLE or with an unrecognised list says so, as the verdict screen does.

Issue 11: only Ready said it. The slip goes back to the players (WESPA 3.11.2(a)(ix)), so a
verdict from a list that is not the tournament's must carry the warning on paper too.
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest
from escpos_decode import decode

from adjudicator.config.station import Config
from adjudicator.docket import encode_slip
from adjudicator.lexicon.known import LexiconIdentity, by_id
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.station.printdesk import lexicon_warning, slip_for, slip_from_row
from adjudicator.lexicon.library import default_path
from adjudicator.station.service import open_station

WHEN = dt.datetime(2026, 11, 22, 14, 3, 12, tzinfo=dt.timezone.utc)


def printed(slip) -> list[str]:
    return decode(encode_slip(slip, 32), 32).text


def judged_slip(tmp_path, lexicon) -> list[str]:
    config = Config(event="Test Open", station="Desk 2", mode="runner",
                    journal=str(tmp_path / "journal.db"))
    station = open_station(config, lexicon, clock=lambda: WHEN)
    try:
        return printed(slip_for(station, station.submit("QI ZA")))
    finally:
        station.close()


def test_an_unrecognised_list_is_said_on_the_slip(tmp_path, make_lexicon):
    text = " ".join(judged_slip(tmp_path, make_lexicon(["QI", "ZA"], name="TINY")))
    assert "UNRECOGNISED WORD LIST TINY" in text


def test_enable_is_said_not_a_tournament_list_on_the_slip(tmp_path):
    text = " ".join(judged_slip(tmp_path, Lexicon.load(default_path())))
    assert "NOT A TOURNAMENT WORD LIST" in text


def test_a_tournament_list_prints_no_warning():
    csw21 = by_id("CSW21")
    assert LexiconIdentity("CSW21", csw21.fingerprint, csw21.words, csw21).warning == ""
    assert lexicon_warning("CSW21", csw21.fingerprint) == ""


@pytest.mark.parametrize("fingerprint, expected", [
    ("0" * 64, "UNRECOGNISED WORD LIST"), (by_id("ENABLE").fingerprint if by_id("ENABLE")
                                          else "", "NOT A TOURNAMENT WORD LIST")])
def test_a_reprint_from_the_journal_carries_the_warning_too(fingerprint, expected):
    row = SimpleNamespace(station="Desk 2", seq=4, time_local="2026-11-22T14:03:12+00:00",
                          time_utc="", words=("QI",), acceptable=True, lexicon_name="X",
                          fingerprint=fingerprint, table="3", round="1", recheck_of=None,
                          rule="5-point")
    text = " ".join(printed(slip_from_row(row, "Test Open", "The play stands.", reprint=True)))
    assert expected in text
