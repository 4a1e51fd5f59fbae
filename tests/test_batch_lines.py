"""A batch's lines: only LF or CRLF ends one, however the bytes arrive (issue 12)."""

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.terminal.batch_lines import MAX_LINE_CHARS, BatchLines


class Dribble:
    """A pipe that hands over a few bytes at a time, cutting CRLFs and UTF-8 sequences."""

    def __init__(self, data: bytes, sizes: list[int]):
        self.data, self.sizes, self.i = data, sizes, 0

    def read1(self, n: int) -> bytes:
        size = self.sizes[self.i % len(self.sizes)] if self.sizes else n
        self.i += 1
        piece, self.data = self.data[:min(size, n)], self.data[min(size, n):]
        return piece

    read = read1


def plain_lines(text: str) -> list[str]:
    """The plain reading: skip a leading BOM; split at LF; drop one CR before each LF."""
    text = text[1:] if text.startswith("\ufeff") else text
    *ended, last = text.split("\n")
    return [ln[:-1] if ln.endswith("\r") else ln for ln in ended] + ([last] if last else [])


@given(st.lists(st.sampled_from(["q", "i", " ", "\n", "\r", "\r\n", "\ufeff", "é", "\u2028",
                                 "\x85", "\x1c", "\x0c", "😀"])).map("".join),
       st.lists(st.integers(1, 7), max_size=5))
def test_lines_end_only_at_lf_or_crlf_however_the_bytes_arrive(text, sizes):
    lines = BatchLines(Dribble(text.encode(), sizes), owned=False, streaming=True)
    assert list(lines) == plain_lines(text)


def test_a_line_too_long_to_be_a_play_is_held_by_its_start_only():
    """Issue 21.9: only MAX_LINE_CHARS + 1 characters of a long line are kept (enough to know
    it is too long); the rest is dropped up to its end, however the bytes arrive."""
    for sizes in ([], [1 << 20], [7, 3000, 1]):
        data = ("q" * 5_000_000 + "\r\nqi\n" + "z" * 1500 + "\nxu\n" + "c" * 2000).encode()
        lines = list(BatchLines(Dribble(data, sizes), False, False))
        assert len(lines) == 5 and len(lines[0]) == MAX_LINE_CHARS + 1  # 5 MB: always cut
        for line, whole in zip(lines[2::2], (1500, 2000)):  # whole when one read held it
            assert len(line) in (whole, MAX_LINE_CHARS + 1), sizes
        assert lines[1] == "qi" and lines[3] == "xu"
        assert all(len(line) <= 2000 for line in lines)


def test_a_long_line_stays_too_long_whatever_its_kept_start_ends_with():
    """Its start ends with a CR and a later read starts with LF: it is still too long."""
    data = ("qi" + " " * (MAX_LINE_CHARS - 2) + "\r" + "z" * 5000 + "\r\nza\n").encode()
    sizes = [MAX_LINE_CHARS + 1, 5000, 1, 10]  # the CR ends the first read, the LF starts one
    lines = list(BatchLines(Dribble(data, sizes), owned=False, streaming=True))
    assert [len(line) for line in lines] == [MAX_LINE_CHARS + 1, 2]


@given(st.integers(0, 2500), st.lists(st.integers(1, 1200), max_size=4))
def test_lines_up_to_the_limit_are_whole_and_longer_ones_cut(n, sizes):
    text = "qi\n" + "q" * n + "\nza"
    lines = list(BatchLines(Dribble(text.encode(), sizes), owned=False, streaming=True))
    assert lines[0] == "qi" and lines[2] == "za"
    if n <= MAX_LINE_CHARS:
        assert lines[1] == "q" * n
    else:
        assert lines[1].startswith("q" * (MAX_LINE_CHARS + 1)) and len(lines[1]) <= n


def test_bytes_that_are_not_utf8_stay_in_their_line_as_escaped_bytes():
    """As the command line's arguments hold them (surrogateescape): one message for both."""
    lines = BatchLines(Dribble(b"qi\xff za\nxu\n", [3]), owned=False, streaming=True)
    assert list(lines) == ["qi\udcff za", "xu"]


# A wrapper process whose only child is the judge: its RUSAGE_CHILDREN peak is the judge's alone.
_PEAK = r"""
import resource, subprocess, sys, threading
proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE)
def feed():
    proc.stdin.write(b"qi za\n")
    piece = b"q" * (1 << 20)
    for _ in range(100):  # one line of 100 MB, never held here either
        proc.stdin.write(piece)
    proc.stdin.write(b"\nza\ncat xu\n")
    proc.stdin.close()
threading.Thread(target=feed, daemon=True).start()
out, err = proc.stdout.read(), proc.stderr.read()
proc.wait()
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
sys.stdout.write(f"{proc.returncode} {peak_kb}\n" + out.decode() + err.decode())
"""


@pytest.mark.parametrize("journal", [False, True])
def test_a_100_mb_line_is_invalid_in_flat_memory_and_the_next_lines_are_judged(tmp_path,
                                                                               journal):
    """Issue 21.9: one 10 MB line took 543 MB before INVALID. A 100 MB line now costs no more
    memory than a short batch (peak RSS of the judge's process < 100 MB), and every line after
    it is judged: one output line per input line."""
    words = tmp_path / "tiny.txt"
    words.write_text("QI\nZA\nCAT\nXU\n")
    cmd = [sys.executable, "-m", "adjudicator", "judge", "-l", str(words), "--batch", "-"]
    if journal:
        cmd += ["--journal", str(tmp_path / "j.db")]
    done = subprocess.run([sys.executable, "-c", _PEAK, *cmd], capture_output=True, text=True,
                          timeout=300)
    first, *lines = done.stdout.splitlines()
    code, peak_kb = map(int, first.split())
    warning = "adjudicator: warning: UNRECOGNISED WORD LIST TINY"  # the tiny list (issue 29)
    assert code == 2 and [ln for ln in lines if not ln.startswith(warning)] == [
        "ACCEPTABLE",
        f"INVALID: the line is longer than {MAX_LINE_CHARS:,} characters: one play forms at "
        "most 8 words of at most 15 letters.",
        "ACCEPTABLE", "ACCEPTABLE"], done.stdout[:2000]
    assert peak_kb < 100 * 1024, f"peak RSS {peak_kb / 1024:.0f} MB"
