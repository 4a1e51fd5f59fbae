"""What `judge --batch` reads and writes: the input's lines, each parsed once; the verdict lines."""

from __future__ import annotations

import codecs
import os
import stat
import sys
from collections.abc import Iterator
from typing import BinaryIO

from adjudicator.text.entry import MAX_LETTERS, MAX_WORDS, Words, parse_entry
from adjudicator.errors import AdjudicatorError, FileAccessError

# The longest batch line judged (issue 21): a play forms at most 8 words of at most 15 letters
# (136 characters with a comma and a space after each word); a line longer than this generous
# bound is INVALID, and only its start is ever held: the rest is read in chunks and dropped
# up to its end, so memory stays flat however long the line (docs/cli.md).
MAX_LINE_CHARS = 1000
ACCEPTABLE, UNACCEPTABLE = "ACCEPTABLE\n", "UNACCEPTABLE\n"
TOO_LONG_LINE = (f"INVALID: the line is longer than {MAX_LINE_CHARS:,} characters: one play "
                 f"forms at most {MAX_WORDS} words of at most {MAX_LETTERS} letters.\n")
_CHUNK = 1 << 20
# What str.split() splits at, besides a space, a tab and LF, in ASCII text: a block without them
# is split into parse_entry's very words (BatchLines.plain, batch.py)
_SPLITTERS = "\x0b\x0c\r\x1c\x1d\x1e\x1f"


class BatchLines:
    """The lines of a batch, without their ends. A line ends only at LF or CRLF; any other
    character (a lone CR, U+2028, NEL, FF...) stays in its line, for parse_entry to name. A
    UTF-8 byte-order mark at the very start is skipped; bytes that are not UTF-8 become
    U+DC80-U+DCFF (surrogateescape, as the command line's own arguments), refused and named by
    the byte. A line longer than MAX_LINE_CHARS is given as its first MAX_LINE_CHARS + 1
    characters only. Iterating gives one line at a time; `blocks()` gives lists of lines."""

    def __init__(self, raw: BinaryIO, owned: bool, streaming: bool, name: str = "the batch"):
        self.raw, self.owned, self.streaming, self.name = raw, owned, streaming, name
        self._decode = codecs.getincrementaldecoder("utf-8-sig")(errors="surrogateescape").decode
        self.plain = False  # the block just given is ASCII, none of _SPLITTERS in it

    def __iter__(self) -> Iterator[str]:
        for block in self.blocks():
            yield from block

    def blocks(self) -> Iterator[list[str]]:
        """Lists of the complete lines read so far. Each read takes what is there (read1: from a
        pipe, as soon as anything arrives), so a runner typing gets each line's verdict at once
        and a file or a fast pipe is still read a megabyte at a time."""
        read = getattr(self.raw, "read1", self.raw.read)
        decode, limit = self._decode, MAX_LINE_CHARS
        rest = ""  # the start of the line not ended yet (its last piece when pending holds more)
        pending: list[str] = []  # the earlier pieces of that line, read in earlier chunks
        held = 0  # characters in pending
        long = False  # that line is longer than the limit: rest holds its start, the rest dropped
        while data := self._read(read):
            text = decode(data)
            if rest and rest[-1] == "\r" and text[:1] == "\n" and not long:
                rest = rest[:-1]  # a CRLF cut in two by the read (a long line's start is kept)
            if "\r" in text:
                text = text.replace("\r\n", "\n")
            end = text.rfind("\n")
            if end < 0:  # a long line: its pieces are joined once, at its end (never quadratic)
                if not long:
                    pending.append(rest)
                    held += len(rest)
                    rest = text
                    if held + len(rest) > limit:  # too long to be a play: keep its start only
                        rest, pending, held, long = ("".join(pending) + rest)[:limit + 1], [], \
                            0, True
                continue
            if long:  # its end: the start kept stands for the whole line
                first = text.find("\n")
                head, long = rest + "\n" + text[first + 1:end] if first < end else rest, False
            else:
                if pending:
                    rest, pending, held = "".join(pending) + rest, [], 0
                head = rest + text[:end]
            rest = text[end + 1:]
            self.plain = head.isascii() and not any(c in head for c in _SPLITTERS)
            yield head.split("\n")
        pending.append(rest + decode(b"", True))
        last = "".join(pending)
        if last:
            self.plain = False
            yield [last[:limit + 1] if long else last]

    def _read(self, read) -> bytes:
        try:
            return read(_CHUNK)
        except OSError as e:
            raise FileAccessError(f"cannot read {self.name}: {e.strerror or e}") from e

    def more_within(self, seconds: float) -> bool:
        """True when more input arrives within SECONDS (at once for a file or at its end)."""
        if not self.streaming:
            return True
        import select

        try:
            ready, _, _ = select.select([self.raw], [], [], max(0.0, seconds))
        except (OSError, ValueError, TypeError):
            return False  # cannot wait on it: answer what is there now
        return bool(ready)

    def close(self) -> None:
        if self.owned:
            self.raw.close()


class Entries:
    """The one reading of a batch line, with or without --journal: `parse(line)` gives its words
    or, a str, the line's "INVALID: ..." answer naming what is wrong; `invalid` counts those."""

    def __init__(self):
        self.invalid = 0

    def parse(self, line: str) -> Words | str:
        if len(line) > MAX_LINE_CHARS:  # never split or scanned: only its start was kept
            self.invalid += 1
            return TOO_LONG_LINE
        try:
            return parse_entry(line)
        except AdjudicatorError as e:
            self.invalid += 1
            return f"INVALID: {e}\n"


def open_source(source: str) -> BatchLines:
    """The batch's lines: SOURCE's file, or standard input for '-'."""
    if source == "-":
        if sys.stdin is None:
            raise FileAccessError("cannot read standard input: it is closed")
        raw = sys.stdin.buffer
        return BatchLines(raw, owned=False, streaming=not is_regular_file(raw),
                          name="standard input")
    try:
        raw = open(source, "rb")
    except OSError as e:
        raise FileAccessError(f"cannot read {source}: {e.strerror or e}") from e
    return BatchLines(raw, owned=True, streaming=not is_regular_file(raw), name=source)


def close_source(source: str, stream: BatchLines) -> None:
    stream.close()  # standard input is left open


def is_regular_file(stream) -> bool:
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError):
        return False
