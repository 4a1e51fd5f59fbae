"""`judge --journal --batch -` from a pipe: group commits, and no verdict before its row is durable."""

from __future__ import annotations

import io
import os
import random
import signal
import subprocess
import sys

from adjudicator.terminal import recording as recorded
from adjudicator.terminal.given_lists import load_configured
from adjudicator.journal import Journal, verify


def pipe_stdin(monkeypatch, data: bytes) -> None:
    """Standard input as a real pipe already holding DATA (then closed, as `cat file |`)."""
    r, w = os.pipe()
    os.write(w, data)
    os.close(w)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.FileIO(r, "rb"))))


def test_lines_waiting_in_a_pipe_share_group_commits(tiny, jpath, monkeypatch, capsys):
    commits = []
    original = Journal.record_many
    monkeypatch.setattr(Journal, "record_many",
                        lambda self, items: commits.append(len(items := list(items)))
                        or original(self, items))
    pipe_stdin(monkeypatch, b"qi\nqzx\n" * 500)
    station = recorded.terminal_station(load_configured(tiny), jpath, "Desk")
    assert recorded.run_batch_recorded(station, "-", "", "") == 0
    station.close()
    out = capsys.readouterr().out.splitlines()
    assert out == ["ACCEPTABLE", "UNACCEPTABLE"] * 500
    group = recorded.BATCH_GROUP
    assert commits == [group] * (1000 // group) + [1000 % group]  # was 1,000 commits of 1
    with Journal.open(jpath) as j:
        assert [r.acceptable for r in j.rows()] == [True, False] * 500


def judge_process(tiny, jpath):
    return subprocess.Popen(
        [sys.executable, "-m", "adjudicator", "judge", "-l", tiny, "--journal", jpath,
         "--batch", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)


def test_a_verdict_read_from_the_pipe_is_in_the_journal_even_after_kill_9(tiny, jpath):
    rng = random.Random(13)
    words = [b"qi\n", b"qzx\n"]
    before = 0  # rows in the journal before each run
    for _ in range(6):
        proc = judge_process(tiny, jpath)
        shown: list[bytes] = []  # the verdict lines read from this run, in order
        try:
            typed = rng.randrange(1, 40)  # a runner typing: one line, its verdict, the next
            for i in range(typed):
                proc.stdin.write(words[i % 2])
                shown.append(proc.stdout.readline())
            burst = rng.randrange(1, 700)  # then a burst pasted at once; read part of it
            proc.stdin.write(b"".join(words[i % 2] for i in range(typed, typed + burst)))
            for _ in range(rng.randrange(0, burst + 1)):
                shown.append(proc.stdout.readline())
        finally:
            proc.send_signal(signal.SIGKILL)  # no chance to commit anything after the read
            proc.wait(timeout=30)
            proc.stdin.close()
            proc.stdout.close()
        with Journal.open(jpath) as j:
            rows = list(j.rows())
        assert len(rows) >= before + len(shown)  # every verdict seen has its row, durable
        for i, line in enumerate(shown):
            row = rows[before + i]
            assert row.words == (("QI",), ("QZX",))[i % 2]
            assert line == (b"ACCEPTABLE\n" if row.acceptable else b"UNACCEPTABLE\n")
        before = len(rows)
    assert verify(jpath).intact
