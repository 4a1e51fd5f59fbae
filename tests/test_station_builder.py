"""One way to build a station and its hub link (station.open_station, link/attach.py)."""

from __future__ import annotations

import pytest

from adjudicator.config.station import Config
from adjudicator.link import attach
from adjudicator.station.service import open_station


def hub_config(tmp_path, **more) -> Config:
    return Config(station="Desk", journal=str(tmp_path / "d.db"), hub="http://127.0.0.1:9",
                  hub_token="t", **more)


def test_a_deferred_journal_calls_its_hooks_once_it_opens(tmp_path, make_lexicon):
    station = open_station(Config(journal=str(tmp_path / "j.db")), make_lexicon(["QI"]),
                           defer_journal=True)
    heard = []
    station.on_journal_open(lambda: heard.append(station.journal_pending))
    assert heard == [] and station.journal_pending
    assert station.submit("qi").recorded  # the first verdict opens it
    assert heard == [False]
    station.on_journal_open(lambda: heard.append("now"))  # open already: called at once
    assert heard == [False, "now"]
    station.close()


def test_a_station_opened_now_has_its_journal_and_no_link_without_a_hub(tmp_path,
                                                                        make_lexicon):
    station = open_station(Config(journal=str(tmp_path / "j.db")), make_lexicon(["QI"]))
    assert not station.journal_pending and station.journal is not None
    assert station.hub_link is None
    station.close()


def test_once_makes_a_sender_not_started_that_follows_the_hub(tmp_path, make_lexicon):
    station = open_station(hub_config(tmp_path), make_lexicon(["QI"]), link=attach.ONCE,
                           timeout=1.0)
    link = station.hub_link
    try:
        assert link is not None and not link.alive and link.timeout == 1.0
        assert link.on_event == station.follow and link.on_name == station.renamed
        assert station.takes_at_once  # no screen: a change is taken as it comes
    finally:
        link.stop()
        station.close()


def test_once_without_following_leaves_the_hubs_event_alone(tmp_path, make_lexicon):
    station = open_station(hub_config(tmp_path), make_lexicon(["QI"]), link=attach.ONCE,
                           follow=False)
    try:
        assert station.hub_link.on_event is None and station.hub_link.on_name is None
    finally:
        station.hub_link.stop()
        station.close()


def test_no_link_and_no_journal_when_asked_for_none(tmp_path, make_lexicon):
    station = open_station(hub_config(tmp_path), make_lexicon(["QI"]), link=attach.NO_LINK,
                           records=False)
    assert station.hub_link is None and station.journal is None
    assert not (tmp_path / "d.db").exists()  # nothing recorded, nothing made


def test_an_unknown_link_is_refused(tmp_path, make_lexicon):
    with pytest.raises(ValueError, match="live, once, none"):
        open_station(hub_config(tmp_path), make_lexicon(["QI"]), link="sometimes")
