"""Crash-safety harness: a child records then prints verdicts; the parent SIGKILLs it at random.

Run as a script it is the child: `python crash_child.py JOURNAL SEED` records forever, printing
"SEQ WORDS VERDICT" only after record() has returned (the verdict is "shown"). run_kills() is the
parent used by tests/journal/test_journal_crash.py and bench/test_journal_soak.py.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

WORDS = ("QI", "ZA", "CAT", "XU", "QZX", "JO", "AA", "ZZZ")


def child(path: str, seed: int) -> None:
    from adjudicator.journal import Journal
    from adjudicator.lexicon.known import LexiconIdentity
    from adjudicator.judging.verdict import Verdict

    rng = random.Random(seed)
    identity = LexiconIdentity("TINY", "cd" * 32, 6, None)
    journal = Journal.open(path)
    while True:
        words = tuple(rng.sample(WORDS, rng.randint(1, 3)))
        verdict = Verdict(words, not ({"QZX", "ZZZ"} & set(words)), identity)
        seq = journal.record(verdict, station=f"crash-{seed % 3}", mode="station")
        sys.stdout.write(f"{seq} {' '.join(words)} {verdict.word}\n")  # shown after commit
        sys.stdout.flush()
        if seq % 3 == 0:
            journal.set_print_status(seq, "printed")


def run_kills(path: str, kills: int, seed: int) -> dict[int, tuple[str, str]]:
    """SIGKILL the child KILLS times; return every verdict it showed: seq -> (words, verdict)."""
    rng = random.Random(seed)
    shown: dict[int, tuple[str, str]] = {}
    for k in range(kills):
        proc = subprocess.Popen([sys.executable, __file__, path, str(rng.randrange(10**9))],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        head = b""
        if rng.random() < 0.2:
            time.sleep(rng.uniform(0.0, 0.15))  # may die while opening or recovering the file
        else:
            head = proc.stdout.readline()  # judging has begun
            if not head:
                proc.wait()
                raise AssertionError(f"child failed: {proc.stderr.read().decode()}")
            time.sleep(rng.uniform(0.0, 0.03))
        os.kill(proc.pid, signal.SIGKILL)
        out = head + proc.stdout.read()
        err = proc.stderr.read()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()
        assert proc.returncode == -signal.SIGKILL, f"kill {k}: child ended by itself: {err!r}"
        for line in out.decode().split("\n")[:-1]:  # the last piece may be a half-written line
            seq, *words, word = line.split()
            assert int(seq) not in shown, (f"seq {seq} shown twice: a verdict shown earlier "
                                           "under it was never recorded")
            shown[int(seq)] = (" ".join(words), word)
    return shown


def check(path: str, shown: dict[int, tuple[str, str]]) -> int:
    """Every shown verdict is in the journal as shown, and the chain is intact; returns rows."""
    from adjudicator.journal import Journal, verify

    report = verify(path)
    assert report.intact, report.describe()
    with Journal.open(path) as journal:
        rows = {r.seq: (" ".join(r.words), r.verdict) for r in journal.rows()}
    missing = {s: v for s, v in shown.items() if rows.get(s) != v}
    assert not missing, f"shown but not in the journal: {missing}"
    return report.rows


if __name__ == "__main__":
    child(sys.argv[1], int(sys.argv[2]))
