"""A kill -9 campaign at a station through a real pty (issue 42): every verdict recorded is shown.

The kiosk child is killed again and again: at random moments after a TAB, and just after the
journal's commit of a row (a hook arms that kill), while the players type the next play through
each restart. What the terminal showed is read with pyte after every read of its output; at the
end the journal and the screens must agree: 0 verdicts recorded and never shown, 0 shown and not
recorded, 0 fake (a row whose words are not a play the players typed whole).

ADJUDICATOR_CAMPAIGN_KILLS sets the number of kills (default 20; ADJUDICATOR_FULL=1: 300);
ADJUDICATOR_CAMPAIGN_SEED the seed.
"""

from __future__ import annotations

import os
import random
import re
import signal
import sys
import time

import pytest
from pty_driver import PtyApp, hooked_env, kiosk_argv, kiosk_child, station_config
from pty_screen import Shown

from adjudicator.journal import Journal
from adjudicator.station.state import state_path
from adjudicator.station.unseen import last_shown

# A pseudo-terminal, POSIX signals and kill -9 of a supervised child: Linux and macOS only (on
# Windows the kiosk is spawned, tests/kiosk/test_kiosk_spawn.py; Windows has no SIGKILL or pty)
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty and POSIX signals")

FULL = bool(os.environ.get("ADJUDICATOR_FULL"))
KILLS = int(os.environ.get("ADJUDICATOR_CAMPAIGN_KILLS", "300" if FULL else "20"))
SEED = int(os.environ.get("ADJUDICATOR_CAMPAIGN_SEED", "20261128"))
PLAYS = ["qi za", "cat za", "za qi cat", "car", "cat car", "qi", "xu za", "car qi za"]
ALT_SCREEN = b"\x1b[?1049h"  # a Textual app starting
RECORD = re.compile(r"Challenge #(\d+) · check ([0-9a-f]{8}) ")

# Kills the child right after a row's commit when the test has armed it (ARM exists).
ARMED_KILL = '''
import os, signal
from adjudicator.journal import store

_append = store.Journal._append_rows
def _append_rows(self, rows, **kwargs):
    done = _append(self, rows, **kwargs)
    arm = os.environ["TEST_ARM"]
    if os.path.exists(arm):
        os.unlink(arm)
        os.kill(os.getpid(), signal.SIGKILL)
    return done
store.Journal._append_rows = _append_rows
'''


class Watched(Shown):
    """A Shown that notes every numbered verdict the terminal ever showed (number, check)."""

    def __init__(self, app):
        super().__init__(app)
        self.seen: set[tuple[int, str]] = set()

    def lines(self) -> list[str]:
        # every byte written is looked at, not only the screens read: a verdict painted and
        # then the child killed reached the terminal even when the next child's first paint
        # came in the same read
        start = max(0, self._fed - 200)
        lines = super().lines()
        text = bytes(self.app.screen[start:self._fed]).decode("utf-8", "replace")
        for found in (RECORD.findall(text), *(RECORD.findall(line) for line in lines)):
            self.seen.update((int(seq), check) for seq, check in found)
        return lines

    def until_any(self, *texts: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            lines = self.lines()
            for text in texts:
                if any(text in line for line in lines):
                    return text
            if time.monotonic() > deadline or self.app.proc.poll() is not None:
                raise AssertionError(f"none of {texts} on screen:\n" + "\n".join(lines))
            self.app.drain(0.02)


def restarted(shown: Watched, old: int, mark: int, timeout: float = 60.0) -> None:
    """Until a new child runs in place of OLD and has shown a verdict, released: the one never
    shown when the killed TAB's row was committed (the keys typed through the restart meet it
    held), else the play typed through the restart. Either way a verdict comes."""
    app = shown.app
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the kiosk never came back"
        try:
            child = kiosk_child(app)
        except AssertionError:
            child = old
        if child != old:
            break
        app.drain(0.01)
    # the new child's output begins where it takes the alternate screen: the old one's last
    # bytes (its own "next challenge", read late) come before that
    while True:
        start = app.screen.find(ALT_SCREEN, mark)
        if start >= 0 and b"next challenge" in app.screen[start:]:
            break
        assert time.monotonic() < deadline, "no verdict after the restart:\n" + "\n".join(
            shown.lines())
        app.drain(0.02)
        shown.lines()


def settled(shown: Watched, journal_path: str, timeout: float = 30.0) -> dict:
    """The journal's rows once the station has shown every one (or TIMEOUT has passed: then
    the test names those never shown): the last play typed may still be being judged."""
    deadline = time.monotonic() + timeout
    while True:
        with Journal.open(journal_path) as journal:
            rows = {row.seq: row for row in journal.rows()}
        shown.lines()
        if all((seq, row.hash[:8]) in shown.seen for seq, row in rows.items()):
            return rows
        if time.monotonic() > deadline:
            return rows
        shown.app.drain(0.1)


def test_a_kill_campaign_loses_no_verdict_and_fakes_none(tmp_path):
    config, journal_path = station_config(tmp_path)
    arm = tmp_path / "arm"
    app = PtyApp(kiosk_argv(config), dict(hooked_env(tmp_path, ARMED_KILL), TEST_ARM=str(arm)))
    rng = random.Random(SEED)
    kills = 0
    try:
        shown = Watched(app)
        shown.wait("CHALLENGER:")
        while kills < KILLS:
            if shown.until_any("CHALLENGER:", "next challenge") == "next challenge":
                app.write(b" ")  # the verdict read: next
                shown.wait("CHALLENGER:")
            play = rng.choice(PLAYS)
            way = rng.random()
            child, mark = kiosk_child(app), len(app.screen)
            if way < 0.35:  # just after the commit
                arm.touch()
                app.write(play.encode() + b"\t")
                deadline = time.monotonic() + 30
                while arm.exists():
                    assert time.monotonic() < deadline, "the armed kill never came"
                    shown.app.drain(0.005)
            elif way < 0.7:  # at a random moment after the TAB
                app.write(play.encode() + b"\t")
                time.sleep(rng.uniform(0, 0.12))  # the moment of the kill, not a wait
                os.kill(child, signal.SIGKILL)
            else:  # no kill
                app.write(play.encode() + b"\t")
                shown.wait("next challenge")
                continue
            kills += 1
            app.write(rng.choice(PLAYS).encode() + b"\t")  # the next players type meanwhile
            restarted(shown, child, mark)
        rows = settled(shown, journal_path)
    finally:
        app.close()
    with Journal.open(journal_path) as journal:
        assert journal.verify().intact
    typed = {tuple(p.upper().split()) for p in PLAYS}
    fake = [row.seq for row in rows.values() if row.words not in typed]
    never_shown = sorted(seq for seq, row in rows.items() if (seq, row.hash[:8]) not in shown.seen)
    not_recorded = sorted((seq, check) for seq, check in shown.seen
                          if seq not in rows or rows[seq].hash[:8] != check)
    print(f"kill campaign: {kills} kills, {len(rows)} rows, seed {SEED}")
    assert (never_shown, not_recorded, fake) == ([], [], [])
    assert kills == KILLS and rows
    # what the terminal showed last is marked shown, once written to it (not only queued)
    assert last_shown(state_path(journal_path)) == max(rows)
