"""What `judge --batch` reads and writes: the verdict lines, the input stream, pipe or file."""

from __future__ import annotations

import io
import os
import stat
import sys
from typing import TextIO

from ..errors import LexiconError

ACCEPTABLE, UNACCEPTABLE = "ACCEPTABLE\n", "UNACCEPTABLE\n"


def open_source(source: str) -> TextIO:
    """The batch's lines: SOURCE's file, or standard input for '-'."""
    if source == "-":
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    try:
        return open(source, encoding="utf-8", errors="replace")
    except OSError as e:
        raise LexiconError(f"cannot read {source}: {e.strerror or e}") from e


def close_source(source: str, stream: TextIO) -> None:
    if source == "-":
        stream.detach()  # leave the process's stdin open
    else:
        stream.close()


def interactive(source: str) -> bool:
    """True when lines come from a pipe or terminal (a runner typing): answer each at once."""
    return source == "-" and not is_regular_file(sys.stdin)


def is_regular_file(stream) -> bool:
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError):
        return False
