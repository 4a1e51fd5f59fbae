"""A journal another program holds locked (issue 36): words and "recording..." drawn, a bounded
wait, then NOT RECORDED with no verdict, the station at Ready with the words kept.

The station froze on TAB with nothing drawn, not even the typed words, until the lock went (up
to 120 s). Here another connection holds SQLite's write lock; the station's wait is shortened
so the test is quick (the real one is adjudicator.station.journal_hold.STATION_LOCK_PATIENCE).
"""

from __future__ import annotations

import sqlite3

import pytest
from kiosk_helpers import elapse, screen_name, text_of

from adjudicator.journal import Journal
from adjudicator.station.journal_hold import STATION_LOCK_PATIENCE
from kiosk.screens.ready import RECORDING


async def settle(pilot, n: int = 3):
    for _ in range(n):
        await pilot.pause()


class Locker:
    """Another program's connection holding the journal's write lock while `held`."""

    def __init__(self, path: str):
        self.conn = sqlite3.connect(path, isolation_level=None)

    def hold(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.conn.execute("ROLLBACK")
        self.conn.close()


def test_a_station_waits_a_few_seconds_at_most():
    assert 1 <= STATION_LOCK_PATIENCE <= 5


@pytest.mark.asyncio
async def test_a_locked_journal_says_recording_then_not_recorded_with_no_verdict(make_app, config):
    journal = Journal.open(config.journal, timeout=0.3)  # a short wait for the test
    app = make_app(journal=journal)
    locker = Locker(config.journal)
    seen = {}
    submit = app.station.submit

    def watched_submit(text, **kwargs):  # what the screen says when the record starts
        seen["message"] = text_of(app, "#message")
        seen["typed"] = app.screen.query_one("#typed").text
        seen["painted"] = app.screen._compositor is not None and any(
            RECORDING in strip.text for strip in app.screen._compositor.render_strips())
        return submit(text, **kwargs)

    app.station.submit = watched_submit
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            locker.hold()
            await pilot.press(*"qi za", "tab")
            await settle(pilot, 6)
            assert seen == {"message": RECORDING, "typed": "QI ZA", "painted": True}
            assert screen_name(app) == "ReadyScreen"  # no verdict
            message = text_of(app, "#message")
            assert message.startswith("NOT RECORDED, no verdict")
            assert "locked by another program" in message
            assert "ACCEPTABLE" not in message
            assert app.screen.query_one("#entry").value == "qi za"  # kept: TAB tries again
            assert journal.count() == 0
            locker.release()
            await elapse(pilot, app, 0.3)  # the refusal's hold (verdict_hold) over
            await pilot.press("tab")
            await settle(pilot)
            assert screen_name(app) == "VerdictScreen"
            assert journal.count() == 1 and journal.get(1).words == ("QI", "ZA")
    finally:
        journal.close()


def test_through_a_terminal_the_words_and_recording_are_drawn_then_not_recorded(tmp_path):
    """`qi za` and TAB in one write while another program holds the journal locked: the words
    and "recording..." are on screen at once, NOT RECORDED with no verdict after the wait, and
    the station judges again once the lock is gone."""
    from pty_driver import PtyApp, child_env, kiosk_argv, station_config
    from pty_screen import Shown

    config, journal_path = station_config(tmp_path)
    app = PtyApp(kiosk_argv(config), child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache")))
    try:
        shown = Shown(app)
        shown.wait("station: 0")  # the journal is open (its count shown)
        locker = Locker(journal_path)
        locker.hold()
        app.write(b"qi za\t")
        shown.wait(RECORDING, "qi za", timeout=30)  # (overwritten by NOT RECORDED after the wait)
        lines = shown.wait("NOT RECORDED", "qi za", timeout=30)
        assert not any("the play is" in line for line in lines)
        shown.wait("TAB tries again")  # said once the refusal's hold is over
        locker.release()
        mark = len(app.screen)
        app.write(b"\t")
        app.read_until(b"the play is", start=mark)
        with Journal.open(journal_path) as j:
            assert [r.words for r in j.rows()] == [("QI", "ZA")]
    finally:
        app.close()


def test_keys_typed_while_the_record_waits_change_nothing(tmp_path):
    """Issue 42 item 2: another program holds the write lock; `cat xu` TAB, then `zz` TAB while
    the station waits. The queued keys made the entry `cat xuzz`, painted over the refusal
    unread, and CAT XUZZ was recorded once the lock went: a play nobody confirmed. Now they
    do nothing: the refusal stays, the words are CAT XU, and TAB after the hold records CAT XU."""
    from pty_driver import PtyApp, child_env, kiosk_argv, station_config
    from pty_screen import Shown

    config, journal_path = station_config(tmp_path)
    app = PtyApp(kiosk_argv(config), child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache")))
    try:
        shown = Shown(app)
        shown.wait("station: 0")
        locker = Locker(journal_path)
        locker.hold()
        app.write(b"cat xu\t")
        shown.wait(RECORDING, "cat xu", timeout=30)
        app.write(b"zz\t")  # while the station waits for the lock
        shown.wait("TAB tries again", timeout=30)  # the refusal, its hold over
        lines = shown.lines()
        assert any("NOT RECORDED" in line for line in lines)
        assert not any("xuzz" in line.lower() for line in lines)
        locker.release()
        mark = len(app.screen)
        app.write(b"\t")
        app.read_until(b"the play is", start=mark)
        shown.wait("Words: CAT XU")
        with Journal.open(journal_path) as j:
            assert [r.words for r in j.rows()] == [("CAT", "XU")]
    finally:
        app.close()
