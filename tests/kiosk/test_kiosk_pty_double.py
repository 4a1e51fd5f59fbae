"""Two requests read together through a real pseudo-terminal: one challenge, one row (issue 28).

`cat xu`, then two clicks on ADJUDICATE in one write (a double-click, a double tap), or a click
and TAB: two journal rows, and the station ignored every key for good (its verdict screen pushed
twice, its timer stopped). On the verdict, NEXT and RECHECK read together journaled a recheck
nobody saw. Every pair of click, TAB, Enter and touch is sent here in one write, and across a
stall (the kiosk stopped 300 ms while both arrive); after each, the journal holds one row more
(or none), the screen shows what was journaled, and the station judges on.
"""

from __future__ import annotations

import itertools
import os
import signal
import time

import pyte
import pytest
from pty_driver import PtyApp, child_env, kiosk_argv, kiosk_child, station_config

from pty_screen import Shown

from adjudicator.journal import Journal

COLS, ROWS = 80, 24
ADJUDICATE = (41, 23)  # the Ready screen's button at 80x24 (1-based column, row)
END, BS = b"\x1b[F", b"\x7f"


def click(x: int, y: int) -> bytes:
    return f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m".encode()


def touch(x: int, y: int) -> bytes:
    """A tap on a touchscreen: the pointer arrives (a motion report), presses and lifts."""
    return f"\x1b[<35;{x};{y}M".encode() + click(x, y)


REQUESTS = {"click": click(*ADJUDICATE), "tab": b"\t", "enter": b"\r", "touch": touch(*ADJUDICATE)}
JUDGING = {"click", "tab", "touch"}
PAIRS = list(itertools.product(REQUESTS, repeat=2))


def rows(journal: str) -> int:
    with Journal.open(journal) as j:
        return j.count()


def emulate(app: PtyApp) -> list[str]:
    screen = pyte.Screen(COLS, ROWS)
    pyte.ByteStream(screen).feed(bytes(app.screen))
    return screen.display


def send(app: PtyApp, parts: list[bytes], stall: bool) -> None:
    """PARTS in one write, or each written while the kiosk is stopped (all read at once)."""
    if not stall:
        app.write(b"".join(parts))
        return
    child = kiosk_child(app)
    os.kill(child, signal.SIGSTOP)
    try:
        for part in parts:
            app.write(part)
        time.sleep(0.3)
    finally:
        os.kill(child, signal.SIGCONT)


def back_to_ready(app: PtyApp, count: int) -> None:
    """Past the verdict's hold, SPACE: Ready again, showing COUNT challenges."""
    shown = Shown(app, COLS, ROWS)
    shown.wait("next challenge")
    app.write(b" ")
    shown.wait(f"station: {count}", absent="the play is")


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


@pytest.mark.parametrize("stall", [False, True], ids=["one-read", "stall"])
@pytest.mark.parametrize("first", list(REQUESTS))
def test_every_pair_of_requests_to_judge_is_one_challenge(kiosk, first, stall):
    app, journal = kiosk
    count = 0
    for pair in [p for p in PAIRS if p[0] == first]:
        app.write(b"cat xu")
        app.drain(0.2)
        mark = len(app.screen)
        send(app, [REQUESTS[r] for r in pair], stall)
        if JUDGING & set(pair):
            app.read_until(b"the play is", start=mark)
            count += 1
            back_to_ready(app, count)  # never wedged: keys are taken again
            assert rows(journal) == count, f"{pair} journaled {rows(journal) - count + 1} rows"
        else:
            app.read_until(b"Press TAB (or ADJUDICATE)", start=mark)
            assert rows(journal) == count
            app.write(END + BS * 10)
    mark = len(app.screen)
    app.write(b"qi\t")  # and the station judges on
    app.read_until(b"the play is", start=mark)
    assert rows(journal) == count + 1


VERDICT_PAIRS = [("next", "recheck"), ("key", "recheck"), ("recheck", "key"),
                 ("recheck", "recheck"), ("r", "next")]


def verdict_buttons(app: PtyApp) -> dict[str, bytes]:
    """Where NEXT and RECHECK are drawn on the verdict now, as clicks; R and a key as keys."""
    deadline = time.monotonic() + 10  # a busy kiosk may still be drawing its second button
    while True:
        found = {"key": b"x", "r": b"r"}
        for y, line in enumerate(emulate(app), start=1):
            for name, label in (("recheck", "R: RECHECK"), ("next", "NEXT")):
                x = line.find(label)
                if x >= 0 and "next challenge" not in line:
                    found[name] = click(x + 1 + len(label) // 2, y)
        if {"recheck", "next"} <= set(found) or time.monotonic() > deadline:
            break
        app.drain(0.1)
    assert {"recheck", "next"} <= set(found), "\n".join(emulate(app))
    return found


@pytest.mark.parametrize("stall", [False, True], ids=["one-read", "stall"])
def test_next_and_recheck_together_never_journal_a_recheck_nobody_saw(kiosk, stall):
    app, journal = kiosk
    count = 0
    for pair in VERDICT_PAIRS:
        mark = len(app.screen)
        app.write(b"cat xu\t")
        app.read_until(b"the play is", start=mark)
        count += 1
        Shown(app, COLS, ROWS).wait("next challenge")  # past the hold: the buttons are shown
        buttons = verdict_buttons(app)
        send(app, [buttons[r] for r in pair], stall)
        app.drain(1.0)
        shown = emulate(app)
        if rows(journal) == count + 1:  # a recheck was journaled: it is what the screen shows
            count += 1
            assert any(f"RECHECK OF #{count - 1}" in line for line in shown), (pair, shown)
            back_to_ready(app, count)
        else:
            assert rows(journal) == count, pair
            assert any(f"station: {count}" in line for line in shown), (pair, shown)
    mark = len(app.screen)
    app.write(b"qi\t")  # never wedged
    app.read_until(b"the play is", start=mark)
    assert rows(journal) == count + 1
