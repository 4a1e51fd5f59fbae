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
        cfg = kwargs.pop("config", frozen)
        journals.append(Journal.open(cfg.journal, clock=lambda: FIXED_TIME))
        return make_app(config=cfg, journal=journals[-1], **kwargs)

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


class _HeldQueue:
    """A printer queue that takes slips and never reports: the picture shows 'Printing...'."""

    def submit(self, seq, slip):
        pass

    def close(self, wait=1.0):
        pass


@pytest.fixture
def runner_desk(snap_app, config, tiny):
    """The runner's desk with two slips that did not print (paper out), read from the journal."""
    from adjudicator.config import PrinterSettings
    from adjudicator.printdesk import PrintDesk
    from adjudicator.verdict import adjudicate

    runner_config = config.with_changes(
        mode="runner", station="Runners' desk",
        timers=Timers(entry_idle=900, verdict_hold=900, verdict_clear=900),
        printer=PrinterSettings(url="/dev/ttyUSB0"))
    with Journal.open(runner_config.journal, clock=lambda: FIXED_TIME) as journal:
        for table, words in (("7", ("CAT", "XYZZY")), ("12", ("QI",))):
            seq = journal.record(adjudicate(tiny, words), station="Runners' desk", mode="runner",
                                 rule="5-per-word", table=table, round="3")
            journal.set_print_status(seq, "failed", f"Slip for challenge #{seq} not printed: "
                                     "paper out. Reload paper and press P to reprint.")

    class HeldDesk(PrintDesk):
        def queue(self):
            return _HeldQueue()

    app = snap_app(config=runner_config)
    app.print_desk = HeldDesk(app.station)
    return app


def test_runner_desk(snap_compare, runner_desk):
    """docs/img/runner-desk.png: a verdict, its slip printing, two slips not printed listed."""
    assert snap_compare(runner_desk, terminal_size=(100, 32),
                        run_before=_typing(*"14", "enter", *"3", "enter", *"qi za", "tab"))


def test_runner_desk_small(snap_compare, runner_desk):
    assert snap_compare(runner_desk, terminal_size=(80, 24),
                        run_before=_typing(*"9", "enter", "enter", *"cat xyzzy", "tab"))
