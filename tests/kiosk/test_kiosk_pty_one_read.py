"""Whatever one read brings is applied in order, as the same keys and taps a moment apart (issue 36).

Through a real pseudo-terminal, each burst in ONE write: `" cat xu"` and TAB on a released
verdict gave an empty Ready and nothing judged (the words went to the verdict, which was
leaving); a NEXT click with `r` journaled a recheck and lost the NEXT; a RECHECK click with
SPACE went to Ready and dropped the recheck; F12, the PIN, ENTER, then ESC and a click on "Back
to the station" left a blank station that took nothing for good (5 of 5). Here each is sent in
one write and the screen and the journal must be what the keys a moment apart would make; keys
that do not mean "next" (TAB, function keys, Shift alone as the kitty protocol reports it) leave
the verdict up.
"""

from __future__ import annotations

import time

import pytest
from pty_driver import PtyApp, child_env, kiosk_argv, station_config
from pty_screen import Shown
from test_kiosk_pty_double import click, verdict_buttons

from adjudicator.journal import Journal
from adjudicator.event.pin import hash_pin

COLS, ROWS = 80, 24
RELEASED = "next challenge"  # the released verdict's hint
F12, ESC = b"\x1b[24~", b"\x1b"
PIN = "4321"


def rows(journal: str) -> list[tuple]:
    with Journal.open(journal) as j:
        return [(r.seq, r.words, r.recheck_of) for r in j.rows()]


@pytest.fixture
def kiosk(tmp_path):
    config, journal = station_config(tmp_path)
    app = PtyApp(kiosk_argv(config), child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache")),
                 cols=COLS, rows=ROWS)
    try:
        app.read_until(b"press TAB.")
        app.drain(1.0)  # the verdict screen is built after the first paint
        yield app, journal
    finally:
        app.close()


def verdict(app: PtyApp, shown: Shown, words: bytes) -> None:
    """WORDS judged, and the verdict released (its hold over: the buttons shown)."""
    app.write(words + b"\t")
    shown.wait(RELEASED)


def test_the_words_read_with_the_key_that_sends_a_verdict_away_are_judged(kiosk):
    app, journal = kiosk
    shown = Shown(app, COLS, ROWS)
    verdict(app, shown, b"qi")
    app.write(b" cat xu\t")  # one read: SPACE (next), the words, TAB
    shown.wait("Words: CAT XU")
    assert rows(journal) == [(1, ("QI",), None), (2, ("CAT", "XU"), None)]
    shown.wait(RELEASED)
    app.write(b"\rza\t")  # ENTER is a "next" key too
    shown.wait("Words: ZA")
    assert rows(journal)[-1] == (3, ("ZA",), None)


def test_a_next_click_with_r_goes_to_ready_and_types_r(kiosk):
    app, journal = kiosk
    shown = Shown(app, COLS, ROWS)
    verdict(app, shown, b"qi")
    app.write(verdict_buttons(app)["next"] + b"r")
    shown.wait("press TAB.", "▊  r ")  # R typed on Ready
    assert rows(journal) == [(1, ("QI",), None)]  # no recheck
    app.write(b"\x7fza\t")
    shown.wait("Words: ZA")
    assert rows(journal)[-1] == (2, ("ZA",), None)


def test_a_recheck_click_with_space_rechecks_and_the_space_meets_the_held_recheck(kiosk):
    app, journal = kiosk
    shown = Shown(app, COLS, ROWS)
    verdict(app, shown, b"za")
    app.write(verdict_buttons(app)["recheck"] + b" ")
    shown.wait("RECHECK OF #1")
    assert rows(journal) == [(1, ("ZA",), None), (2, ("ZA",), 1)]
    app.drain(0.5)
    assert shown.has("RECHECK OF #1")  # SPACE came while the recheck was held: nothing
    shown.wait(RELEASED)
    app.write(b"x")
    shown.wait("press TAB.", absent="RECHECK")


def test_keys_that_do_not_mean_next_leave_the_verdict_up(kiosk):
    app, journal = kiosk
    shown = Shown(app, COLS, ROWS)
    verdict(app, shown, b"qi")
    # TAB, F1, F5, F11, an arrow, ESC + ESC [ A (arrow), Shift alone and Ctrl+'+' as kitty
    # reports them, Alt+X (ESC x)
    app.write(b"\t\x1bOP\x1b[15~\x1b[23~\x1b[D\x1b[57441;2u\x1b[43;5u\x1bx")
    app.drain(1.0)
    assert shown.has(RELEASED) and shown.has("Words: QI")
    assert rows(journal) == [(1, ("QI",), None)]
    app.write(b"7")  # a digit means next
    shown.wait("press TAB.", absent="Words: QI")


def test_f12_on_a_released_verdict_asks_for_the_pin(tmp_path):
    config, _ = station_config(tmp_path)
    with open(config) as f:
        text = f.read()
    with open(config, "w") as f:
        f.write(f'pin_hash = "{hash_pin(PIN)}"\n' + text)
    app = PtyApp(kiosk_argv(config), child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache")),
                 cols=COLS, rows=ROWS)
    try:
        shown = Shown(app, COLS, ROWS)
        shown.wait("press TAB.")
        verdict(app, shown, b"qi")
        app.write(F12)
        shown.wait("Enter the director's PIN")
        app.write(ESC)
        shown.wait("press TAB.", "station: 1", absent="PIN")
    finally:
        app.close()


@pytest.mark.parametrize("gap", [0, 0.005, 0.03, 0.06], ids=["one-read", "5ms", "30ms", "60ms"])
def test_escape_and_back_to_the_station_together_never_leave_a_dead_station(tmp_path, gap):
    """F12, the PIN, ENTER, then ESC and a click on "Back to the station", one read or a few
    ms apart: the station is back at Ready within 5 s and judges."""
    config, _ = station_config(tmp_path)
    with open(config) as f:
        text = f.read()
    with open(config, "w") as f:
        f.write(f'pin_hash = "{hash_pin(PIN)}"\n' + text)
    cols, rows_ = 100, 60  # tall enough for the director's buttons to be on screen
    app = PtyApp(kiosk_argv(config), child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache")),
                 cols=cols, rows=rows_)
    try:
        shown = Shown(app, cols, rows_)
        shown.wait("press TAB.")
        app.drain(1.0)
        app.write(F12)
        shown.wait("Enter the director's PIN")
        app.write(PIN.encode() + b"\r")
        lines = shown.wait("Back to the station")
        back = next((line.find("Back to the station") + 4, y)
                    for y, line in enumerate(lines, start=1) if "Back to the station" in line)
        app.write(ESC)
        shown.wait("press TAB.", absent="Back to the station")
        app.drain(0.5)
        parts = [F12, PIN.encode(), b"\r", ESC, click(*back)]
        if gap:
            for part in parts:
                app.write(part)
                time.sleep(gap)
        else:
            app.write(b"".join(parts))
        app.drain(1.0)  # all of it read and applied (the dead station was blank by then)
        shown.wait("press TAB.", timeout=5, absent="Back to the station")
        mark = len(app.screen)
        app.write(b"qi\t")
        app.read_until(b"the play is", start=mark, timeout=10)
    finally:
        app.close()
