"""Lexicon core against a frozenset of the same words, measured in the same run (CSW19)."""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import string
import subprocess
import sys
import time

import pytest

from adjudicator.text.entry import parse_entry
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.judging.verdict import adjudicate, lookup
from adjudicator.lexicon.wordlist import read_source
from benchutil import csw19_path, median, report


@pytest.fixture(scope="module")
def csw19(tmp_path_factory):
    path = csw19_path()
    out = str(tmp_path_factory.mktemp("bench") / "csw19.lex")
    compile_sources([path], out)
    words = sorted(read_source(path).words)
    return path, out, words


def _frozenset_from_text(path: str) -> frozenset:
    with open(path, encoding="utf-8") as f:
        lines = f.read().upper().split()
    return frozenset(w for w in lines[8:] if w.isalpha())  # skip CSW19's header words


def test_compile(benchmark, csw19, tmp_path):
    path, _, _ = csw19
    out = str(tmp_path / "c.lex")
    benchmark.pedantic(compile_sources, args=([path], out), rounds=5, iterations=1)
    ours = median(benchmark)
    base = _best_of(lambda: _frozenset_from_text(path), 5)
    report("compile CSW19 (goal <= 0.5 s)", f"{ours * 1000:.0f} ms",
           f"takes {ours / base:.1f}x the time of reading it into a frozenset "
           f"({base * 1000:.0f} ms)")


def test_load(benchmark, csw19):
    """Read into memory, checksum verified over those bytes, trie mapped from them (issue 40:
    it was mapped from the file, which could change under a running station)."""
    path, out, _ = csw19
    benchmark(Lexicon.load, out)
    ours = median(benchmark)
    base = _best_of(lambda: _frozenset_from_text(path), 5)
    report("load, read and checksum verified (<= 1 ms)", f"{ours * 1e3:.2f} ms",
           f"{base / ours:.0f}x faster than a frozenset load ({base * 1e3:.0f} ms)")


MEMORY_PROBE = """
import json, os, sys, gc
import psutil
from adjudicator.lexicon.known import known_lexicons
from adjudicator.lexicon.compiled import Lexicon
known_lexicons()  # code and the manifest are loaded once per process: not the lexicon's memory
import hashlib; hashlib.sha256(b"")  # OpenSSL too (about 3.7 MB): any verified load needs it
proc = psutil.Process()
gc.collect()
before = proc.memory_info().rss
if sys.argv[1] == "marisa":
    lex = Lexicon.load(sys.argv[2])
    probe = [w in lex for w in ("QI", "ZA", "AA", "ZZZ", "QAT")]
else:
    words = frozenset(open(sys.argv[2]).read().upper().split()[8:])
    probe = [w in words for w in ("QI", "ZA")]
print(json.dumps(proc.memory_info().rss - before))
"""


def test_resident_memory(csw19):
    path, out, _ = csw19

    def rss(kind, target):
        result = subprocess.run([sys.executable, "-c", MEMORY_PROBE, kind, target],
                                capture_output=True, text=True, check=True)
        return json.loads(result.stdout)

    ours = min(rss("marisa", out) for _ in range(3))
    base = min(rss("frozenset", path) for _ in range(3))
    report("resident memory (<= 1 MB)", f"{ours / 1e6:.2f} MB",
           f"{base / max(ours, 1):.0f}x less than a frozenset ({base / 1e6:.1f} MB)")


def test_eight_word_verdict(benchmark, csw19):
    """A challenge as the kiosk judges it: typed text -> parse_entry -> adjudicate -> Verdict,
    against the plainest correct code: all(w in fs for w in text.upper().split()).

    Fresh words, as a kiosk sees them: 30,000 different challenges a pass, so no challenge's
    words are still in the CPU's caches from the pass before. Also the same 1,000 challenges
    over and over, each timed on its own (warm caches: the frozenset's best case). CPU time of
    this process, best of several passes (fresh: the three taking turns), so that other
    programs' load on a shared machine enters the ratios as little as it can."""
    _, out, words = csw19
    lex = Lexicon.load(out)
    plain = frozenset(words)
    contains = lookup(lex)
    rng = random.Random(8)
    fresh = [" ".join(rng.sample(words, 8)).lower() for _ in range(30_000)]

    def timings(typed: list[str], rounds: int, warm: bool) -> tuple[float, float, float]:
        parsed = [parse_entry(text) for text in typed]

        def judge_all():
            for text in typed:
                adjudicate(lex, parse_entry(text))

        def plain_all():
            for text in typed:
                all(w in plain for w in text.upper().split())

        def lookups_only():  # the floor: the same trie look-ups, nothing else
            for challenge in parsed:
                sum(map(contains, challenge))

        fns = [plain_all, judge_all, lookups_only]
        if warm:  # each again and again on its own: its caches stay warm
            best = [_interleaved_best_of([fn], rounds)[0] for fn in fns]
        else:
            best = _interleaved_best_of(fns, rounds)
        return tuple(t / len(typed) for t in best)

    benchmark(lambda: [adjudicate(lex, parse_entry(text)) for text in fresh[:1000]])
    for what, typed, rounds, warm in (("fresh words", fresh, 5, False),
                                      ("same 1,000, warm", fresh[:1000], 30, True)):
        base, ours, floor = timings(typed, rounds, warm)
        report(f"8-word challenge, {what}", f"{ours * 1e6:.1f} us",
               f"takes {ours / base:.2f}x the time of a plain frozenset loop ({base * 1e6:.1f} "
               f"us); its 8 trie look-ups alone take {floor / base:.2f}x ({floor * 1e6:.1f} us)")


