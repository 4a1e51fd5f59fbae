"""Ways a director loses rows, played for real against a recording child process (issue 13).

Each scenario returns a Tally: verdicts shown (committed, then printed by the child), rows the
surviving file holds, and whether `verify` saw the loss. `undetected` (rows shown, not in the
file, and verify says intact) must stay 0. Used by tests/journal/test_journal_loss_scenarios.py
and, with more rounds, by bench/test_journal_losses_bench.py for the figures.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "crash_child.py")


@dataclass
class Tally:
    rounds: int = 0
    shown: int = 0  # verdicts printed before the loss (for copies: rows each copy should hold)
    lost: int = 0  # of those, rows not in the surviving file
    detected: int = 0  # rounds where verify failed (missing rows named, or a damaged file)
    undetected: int = 0  # rows lost in rounds where verify said "intact"
    noted: int = 0  # of those, where verify's note said it cannot rule out a loss (no head file)
    reasons: list[str] = field(default_factory=list)

    def add(self, shown: int, path: str) -> None:
        from adjudicator.errors import JournalError
        from adjudicator.journal import verify

        self.rounds += 1
        self.shown += shown
        try:
            report = verify(path)
        except JournalError as e:  # damaged: detected, every row counted lost
            self.lost += shown
            self.detected += 1
            self.reasons.append(str(e))
            return
        present = min(report.rows, shown)
        self.lost += shown - present
        if report.intact:
            self.undetected += shown - present
            if "no head file" in report.describe():
                self.noted += shown - present
        else:
            self.detected += 1
            self.reasons.append(report.reason)


def _child(path: str, seed: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, HARNESS, path, str(seed)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def _read_shown(proc: subprocess.Popen, n: int) -> int:
    """Read N verdict lines; the highest seq shown (the child prints after each commit)."""
    last = 0
    for _ in range(n):
        line = proc.stdout.readline()
        if not line:
            raise AssertionError("the recording child stopped")
        last = int(line.split()[0])
    return last


def _kill(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()


def crash_then_wal_deleted(folder: str, rounds: int, seed: int) -> Tally:
    """kill -9 a recording station at a random moment, then delete its -wal and -shm (a
    director 'cleaning up' after a crash), and verify what is left."""
    rng, tally = random.Random(seed), Tally()
    os.makedirs(folder, exist_ok=True)
    for r in range(rounds):
        path = os.path.join(folder, f"crash{r}.db")
        proc = _child(path, rng.randrange(10**9))
        try:
            shown = _read_shown(proc, rng.randrange(1, 60))
        finally:
            _kill(proc)
        for suffix in ("-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        tally.add(shown, path)
    return tally


def copy_db_alone_while_live(folder: str, rounds: int, seed: int, *, head: bool = True,
                             reader: bool = False) -> Tally:
    """Copy the .db (and its head file when HEAD) of a station still recording, without the
    -wal, as a file manager does; READER: another program holds an old snapshot meanwhile, so
    the newest rows cannot reach the .db."""
    import sqlite3

    rng, tally = random.Random(seed), Tally()
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "live.db")
    proc = _child(path, rng.randrange(10**9))
    held = None
    try:
        _read_shown(proc, 1)
        if reader:
            held = sqlite3.connect(path, isolation_level=None)
            held.execute("BEGIN")
            held.execute("SELECT count(*) FROM challenges").fetchall()
        for r in range(rounds):
            shown = _read_shown(proc, rng.randrange(1, 40))
            copy = os.path.join(folder, f"copy{r}.db")
            shutil.copyfile(path, copy)
            if head:
                shutil.copyfile(path + ".head", copy + ".head")
            tally.add(shown, copy)
    finally:
        if held is not None:
            held.close()
        _kill(proc)
    return tally
