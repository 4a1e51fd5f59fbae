"""Benchmark helpers: the real CSW19 list, and the ratio table the bench conftest prints."""

from __future__ import annotations

import os

import pytest

RATIOS: list[tuple[str, str, str]] = []


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
