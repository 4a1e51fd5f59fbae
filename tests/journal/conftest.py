"""Journal fixtures: a journal on a hand-moved clock in each test's tmp folder."""

from __future__ import annotations

import pytest
from journal_helpers import Clock

from adjudicator.journal import Journal


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def jpath(tmp_path) -> str:
    return str(tmp_path / "station1.db")


@pytest.fixture
def journal(jpath, clock):
    j = Journal.open(jpath, clock=clock)
    yield j
    j.close()


