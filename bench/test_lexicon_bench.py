"""Lexicon core against a frozenset of the same words, measured in the same run (CSW19)."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

import pytest

from adjudicator.entry import parse_entry
from adjudicator.lexicon import Lexicon, compile_sources
from adjudicator.verdict import adjudicate, all_found
from adjudicator.wordlist import read_source
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
           f"{ours / base:.1f}x reading into a frozenset ({base * 1000:.0f} ms)")


def test_load(benchmark, csw19):
    path, out, _ = csw19
    benchmark(Lexicon.load, out)
    ours = median(benchmark)
    base = _best_of(lambda: _frozenset_from_text(path), 5)
    report("load, checksum verified (<= 1 ms)", f"{ours * 1e3:.2f} ms",
           f"{base / ours:.0f}x faster than a frozenset load ({base * 1e3:.0f} ms)")


MEMORY_PROBE = """
import json, os, sys, gc
import psutil
from adjudicator.known import known_lexicons
from adjudicator.lexicon import Lexicon
known_lexicons()  # code and the manifest are loaded once per process: not the lexicon's memory
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


class FrozenLexicon:
    """The baseline: the same words in a frozenset, behind the same interface as Lexicon."""

    def __init__(self, words, identity):
        self.words, self.identity = frozenset(words), identity

    def __contains__(self, word):
        return word in self.words


def test_eight_word_verdict(benchmark, csw19):
    """A challenge as the kiosk judges it: typed text -> parse_entry -> adjudicate -> Verdict."""
    _, out, words = csw19
    lex = Lexicon.load(out)
    plain = FrozenLexicon(words, lex.identity)
    rng = random.Random(8)
    typed = [" ".join(rng.sample(words, 8)).lower() for _ in range(1000)]

    def judge_all(lexicon):
        for text in typed:
            adjudicate(lexicon, parse_entry(text))

    benchmark(judge_all, lex)
    base = _best_of(lambda: judge_all(plain), 20)
    ours = _best_of(lambda: judge_all(lex), 20)
    lookups = _best_of(lambda: [w in lex for w in words[:8000]], 5) / 1000
    plain_lookups = _best_of(lambda: [w in plain for w in words[:8000]], 5) / 1000
    report("8-word challenge (<= 1.5x frozenset)", f"{ours / 1000 * 1e6:.1f} us",
           f"{ours / base:.2f}x frozenset ({base / 1000 * 1e6:.1f} us); 8 bare look-ups "
           f"{lookups * 1e6:.1f} us vs {plain_lookups * 1e6:.1f} us")


def test_batch_throughput(benchmark, csw19, monkeypatch):
    from adjudicator.cli.judge import run_batch

    _, out, words = csw19
    lex = Lexicon.load(out)
    rng = random.Random(1)
    lines = [" ".join(rng.sample(words, rng.randint(1, 3))) for _ in range(100_000)]
    data = ("\n".join(lines) + "\n").encode()
    plain = frozenset(words)

    def ours():
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        monkeypatch.setattr(sys, "stdout", io.StringIO())
        assert run_batch(lex, "-") == 0

    def baseline():
        sink = io.StringIO()
        for line in io.TextIOWrapper(io.BytesIO(data)):
            ok = all_found(plain, tuple(line.upper().split()))  # no validation at all
            sink.write("ACCEPTABLE\n" if ok else "UNACCEPTABLE\n")

    benchmark.pedantic(ours, rounds=3, iterations=1)
    base = _best_of(baseline, 3)
    rate = 100_000 / median(benchmark)
    report("batch (>= 100,000 challenges/s)", f"{rate:,.0f} challenges/s",
           f"{median(benchmark) / base:.2f}x an unvalidated frozenset loop")


def _best_of(fn, rounds: int) -> float:
    import time

    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best
