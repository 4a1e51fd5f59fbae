"""A verdict recorded is a verdict shown (issue 36): a crash between the commit and the paint.

Killed right after the journal's commit, 25 of 25 rows were never shown; the restarted station
said nothing of them, and the players' re-challenge was flagged "possible split look-up". Now a
verdict is marked shown once painted (adjudicator/station/unseen.py), and a restarted station shows the
last one of its own that was not, words, verdict and number, before it is used; the same words
challenged again are its recheck.
"""

from __future__ import annotations

import sys

import pytest
from kiosk_helpers import elapse, screen_name, text_of
from pty_driver import PtyApp, hooked_env, kiosk_argv, station_config
from pty_screen import Shown

from adjudicator.journal import Journal
from adjudicator.journal.flags import SPLIT_LOOKUP
from adjudicator.station.service import open_station
from adjudicator.station.state import state_path
from adjudicator.station.unseen import last_shown

# A pseudo-terminal, POSIX signals and kill -9 of a supervised child: Linux and macOS only (on
# Windows the kiosk is spawned, tests/kiosk/test_kiosk_spawn.py; Windows has no SIGKILL or pty)
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty and POSIX signals")

SIZE = (80, 24)


async def settle(pilot, n: int = 4):
    for _ in range(n):
        await pilot.pause()


@pytest.mark.asyncio
async def test_a_restarted_station_shows_the_verdict_it_never_showed(make_app, config, tiny):
    first = make_app()
    async with first.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi", "tab")
        await settle(pilot)
        assert screen_name(first) == "VerdictScreen"
    assert last_shown(state_path(config.journal)) == 1  # painted: marked shown
    # the next challenge is committed, and the station dies before its paint
    with Journal.open(config.journal) as journal:
        station = open_station(config, tiny, journal)
        station.submit("za cat")  # recorded, never shown
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        assert text_of(app, "#late").startswith("RECORDED BUT NEVER SHOWN")
        assert text_of(app, "#words") == "Words: ZA CAT"
        assert "ACCEPTABLE" in text_of(app, "#plain")
        assert text_of(app, "#record").startswith("Challenge #2")
        assert last_shown(state_path(config.journal)) == 2  # shown now
        await elapse(pilot, app, 0.4)
        await pilot.press("space")
        await pilot.press(*"za cat", "tab")  # the players challenge it again
        await settle(pilot)
        assert text_of(app, "#recheck-of") == "RECHECK OF #2"
        assert not app.screen.query_one("#late").display
        row = app.station.journal.get(3)
        assert row.recheck_of == 2 and SPLIT_LOOKUP not in row.flags
        await elapse(pilot, app, 0.4)
        await pilot.press("space")
        await pilot.press(*"za cat", "tab")  # once only: a later challenge is a challenge
        await settle(pilot)
        assert app.station.journal.get(4).recheck_of is None


@pytest.mark.asyncio
async def test_a_station_shows_nothing_late_when_every_verdict_was_shown(make_app, config):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi", "tab")
        await settle(pilot)
        await elapse(pilot, app, 0.4)
        await pilot.press("space")
        await settle(pilot)
    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert screen_name(again) == "ReadyScreen"


# The kiosk child dies (SIGKILL) right after the journal's commit of the first challenge, once:
# before anything of its verdict can be painted. Its supervisor starts a new child.
KILL_HOOK = '''
import os, signal
from adjudicator.journal import store
_append = store.Journal._append_rows
def _append_rows(self, rows, **kwargs):
    done = _append(self, rows, **kwargs)
    marker = os.environ["TEST_KILLED"]
    if not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return done
store.Journal._append_rows = _append_rows
'''


