"""Snapshots of the main screens at 80x24 and 160x48 (pytest-textual-snapshot)."""

from __future__ import annotations

import pytest

from adjudicator.config import Timers
from adjudicator.journal import Journal
from kiosk_helpers import FIXED_TIME

SIZES = [(80, 24), (160, 48)]


@pytest.fixture
def snap_app(make_app, config, make_lexicon, monkeypatch):
    """The kiosk frozen for pictures: fixed clocks and journal id (the row hash on the verdict
    screen depends on the journal's clock and on its id, a random UUID), timers that never fire."""
    import uuid

    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=0x5EED))
    frozen = config.with_changes(timers=Timers(entry_idle=900, verdict_hold=900, verdict_clear=900))
    journals = []

    def make(**kwargs):
        journals.append(Journal.open(frozen.journal, clock=lambda: FIXED_TIME))
        return make_app(config=frozen, journal=journals[-1], **kwargs)

    yield make
    for journal in journals:
        journal.close()


async def _no_blink(pilot):
    for widget in pilot.app.screen.query("Input"):
        widget.cursor_blink = False
    await pilot.pause()


def _typing(*keys):
    async def run(pilot):
        await pilot.press(*keys)
        await _no_blink(pilot)
        await pilot.pause()

    return run


@pytest.mark.parametrize("size", SIZES)
def test_ready(snap_compare, snap_app, size):
    assert snap_compare(snap_app(), terminal_size=size, run_before=_no_blink)


@pytest.mark.parametrize("size", SIZES)
def test_entry(snap_compare, snap_app, size):
    assert snap_compare(snap_app(), terminal_size=size, run_before=_typing(*"qi za cat"))


@pytest.mark.parametrize("size", SIZES)
def test_verdict_acceptable(snap_compare, snap_app, size):
    assert snap_compare(snap_app(), terminal_size=size, run_before=_typing(*"qi za", "tab"))


@pytest.mark.parametrize("size", SIZES)
def test_verdict_unacceptable(snap_compare, snap_app, size):
    assert snap_compare(snap_app(), terminal_size=size,
                        run_before=_typing(*"qi xyzzy", "tab"))


def test_malformed_entry_answered_in_place(snap_compare, snap_app):
    assert snap_compare(snap_app(), run_before=_typing(*"cat5", "tab"))


def test_director_door_without_pin(snap_compare, snap_app):
    assert snap_compare(snap_app(), run_before=_typing("f12"))


def test_phone_width_verdict(snap_compare, snap_app):
    assert snap_compare(snap_app(), terminal_size=(45, 30), run_before=_typing(*"qi za", "tab"))
