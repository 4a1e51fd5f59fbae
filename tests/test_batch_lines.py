"""A batch's lines: only LF or CRLF ends one, however the bytes arrive (issue 12)."""

from hypothesis import given
from hypothesis import strategies as st

from adjudicator.cli.streams import BatchLines


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


def test_a_long_line_is_joined_once_at_its_end():
    data = ("q" * 5_000_000 + "\r\nqi\n").encode()
    assert [len(line) for line in BatchLines(Dribble(data, []), False, False)] == [5_000_000, 2]


def test_bytes_that_are_not_utf8_stay_in_their_line_as_u_fffd():
    lines = BatchLines(Dribble(b"qi\xff za\nxu\n", [3]), owned=False, streaming=True)
    assert list(lines) == ["qi\ufffd za", "xu"]