def test_killed_between_the_commit_and_the_paint_the_verdict_is_shown_after_the_restart(
        tmp_path):
    config, journal_path = station_config(tmp_path)
    env = dict(hooked_env(tmp_path, KILL_HOOK), TEST_KILLED=str(tmp_path / "killed"))
    app = PtyApp(kiosk_argv(config), env)
    try:
        shown = Shown(app)
        shown.wait("press TAB.")
        app.write(b"cat za\t")
        shown.wait("RECORDED BUT NEVER SHOWN", "Words: CAT ZA", "Challenge #1",
                   timeout=60)  # the new child's, painted whole
        shown.wait("next challenge")
        mark = len(app.screen)
        app.write(b" cat za\t")  # next, and the play challenged again: its recheck
        app.read_until(b"RECHECK OF #1", start=mark)
        with Journal.open(journal_path) as journal:
            rows = list(journal.rows())
        assert [(r.words, r.recheck_of) for r in rows] == [(("CAT", "ZA"), None),
                                                            (("CAT", "ZA"), 1)]
        assert SPLIT_LOOKUP not in rows[1].flags
    finally:
        app.close()


# Issue 42: the child killed as its row commits, and the next players typing while it restarts.
# The hook says the kill is coming (TEST_KILLING) just before it, so that the test writes the
# next players' keys while the new child starts.
TYPED_THROUGH_HOOK = '''
import os, signal
from adjudicator.journal import store

_append = store.Journal._append_rows
def _append_rows(self, rows, **kwargs):
    done = _append(self, rows, **kwargs)
    marker = os.environ["TEST_KILLED"]
    if not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return done
store.Journal._append_rows = _append_rows
'''


def wait_for_file(path, timeout: float = 60.0) -> None:
    import os
    import time

    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.005)


def test_keys_typed_during_the_restart_wait_for_the_verdict_never_shown(tmp_path):
    """`cat xu` TAB; the child killed as its row commits; `za qi` TAB typed while the new child
    starts (10 of 10 lost CAT XU, and judged ZA QI blind). Now CAT XU is shown, said to be
    RECORDED BUT NEVER SHOWN, before any key is applied: the keys typed blind meet it held
    and judge nothing; typed again once it is read, ZA QI is judged."""
    config, journal_path = station_config(tmp_path)
    killed = tmp_path / "killed"
    env = dict(hooked_env(tmp_path, TYPED_THROUGH_HOOK), TEST_KILLED=str(killed))
    app = PtyApp(kiosk_argv(config), env)
    try:
        shown = Shown(app)
        shown.wait("press TAB.")
        app.write(b"cat xu\t")
        wait_for_file(killed)
        app.write(b"za qi\t")  # the next players, during the restart
        shown.wait("RECORDED BUT NEVER SHOWN", "Words: CAT XU", "Challenge #1", timeout=60)
        shown.wait("next challenge")  # its hold over
        mark = len(app.screen)
        app.write(b" za qi\t")
        app.read_until(b"Challenge #2", start=mark)
        with Journal.open(journal_path) as journal:
            rows = [(r.words, r.recheck_of) for r in journal.rows()]
        assert rows == [(("CAT", "XU"), None), (("ZA", "QI"), None)]
    finally:
        app.close()


def test_at_the_runners_desk_the_slip_never_shown_is_the_one_labelled(tmp_path):
    """The desk killed as slip 1's row commits, the next slip typed during the restart (8 of
    8: slip 1 never shown, and slip 2 labelled RECORDED BUT NEVER SHOWN). Slip 1 is shown in
    the last-slip box, so labelled; the keys typed blind do nothing; slip 2 typed again is
    judged as itself."""
    config, journal_path = station_config(tmp_path, mode="runner")
    killed = tmp_path / "killed"
    env = dict(hooked_env(tmp_path, TYPED_THROUGH_HOOK), TEST_KILLED=str(killed))
    app = PtyApp(kiosk_argv(config), env, cols=100, rows=30)
    try:
        shown = Shown(app, 100, 30)
        shown.wait("RUNNER MODE")
        app.write(b"5\r\rcat xu\t")
        wait_for_file(killed)
        app.write(b"6\r\rza qi\t")
        lines = shown.wait("RECORDED BUT NEVER SHOWN", "Challenge #1 · Table 5", timeout=60)
        assert not any("ZA QI" in line for line in lines)
        app.write(b"6\r\rza qi\t")
        shown.wait("Challenge #2 · Table 6")
        with Journal.open(journal_path) as journal:
            rows = [(r.table, r.words) for r in journal.rows()]
        assert rows == [("5", ("CAT", "XU")), ("6", ("ZA", "QI"))]
    finally:
        app.close()
