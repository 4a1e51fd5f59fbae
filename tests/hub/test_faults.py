"""Fault injection, scaled down (bench/test_hub_bench.py runs 50 stations x 200): stations in
worker processes forward through a link that loses requests and answers, resets, cuts requests
and answers short, garbles answers and delays bytes; a worker is killed
(kill -9) mid-send and restarted; the hub is killed once and interrupted once, and restarted.
Every row arrives exactly once, every chain verifies, no traceback anywhere, no sender thread
dead."""

from __future__ import annotations

from fleet import run_faults


def test_nothing_is_lost_or_doubled_through_drops_kills_and_hub_restarts(tmp_path):
    result = run_faults(tmp_path, stations=6, rows=40, workers=2, drop=0.25, worker_kills=1,
                        hub_restarts=2, timeout=240)
    assert [what for what, _ in result["injected"]].count("restart hub") == 2
    assert [what for what, _ in result["injected"]].count("kill worker") == 1
    assert all(n > 0 for n in result["dropped"].values()), result["dropped"]
    assert (result["tracebacks"], result["dead"]) == (0, 0)
    assert (result["hub_rows"], result["missing"], result["duplicates"], result["differ"],
            result["broken"]) == (result["expected"], 0, 0, 0, [])
