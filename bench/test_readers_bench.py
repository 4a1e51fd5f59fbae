"""Reading an official list from Zyzzyva/Quackle/KWG files and compiling it, against compiling the
same list from its text (issue 22: goal <= 2x), measured in the same run, in CPU time."""

from __future__ import annotations

import os
import shutil
import statistics
import time

import pytest

from adjudicator.lexicon.compile import compile_sources
from benchutil import report

SAMPLES = {  # file in formats/ -> the same list as text
    "CSW19.dwg": "CSW19.txt",  # with -R.dwg and -Checksums.txt: both verified, as added
    "NWL2018.dawg": "NWL2018.txt",
    "TWL06.dawg": "TWL06.txt",
    "NWL2018.kwg": "NWL2018.txt",
}
ROUNDS = 5


def _paths(name: str) -> tuple[str, str]:
    folder = os.environ.get("ADJUDICATOR_TEST_LEXICONS", "")
    graph = os.path.join(folder, "formats", name)
    text = os.path.join(folder, SAMPLES[name])
    if not folder or not (os.path.exists(graph) and os.path.exists(text)):
        pytest.skip(f"needs formats/{name} and {SAMPLES[name]} in $ADJUDICATOR_TEST_LEXICONS")
    return graph, text


def _cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


@pytest.mark.parametrize("name", SAMPLES)
def test_read_and_compile_against_text(benchmark, tmp_path, name):
    graph, text = _paths(name)
    if name.endswith(".dwg"):  # the companions beside it, as Zyzzyva installs them
        stem = os.path.splitext(graph)[0]
        for extra in (f"{stem}-R.dwg", f"{stem}-Checksums.txt"):
            shutil.copyfile(extra, tmp_path / os.path.basename(extra))
        shutil.copyfile(graph, tmp_path / name)
        graph = str(tmp_path / name)
    out = str(tmp_path / "out.lex")
    benchmark.pedantic(compile_sources, args=([graph], out), rounds=3, iterations=1)
    ours, base = [], []
    for _ in range(ROUNDS):  # interleaved, so both see the same machine
        ours.append(_cpu(lambda: compile_sources([graph], out)))
        base.append(_cpu(lambda: compile_sources([text], out)))
    ratio = statistics.median(ours) / statistics.median(base)
    report(f"{name} read + compile (<= 2x)", f"{statistics.median(ours) * 1000:.0f} ms CPU",
           f"{ratio:.2f}x compiling {SAMPLES[name]} ({statistics.median(base) * 1000:.0f} ms)")
