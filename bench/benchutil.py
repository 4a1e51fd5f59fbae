"""Benchmark helpers: the real CSW19 list, a command with its peak memory, the ratio table."""

from __future__ import annotations

import os
import sys

import pytest

RATIOS: list[tuple[str, str, str]] = []

# `adjudicator ARGS` as ADJUDICATOR + args: a fresh interpreter that notes its own peak resident
# memory (VmHWM of its own address space) at exit, in $ADJUDICATOR_BENCH_PEAK: ru_maxrss of a
# forked child would count the pytest process it was forked from before exec.
PEAK_WRAPPER = """
import atexit, os, runpy, sys
def note():
    with open("/proc/self/status") as f:
        peak = next(line.split()[1] for line in f if line.startswith("VmHWM:"))
    with open(os.environ["ADJUDICATOR_BENCH_PEAK"], "w") as out:
        out.write(peak)
atexit.register(note)
sys.argv = ["adjudicator"] + sys.argv[1:]
runpy.run_module("adjudicator", run_name="__main__", alter_sys=True)
"""
ADJUDICATOR = [sys.executable, "-c", PEAK_WRAPPER]


def csw19_path() -> str:
    folder = os.environ.get("ADJUDICATOR_TEST_LEXICONS", "")
    path = os.path.join(folder, "CSW19.txt")
    if not folder or not os.path.exists(path):
        pytest.skip("benchmarks need CSW19.txt in $ADJUDICATOR_TEST_LEXICONS (../shared/lexicons)")
    return path


def median(benchmark) -> float:
    return benchmark.stats.stats.median


def report(name: str, measured: str, versus: str) -> None:
    """Record one line of the table: what was measured, and against which same-run baseline."""
    RATIOS.append((name, measured, versus))


def pytest_terminal_summary(terminalreporter):
    if not RATIOS:
        return
    terminalreporter.section("adjudicator goals (ratios against baselines measured in this run)")
    for name, measured, versus in RATIOS:
        terminalreporter.write_line(f"{name:<34} {measured:<28} {versus}")
