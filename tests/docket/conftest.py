"""Fixtures for the docket printer tests: a fake printer on a pty and quick connection settings."""

from __future__ import annotations

import pytest
from fake_lp import FakeLpDevice
from fake_printer import FakePrinter

from adjudicator.docket import Connection, lpdev


@pytest.fixture
def fake_printer():
    printer = FakePrinter()
    yield printer
    printer.close()


@pytest.fixture
def connect():
    """Connection settings for a fake printer with short bounded waits (seconds, not minutes).

    The status wait leaves the fake's thread room on a busy machine; tests of a silent printer
    pass a shorter one since no answer is coming anyway.
    """
    def make(printer, **over) -> Connection:
        values = dict(url=printer.path, baudrate=115200, flow="none", write_timeout=0.5,
                      columns=32, status_timeout=0.8)
        values.update(over)
        return Connection(**values)
    return make


@pytest.fixture
def device(monkeypatch):
    """device(state, **script): fake_lp's USB printer-class device, put in for lpdev's OS calls
    (each shut after the test)."""
    made = []

    def make(state="ok", **script) -> FakeLpDevice:
        fake = FakeLpDevice(state, **script)
        made.append(fake)
        monkeypatch.setattr(lpdev, "OPS", fake)
        return fake
    yield make
    for fake in made:
        fake.shut()
