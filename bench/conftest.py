"""Prints the goals table (ratios against same-run baselines) after the benchmarks."""

from benchutil import pytest_terminal_summary  # noqa: F401  (pytest hook, re-exported)
