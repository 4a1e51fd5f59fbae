"""Prints the goals table (ratios against same-run baselines) after the benchmarks."""

import ssl
import urllib.request

from benchutil import pytest_terminal_summary  # noqa: F401  (pytest hook, re-exported)

# The benchmarks' own probes of a hub (urllib.request.urlopen of its https address) take its
# self-made certificate unchecked; the stations' link never uses this opener (it is pinned).
urllib.request.install_opener(urllib.request.build_opener(
    urllib.request.HTTPSHandler(context=ssl._create_unverified_context())))
