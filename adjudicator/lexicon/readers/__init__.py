"""Word lists as other programs keep them: Zyzzyva, Quackle and KWG files, read into words."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from typing import BinaryIO

from adjudicator.lexicon.names import Claim
from adjudicator.lexicon.readers import detect as _detect
from adjudicator.lexicon.readers import kwg, quackle_dawg, zyzzyva_db, zyzzyva_dwg
from adjudicator.lexicon.readers.graph import MAX_BYTES, ListFormatError, check_size

__all__ = ["Decoded", "ListFormatError", "check_open", "read_open"]


@dataclass
class Decoded:
    """The words of one file in another program's format, what it is, and what was checked."""

    words: list[str]
    format: str
    sha256: str
    notes: list[str] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)  # an official list its hashes name


def _state(st: os.stat_result) -> tuple[int, int, int, int]:
    return st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev


def check_open(path: str, f: BinaryIO, size: int) -> None:
    """Refuse the open file F of SIZE bytes by its size before anything reads or hashes it
    whole: a Zyzzyva database (its first 16 bytes say so) up to MAX_DB_BYTES, any other list
    up to MAX_BYTES. F is left at its start."""
    head = f.read(len(zyzzyva_db.MAGIC))
    f.seek(0)
    check_size(path, size, zyzzyva_db.MAX_DB_BYTES if head == zyzzyva_db.MAGIC else MAX_BYTES)


def read_open(path: str, f: BinaryIO, size: int) -> tuple[Decoded | None, bytes]:
    """Read the open file F: (its words, b"") when it is a format here, else (None, its bytes).

    Refused by size before anything is read into memory (a 1 GB file costs nothing); a hostile
    file raises ListFormatError (exit 3) naming the file and the problem, never another error.
    """
    head = f.read(len(zyzzyva_db.MAGIC))
    if head == zyzzyva_db.MAGIC:
        check_size(path, size, zyzzyva_db.MAX_DB_BYTES)
        before = _state(os.fstat(f.fileno()))
        sha, seen = hashlib.sha256(head), len(head)
        for chunk in iter(lambda: f.read(1 << 20), b""):
            sha.update(chunk)
            seen += len(chunk)
            check_size(path, seen, zyzzyva_db.MAX_DB_BYTES)  # grew while being read
        words, notes, fmt = zyzzyva_db.read(path)
        if _state(os.stat(path)) != before:  # the hash must be of the words read
            raise ListFormatError(path, "it changed while being read (Zyzzyva writing it?): "
                                  "close Zyzzyva and try again")
        if not words:
            raise ListFormatError(path, f"no words found in it ({fmt}: its words table is "
                                  "empty)")
        return Decoded(words, fmt, sha.hexdigest(), notes), b""
    check_size(path, size, MAX_BYTES)
    f.seek(0)  # read whole again: `head + rest` would hold a 64 MB file twice
    data = f.read(MAX_BYTES + 1)
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
    claims: list[Claim] = []
    if kind == _detect.ZYZZYVA_DWG:
        words, notes = zyzzyva_dwg.read(path, data, claims)
        fmt = zyzzyva_dwg.FORMAT
    elif kind == _detect.KWG:
        words, notes, fmt = kwg.read(path, data)
    else:
        words, notes, fmt = quackle_dawg.read(path, data, claims)
    if not words:
        raise ListFormatError(path, f"no words found in it ({fmt})")
    return Decoded(words, fmt, sha256, notes, claims), b""
