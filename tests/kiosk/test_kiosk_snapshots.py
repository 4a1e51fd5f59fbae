"""Snapshots of every screen at 80x24, 120x40 and a phone with its keyboard up (45x30).

pytest-textual-snapshot; the station judges with the embedded ENABLE list, so each picture shows
a real list's name and fingerprint and its "not a tournament word list" warning. Never accept a
regenerated snapshot without opening it and looking at it (docs/development.md).
"""

from __future__ import annotations

import pytest

from adjudicator.config.station import Timers
from adjudicator.journal import Journal
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.event.pin import hash_pin
from adjudicator.lexicon.library import default_path
from kiosk_helpers import FIXED_TIME, elapse

# id: (columns, rows). "phone": a phone's terminal with its on-screen keyboard up.
SIZES = {"80x24": (80, 24), "120x40": (120, 40), "phone": (45, 30)}
SIZE_IDS = list(SIZES)
PIN = "2468"
# 9 words, the longest 15 letters: too many words, answered in place, never judged
LONG_MALFORMED = ("quixotically overdecorated bewilderment extraordinary counterattack "
                  "flabbergasted woodpeckers zigzagging comprehensible")
# one long play (8 words) in the director's list of last challenges
LONG_PLAY = ("counterattacked extraordinarily bewilderments flabbergasting "
             "comprehensible overdecorating quixotically woodpeckers")


@pytest.fixture(scope="session")
def enable():
    return Lexicon.load(default_path())


@pytest.fixture
def snap_app(make_app, config, enable, monkeypatch, tmp_path):
    """The kiosk frozen for pictures: fixed clocks and journal id (the row hash on the verdict
    screen depends on the journal's clock and on its id, a random UUID), timers that never fire,
    the embedded ENABLE list, the config file and journal named as the same relative paths in
    every run (director mode shows them)."""
    import uuid

    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=0x5EED))
    monkeypatch.chdir(tmp_path)
    frozen = config.with_changes(
        path="station.toml", journal_setting="journal.db",
        timers=Timers(entry_idle=900, verdict_hold=900, verdict_clear=900, director_idle=900),
    ).with_changes(journal="journal.db")  # as given, not made absolute (the tmp folder's name)
    journals = []

    def make(**kwargs):
        cfg = kwargs.pop("config", frozen)
        journals.append(Journal.open(cfg.journal, clock=lambda: FIXED_TIME))
        kwargs.setdefault("lexicon", enable)
        return make_app(config=cfg, journal=journals[-1], **kwargs)

    make.frozen = frozen
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


def _snap(snap_compare, app, size_id, *keys):
    return snap_compare(app, terminal_size=SIZES[size_id], run_before=_typing(*keys))


# -- the station ---------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZE_IDS)
def test_ready(snap_compare, snap_app, size):
    assert snap_compare(snap_app(), terminal_size=SIZES[size], run_before=_no_blink)


@pytest.mark.parametrize("size", SIZE_IDS)
def test_entry(snap_compare, snap_app, size):
    assert _snap(snap_compare, snap_app(), size, *"cat dog")


@pytest.mark.parametrize("size", SIZE_IDS)
def test_malformed_long_entry(snap_compare, snap_app, size):
    """Issue 21: the bottom row of the big letters was cut at 80x24."""
    assert _snap(snap_compare, snap_app(), size, *LONG_MALFORMED, "tab")


@pytest.mark.parametrize("size", SIZE_IDS)
def test_verdict_acceptable(snap_compare, snap_app, size):
    assert _snap(snap_compare, snap_app(), size, *"cat dog", "tab")


@pytest.mark.parametrize("size", SIZE_IDS)
def test_verdict_unacceptable(snap_compare, snap_app, size):
    assert _snap(snap_compare, snap_app(), size, *"cat xyzzy", "tab")


@pytest.mark.parametrize("keys", ["", "cat dog", "cat dog\t", "cat xyzzy\t"],
                         ids=["ready", "entry", "acceptable", "unacceptable"])
def test_console_style(snap_compare, snap_app, keys):
    """The console style (TERM=linux, issue 28) at the console's 80x25: full blocks, ASCII and
    line drawing only; backgrounds of the console's eight colours."""
    app = snap_app(config=snap_app.frozen.with_changes(style="console"))
    keys = ["tab" if k == "\t" else k for k in keys]
    assert snap_compare(app, terminal_size=(80, 25), run_before=_typing(*keys))


# -- the director --------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZE_IDS)
def test_director_door_without_pin(snap_compare, snap_app, size):
    """A try-out station (no PIN): F12 opens director mode, which says so and names the config
    to lock (an absolute path, the same in every run: never read, as no file is there)."""
    app = snap_app(config=snap_app.frozen.with_changes(path="/srv/adjudicator/station.toml"))
    assert _snap(snap_compare, app, size, "f12")