def realistic_lines(words: list[str], n: int, seed: int = 12) -> list[str]:
    """Challenge lines as a runner types them: 1-8 words (most plays form 1-3), mixed case,
    and one line in ten with a near-miss (one letter of one word changed)."""
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        picked = rng.sample(words, rng.choice([1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6, 7, 8]))
        if rng.random() < 0.10:
            i = rng.randrange(len(picked))
            j = rng.randrange(len(picked[i]))
            picked[i] = picked[i][:j] + rng.choice(string.ascii_uppercase) + picked[i][j + 1:]
        picked = [w.lower() if rng.random() < 0.6 else w.capitalize() if rng.random() < 0.5
                  else w for w in picked]
        lines.append(" ".join(picked))
    return lines


PLAIN_BATCH = """
import sys
fs = frozenset(open(sys.argv[1]).read().upper().split())
out = sys.stdout
for line in open(sys.argv[2]):
    ok = all(w in fs for w in line.upper().split())
    out.write("ACCEPTABLE\\n" if ok else "UNACCEPTABLE\\n")
"""


def test_batch_whole_process(csw19, tmp_path):
    """`adjudicator judge --batch FILE > file`, the whole process (start-up, lexicon load,
    reading, judging, writing), against a plain Python loop over a frozenset of the same list
    reading the same file (PLAIN_BATCH, frozenset build included). Goal (issue 40): at most
    1.0x its time (2x before). Timed as the CPU time (user + system) of each whole process, so
    that other programs' load on a shared machine does not enter the figures; wall time is
    shown beside. The list is checked once before (its verified mark written, as `lexicon add`
    leaves it). $ADJUDICATOR_BENCH_LINES sets the line count (500,000 by default)."""
    path, out, words = csw19
    n = int(os.environ.get("ADJUDICATOR_BENCH_LINES", "500000"))
    batch = tmp_path / "challenges.txt"
    batch.write_text("\n".join(realistic_lines(words, n)) + "\n")
    plain_list = tmp_path / "plain.txt"
    plain_list.write_text("\n".join(words) + "\n")  # the same words, without CSW19's header
    ours_cmd = [sys.executable, "-m", "adjudicator", "judge", "-l", out, "--batch", str(batch)]
    base_cmd = [sys.executable, "-c", PLAIN_BATCH, str(plain_list), str(batch)]
    ours_out, base_out = tmp_path / "ours.out", tmp_path / "plain.out"

    def timed(cmd, sink) -> tuple[float, float]:
        """(CPU seconds, user + system, of the whole process; wall seconds)."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(sink, "w") as f:
            start = time.perf_counter()
            subprocess.run(cmd, stdout=f, check=True)
            wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall

    ours, base = [], []
    for _ in range(3):  # interleaved, so both see the same machine load
        ours.append(timed(ours_cmd, ours_out))
        base.append(timed(base_cmd, base_out))
    assert ours_out.read_bytes() == base_out.read_bytes()  # the same verdict on every line
    ours_t, base_t = (statistics.median(cpu for cpu, _ in runs) for runs in (ours, base))
    ours_w, base_w = (statistics.median(wall for _, wall in runs) for runs in (ours, base))
    report(f"batch, whole process, {n:,} lines (<= 1.0x)", f"{n / ours_t:,.0f} lines/CPU-s",
           f"takes {ours_t / base_t:.2f}x the CPU time of a plain frozenset loop "
           f"({n / base_t:,.0f} lines/CPU-s); wall: {n / ours_w:,.0f} vs {n / base_w:,.0f} "
           "lines/s")
    assert ours_t / base_t <= 1.0, "goal: at most the plain frozenset loop's time"


def _cpu_of(cmd: list[str]) -> float:
    """CPU seconds (user + system) of one whole process running CMD, its output dropped."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def test_one_shot_judge_whole_process(csw19, tmp_path, monkeypatch):
    """`adjudicator judge --lexicon CSW19.lex qi`, the whole process, against `python -c
    "import click, marisa_trie"` (what any click command on a marisa trie must load), taking
    turns. Goal (issue 40): at most 2x (3.6x before: the 280,000 words walked and hashed on
    every start, 129 ms of 253). A list whose bytes were checked once is known by a verified
    mark in the cache folder; the first run, without one, is shown beside (no goal)."""
    _, out, _ = csw19
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("ADJUDICATOR_CONFIG", str(tmp_path / "none.toml"))
    ours_cmd = [sys.executable, "-m", "adjudicator", "judge", "--lexicon", out, "qi"]
    base_cmd = [sys.executable, "-c", "import click, marisa_trie"]
    first = _cpu_of(ours_cmd)  # no mark yet: the words walked, the mark written
    ours, base = [], []
    for _ in range(11):  # interleaved, so both see the same machine load
        ours.append(_cpu_of(ours_cmd))
        base.append(_cpu_of(base_cmd))
    ours_t, base_t = statistics.median(ours), statistics.median(base)
    report("judge WORDS, whole process (<= 2x)", f"{ours_t * 1e3:.0f} ms CPU",
           f"takes {ours_t / base_t:.2f}x the CPU time of importing click and marisa_trie "
           f"({base_t * 1e3:.0f} ms); its first run, the words checked: {first * 1e3:.0f} ms")
    assert ours_t / base_t <= 2.0, "goal: at most 2x importing click and marisa_trie"


def _best_of(fn, rounds: int) -> float:
    import time

    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _interleaved_best_of(fns, rounds: int) -> list[float]:
    """Each function's best time, the functions taking turns round by round, so that a busy
    moment on a shared machine falls on all of them alike rather than on one."""
    best = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            start = time.process_time()
            fn()
            best[i] = min(best[i], time.process_time() - start)
    return best
