"""Rows lost, and rows lost unseen, in each way a director loses them (issue 13); more rounds
than tests/journal/test_journal_loss_scenarios.py. ADJUDICATOR_BENCH_LOSS_ROUNDS (default 20)."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "journal"))

from loss_scenarios import copy_db_alone_while_live, crash_then_wal_deleted  # noqa: E402

from benchutil import report  # noqa: E402

ROUNDS = int(os.environ.get("ADJUDICATOR_BENCH_LOSS_ROUNDS", "20"))


def _report(name, tally):
    noted = f" (verify noted 'no head file' for {tally.noted})" if tally.noted else ""
    report(name, f"{tally.lost} lost, {tally.undetected} unseen{noted}",
           f"of {tally.shown} verdicts shown over {tally.rounds} rounds; verify failed in "
           f"{tally.detected} rounds")


def test_rows_lost_in_each_scenario(tmp_path):
    crash = crash_then_wal_deleted(str(tmp_path / "crash"), ROUNDS, 1)
    _report("kill -9, then -wal deleted", crash)
    alone = copy_db_alone_while_live(str(tmp_path / "alone"), ROUNDS, 2)
    _report(".db + .head copied, no -wal", alone)
    held = copy_db_alone_while_live(str(tmp_path / "held"), ROUNDS, 3, reader=True)
    _report("same, a reader holding rows", held)
    headless = copy_db_alone_while_live(str(tmp_path / "headless"), ROUNDS, 4, reader=True,
                                        head=False)
    _report("same, no .head copied", headless)
    assert crash.undetected == alone.undetected == held.undetected == 0
