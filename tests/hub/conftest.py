"""Fixtures for the hub: a hub served on a thread of this process, a station journal that forwards."""

from __future__ import annotations

import pytest
from running_hub import RunningHub

from adjudicator.link import forward


@pytest.fixture
def start_hub(tmp_path):
    """start_hub(path=None, port=0) -> RunningHub; all stopped after the test."""
    started: list[RunningHub] = []

    def start(path=None, port: int = 0, **options) -> RunningHub:
        started.append(RunningHub(str(path or tmp_path / "hub.db"), port, **options))
        return started[-1]

    try:
        yield start
    finally:
        forward.stop_all()
        for hub in started:
            hub.stop()
