"""Word lists as other programs keep them: Zyzzyva, Quackle and KWG files, read into words."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import BinaryIO

from . import detect as _detect
from . import kwg, quackle_dawg, zyzzyva_db, zyzzyva_dwg
from .graph import MAX_BYTES, ListFormatError, check_size

__all__ = ["Decoded", "ListFormatError", "read_open"]


@dataclass
class Decoded:
    """The words of one file in another program's format, what it is, and what was checked."""

    words: list[str]
    format: str
    sha256: str
    notes: list[str] = field(default_factory=list)


def read_open(path: str, f: BinaryIO, size: int) -> tuple[Decoded | None, bytes]:
    """Read the open file F: (its words, b"") when it is a format here, else (None, its bytes).

    Refused by size before anything is read into memory (a 1 GB file costs nothing); a hostile
    file raises ListFormatError (exit 3) naming the file and the problem, never another error.
    """
    head = f.read(len(zyzzyva_db.MAGIC))
    if head == zyzzyva_db.MAGIC:
        check_size(path, size, zyzzyva_db.MAX_DB_BYTES)
        sha, seen = hashlib.sha256(head), len(head)
        for chunk in iter(lambda: f.read(1 << 20), b""):
            sha.update(chunk)
            seen += len(chunk)
            check_size(path, seen, zyzzyva_db.MAX_DB_BYTES)  # grew while being read
        words, notes, fmt = zyzzyva_db.read(path)
        return Decoded(words, fmt, sha.hexdigest(), notes), b""
    check_size(path, size, MAX_BYTES)
    data = head + f.read(MAX_BYTES + 1 - len(head))
    check_size(path, len(data), MAX_BYTES)  # grew while being read
    kind = _detect.detect(path, data)
    if kind is None:
        return None, data
    sha256 = hashlib.sha256(data).hexdigest()
    if kind == _detect.QUACKLE_GADDAG:
        beside = quackle_dawg.gaddag_beside(path)
        raise ListFormatError(path, "a Quackle GADDAG (a move-generation index, not read here): "
                              + (f"add {beside} beside it instead" if beside else
                                 "add the .dawg file of the same name instead"))
    if kind == _detect.ZYZZYVA_DWG:
        words, notes = zyzzyva_dwg.read(path, data)
        fmt = zyzzyva_dwg.FORMAT
    elif kind == _detect.KWG:
        words, notes, fmt = kwg.read(path, data)
    else:
        words, notes, fmt = quackle_dawg.read(path, data)
    if not words:
        raise ListFormatError(path, f"no words found in it ({fmt})")
    return Decoded(words, fmt, sha256, notes), b""
