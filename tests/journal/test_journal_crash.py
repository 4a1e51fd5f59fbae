"""Crash safety: a child SIGKILLed 50 times at random moments; every shown verdict survives."""

from __future__ import annotations

import os
import random

from crash_child import check, run_kills

KILLS = 50


def test_every_verdict_shown_before_a_sigkill_is_in_the_journal(tmp_path):
    seed = int(os.environ.get("ADJUDICATOR_CRASH_SEED", random.randrange(10**6)))
    path = str(tmp_path / "crash.db")
    try:
        shown = run_kills(path, KILLS, seed)
        assert shown, "the child never showed a verdict"
        rows = check(path, shown)
        assert rows >= len(shown)
    except AssertionError as e:  # say how to replay this run
        raise AssertionError(f"ADJUDICATOR_CRASH_SEED={seed}: {e}") from e