@pytest.fixture
def pinned_app(snap_app):
    """A station with a PIN and two challenges judged, one of them a long play."""
    timers = Timers(entry_idle=900, verdict_hold=0.2, verdict_clear=900, director_idle=900)
    return snap_app(config=snap_app.frozen.with_changes(pin_hash=hash_pin(PIN), timers=timers))


async def _judge(pilot, words):
    await pilot.press(*words, "tab")
    await elapse(pilot, pilot.app, 0.3)  # the verdict's hold runs out
    await pilot.press("space")
    for _ in range(3):
        await pilot.pause()


def _director(*then):
    async def run(pilot):
        await _judge(pilot, "cat dog")
        await _judge(pilot, LONG_PLAY)
        await pilot.press("f12")
        await pilot.pause()
        await pilot.press(*PIN, "enter")
        for _ in range(3):
            await pilot.pause()
        for step in then:
            await step(pilot)
        await _no_blink(pilot)

    return run


async def _pin_typed(pilot):
    await pilot.press("f12")
    await pilot.pause()
    await pilot.press(*"24")
    await _no_blink(pilot)


async def _bad_setting_saved(pilot):
    """The timers and Save in view, an invalid timer saved: the refusal at the foot."""
    screen = pilot.app.screen
    screen.query_one("#f-entry_idle").value = "soon"
    screen.query_one("#timers").scroll_visible(animate=False, top=True)
    await pilot.pause()
    screen.save()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZE_IDS)
def test_director_pin(snap_compare, pinned_app, size):
    assert snap_compare(pinned_app, terminal_size=SIZES[size], run_before=_pin_typed)


@pytest.mark.parametrize("size", SIZE_IDS)
def test_director_mode(snap_compare, pinned_app, size):
    assert snap_compare(pinned_app, terminal_size=SIZES[size], run_before=_director())


@pytest.mark.parametrize("size", SIZE_IDS)
def test_director_settings_refused(snap_compare, pinned_app, size):
    assert snap_compare(pinned_app, terminal_size=SIZES[size],
                        run_before=_director(_bad_setting_saved))


@pytest.mark.parametrize("size", SIZE_IDS)
def test_director_recent_challenges(snap_compare, pinned_app, size):
    """Issue 21: one long play pushed Verdict, Flags and Print off screen."""
    async def to_recent(pilot):
        pilot.app.screen.query_one("#recent").scroll_visible(animate=False, top=True)
        await pilot.pause()

    assert snap_compare(pinned_app, terminal_size=SIZES[size], run_before=_director(to_recent))


# -- the runner's desk ---------------------------------------------------------------------

class _HeldQueue:
    """A printer queue that takes slips and never reports: the picture shows 'Printing...'."""

    def submit(self, seq, slip):
        pass

    def close(self, wait=1.0):
        pass


def _runner_config(snap_app, printer: bool):
    from adjudicator.config.station import PrinterSettings

    return snap_app.frozen.with_changes(
        mode="runner", station="Runners' desk",
        timers=Timers(entry_idle=900, verdict_hold=900, verdict_clear=900),
        printer=PrinterSettings(url="/dev/ttyUSB0" if printer else ""))


@pytest.fixture
def runner_desk(snap_app, enable):
    """The runner's desk with two slips that did not print (paper out), read from the journal."""
    from adjudicator.station.printdesk import PrintDesk
    from adjudicator.judging.verdict import adjudicate

    runner_config = _runner_config(snap_app, printer=True)
    with Journal.open(runner_config.journal, clock=lambda: FIXED_TIME) as journal:
        for table, words in (("7", ("CAT", "XYZZY")), ("12", ("DOG",))):
            seq = journal.record(adjudicate(enable, words), station="Runners' desk",
                                 mode="runner", rule="5-per-word", table=table, round="3")
            journal.set_print_status(seq, "failed", f"Slip for challenge #{seq} not printed: "
                                     "paper out. Reload paper and press P to reprint.")

    class HeldDesk(PrintDesk):
        def queue(self):
            return _HeldQueue()

    app = snap_app(config=runner_config)
    app.print_desk = HeldDesk(app.station)
    return app


@pytest.mark.parametrize("size", SIZE_IDS)
def test_runner_desk_idle(snap_compare, snap_app, size):
    app = snap_app(config=_runner_config(snap_app, printer=False))
    assert snap_compare(app, terminal_size=SIZES[size], run_before=_no_blink)


@pytest.mark.parametrize("size", SIZE_IDS)
def test_runner_desk_verdict(snap_compare, snap_app, size):
    app = snap_app(config=_runner_config(snap_app, printer=False))
    assert _snap(snap_compare, app, size, *"9", "enter", *"3", "enter", *"cat xyzzy", "tab")


@pytest.mark.parametrize("size", SIZE_IDS)
def test_runner_desk_unprinted(snap_compare, runner_desk, size):
    """docs/img/runner-desk.png: a verdict, its slip printing, two slips not printed listed."""
    assert _snap(snap_compare, runner_desk, size, *"14", "enter", *"3", "enter", *"cat dog",
                 "tab")
