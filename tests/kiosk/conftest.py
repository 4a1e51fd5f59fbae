"""Kiosk fixtures: a config in tmp, tiny lexicons, a journal, the app from the one factory."""

from __future__ import annotations

import pytest

from adjudicator.config.station import Config, Timers
from adjudicator.journal import Journal
from kiosk.app import build_app
from adjudicator.station.protocol import Protocol
from kiosk_helpers import FIXED_TIME, TINY, BrokenJournal, StepClock


@pytest.fixture
def config(tmp_path) -> Config:
    """A station config in tmp; long timers so nothing moves on its own unless a test says so."""
    return Config(
        event="Test Open",
        station="Station 7",
        journal=str(tmp_path / "journal.db"),
        journal_setting=str(tmp_path / "journal.db"),
        path=str(tmp_path / "config.toml"),
        timers=Timers(entry_idle=300, verdict_hold=0.2, verdict_clear=300),
    )


@pytest.fixture
def tiny(make_lexicon):
    return make_lexicon(TINY, name="TINY")


@pytest.fixture
def make_app(config, tiny):
    """make_app(**changes): the kiosk on the tiny list, with its own journal; closed at the end.

    Its protocol (entry idle, verdict hold and clear) runs on a StepClock: protocol time passes
    only through kiosk_helpers.elapse."""
    journals = []

    def make(lexicon=None, journal=None, **kwargs):
        cfg = kwargs.pop("config", config)
        if journal is None:
            journal = Journal.open(cfg.journal)
            journals.append(journal)
        kwargs.setdefault("clock", lambda: FIXED_TIME)
        app = build_app(cfg, lexicon or (None if cfg.event_divisions else tiny), journal, **kwargs)
        app.protocol_clock = StepClock()
        app.protocol = Protocol(app.protocol.timers, clock=app.protocol_clock)
        return app

    yield make
    for j in journals:
        j.close()


@pytest.fixture
def broken_journal():
    return BrokenJournal()
