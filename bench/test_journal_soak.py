"""Journal soak: the SIGKILL crash test with many more kills (bench/ is not in the normal test run).

Run: ADJUDICATOR_SOAK_KILLS=1000 /work/venv/bin/python -m pytest -q bench/test_journal_soak.py
"""

from __future__ import annotations

import importlib.util
import os
import random
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[1] / "tests" / "journal" / "crash_child.py"


def _harness():
    spec = importlib.util.spec_from_file_location("journal_crash_child", HARNESS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_journal_survives_many_sigkills(tmp_path):
    harness = _harness()
    kills = int(os.environ.get("ADJUDICATOR_SOAK_KILLS", "500"))
    seed = int(os.environ.get("ADJUDICATOR_CRASH_SEED", random.randrange(10**6)))
    path = str(tmp_path / "soak.db")
    shown = {}
    for start in range(0, kills, 100):  # check the whole journal every 100 kills
        shown.update(harness.run_kills(path, min(100, kills - start), seed + start))
        harness.check(path, shown)
    assert len(shown) > kills // 2, f"seed {seed}: too few verdicts shown to prove anything"
