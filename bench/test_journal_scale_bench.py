"""Journal at scale: export (CSV, JSON) and merge of 1M rows against `verify` of the same files,
and `judge --journal --batch -` through a pipe against the same batch from a file (issue 13).

Each command runs as its own process (`python -m adjudicator ...`); its wall time and peak
resident memory (VmHWM, read by the process itself at exit) are measured. Rows: ADJUDICATOR_BENCH_JOURNAL_ROWS
(default 50,000; the figures in docs/benchmarks.md are from 1,000,000). Lines for the pipe:
ADJUDICATOR_BENCH_PIPE_LINES (default 20,000).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from datetime import datetime, timedelta, timezone

import pytest

from adjudicator.journal import Journal
from adjudicator.lexicon.known import LexiconIdentity
from adjudicator.judging.verdict import Verdict
from benchutil import ADJUDICATOR, report

ROWS = int(os.environ.get("ADJUDICATOR_BENCH_JOURNAL_ROWS", "50000"))
PIPE_LINES = int(os.environ.get("ADJUDICATOR_BENCH_PIPE_LINES", "20000"))
# The command runs in a fresh interpreter that notes its own peak resident memory
# (benchutil.ADJUDICATOR).
WORDS = [("CAT", "XU"), ("QI",), ("ZA", "QI", "CAT"), ("QZX",), ("XU", "ZA")]


def measured(argv, stdin=None, stdout=subprocess.DEVNULL) -> tuple[float, float, float]:
    """Run ARGV (ADJUDICATOR + args); (wall seconds, peak resident MB, CPU seconds: user +
    system of that process, from wait4, which a busy shared machine does not inflate)."""
    import tempfile

    with tempfile.NamedTemporaryFile("r", suffix=".peak") as peak:
        env = dict(os.environ, ADJUDICATOR_BENCH_PEAK=peak.name)
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE,
                                env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode()
        proc.stderr.close()
        assert proc.returncode in (0, 1), f"{argv[3:]}: {err}"
        return seconds, int(peak.read() or 0) / 1024, usage.ru_utime + usage.ru_stime


class Clock:
    def __init__(self, minute: int):
        self.now = datetime(2026, 11, 22, 9, minute, tzinfo=timezone.utc)

    def __call__(self):
        self.now += timedelta(milliseconds=7)
        return self.now


def build(path: str, station: str, n: int, minute: int) -> str:
    identity = LexiconIdentity("CSW19", "ab" * 32, 279496, None)
    with Journal.open(path, clock=Clock(minute)) as j:
        for first in range(0, n, 10_000):
            j.record_many([(Verdict(WORDS[i % 5], i % 5 != 3, identity),
                            dict(station=station, mode="station", table=str(i % 60),
                                 round=str(i // 5000 + 1), rule="5-per-word"))
                           for i in range(first, min(n, first + 10_000))])
    return path


@pytest.fixture(scope="module")
def journals(tmp_path_factory):
    folder = tmp_path_factory.mktemp("journal-scale")
    a = build(str(folder / "a.db"), "Station A", ROWS // 2, 0)
    b = build(str(folder / "b.db"), "Station B", ROWS - ROWS // 2, 1)
    return folder, a, b


def _line(name, run, rows, base, base_name):
    (seconds, rss, cpu), (base_seconds, base_rss, base_cpu) = run, base
    report(name, f"{rows / cpu / 1000:.0f}k rows/CPU-s ({rows / seconds / 1000:.0f}k/s wall), "
                 f"{rss:.0f} MB peak",
           f"{cpu / base_cpu:.2f}x the CPU time of {base_name} ({base_cpu:.1f} s CPU, "
           f"{base_seconds:.1f} s wall, {base_rss:.0f} MB peak); {rows:,} rows")


def test_merge_export_against_verify(benchmark, journals):
    folder, a, b = journals
    event = str(folder / "event.db")
    results = {}

    def merge():
        results["merge"] = measured(ADJUDICATOR + ["journal", "merge", a, b, "-o", event,
                                                   "--force"])

    benchmark.pedantic(merge, rounds=1, iterations=1)
    va, vb = (measured(ADJUDICATOR + ["journal", "verify", p]) for p in (a, b))
    verify_inputs = (va[0] + vb[0], max(va[1], vb[1]), va[2] + vb[2])
    _line("journal merge", results["merge"], ROWS, verify_inputs, "verify of both inputs")
    base = measured(ADJUDICATOR + ["journal", "verify", event])
    for fmt in ("csv", "json"):
        for where, out in (("file", str(folder / f"event.{fmt}")), ("/dev/null", os.devnull)):
            run = measured(ADJUDICATOR + ["journal", "export", event, "--format", fmt, "-o", out])
            _line(f"journal export {fmt} to {where}", run, ROWS, base, "verify of the same file")
            assert run[1] < 100, f"export {fmt} peaked at {run[1]:.0f} MB"
    assert results["merge"][1] < 100, f"merge peaked at {results['merge'][1]:.0f} MB"


def test_pipe_against_file(benchmark, tmp_path):
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("QI\nZA\nCAT\nXU\n")
    batch = tmp_path / "batch.txt"
    batch.write_text("".join(" ".join(WORDS[i % 5]) + "\n" for i in range(PIPE_LINES)))

    def judge(source, journal, stdin=None):
        return measured(ADJUDICATOR + ["judge", "-l", str(tiny), "--journal",
                                       str(tmp_path / journal), "--batch", source], stdin=stdin)

    runs = {"pipe": [], "file": []}

    def piped():
        cat = subprocess.Popen(["cat", str(batch)], stdout=subprocess.PIPE)
        try:
            runs["pipe"].append(judge("-", f"pipe{len(runs['pipe'])}.db", stdin=cat.stdout))
        finally:
            cat.stdout.close()
            cat.wait()

    for _ in range(2):  # interleaved: pipe, file, pipe, file, pipe, file
        piped()
        runs["file"].append(judge(str(batch), f"file{len(runs['file'])}.db"))
    benchmark.pedantic(piped, rounds=1, iterations=1)
    runs["file"].append(judge(str(batch), f"file{len(runs['file'])}.db"))
    pipe_wall, file_wall = (statistics.median(r[0] for r in runs[k]) for k in ("pipe", "file"))
    pipe_cpu, file_cpu = (statistics.median(r[2] for r in runs[k]) for k in ("pipe", "file"))
    report("judge --journal --batch - (pipe)",
           f"{PIPE_LINES / pipe_wall / 1000:.1f}k lines/s, {pipe_cpu:.1f} s CPU",
           f"{pipe_wall / file_wall:.2f}x the time, {pipe_cpu / file_cpu:.2f}x the CPU time of "
           f"the same batch from a file ({PIPE_LINES / file_wall / 1000:.1f}k lines/s, "
           f"{file_cpu:.1f} s CPU); medians of 3, {PIPE_LINES:,} lines")
