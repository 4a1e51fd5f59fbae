"""Compiled lexicons: compile word lists to a checked marisa-trie file, load it by mmap, look up."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import marisa_trie

from .errors import FileAccessError, LexiconError
from .known import LexiconIdentity, check_claims, claim_of_name, identify

if TYPE_CHECKING:
    from .wordlist import SourceReport

FORMAT_VERSION = 1
MAGIC = b"ADJLEX\x00\x01"
MARISA_MAGIC = b"We love Marisa."  # how every marisa trie, so every compiled lexicon, begins
# File layout: [marisa trie][header JSON][u64 header length][32-byte SHA-256][8-byte MAGIC].
# The SHA-256 covers the trie and the header, and is verified on every load.
_FOOTER = struct.Struct("<Q32s8s")
_CHUNK = 1 << 16
# A compiled lexicon larger than this is refused before it is hashed: the real ones are under 1 MB
# (CSW19 0.7 MB), and the largest list a reader accepts (1,000,000 random words of 15 letters)
# compiles to 12 MB.
MAX_LEX_BYTES = 32 << 20


def fingerprint_words(words: Iterable[str]) -> str:
    """SHA-256 of the canonical content: sorted uppercase words, one per line, each ending in LF."""
    ordered = sorted(words)
    return hashlib.sha256(("\n".join(ordered) + "\n").encode("ascii")).hexdigest()


def is_compiled(path: str) -> bool:
    """True when the file ends with this project's lexicon footer (a cheap sniff, not a check)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False  # a named pipe is never opened here: read_source refuses it (exit 4)
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() < _FOOTER.size:
                return False
            f.seek(-len(MAGIC), os.SEEK_END)
            return f.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


@dataclass
class CompileReport:
    """What a compile read and wrote, for the CLI to tell the director."""

    path: str
    name: str
    word_count: int
    fingerprint: str
    sources: list["SourceReport"]


def compile_sources(
    sources: list[str], out: str, *, name: str | None = None, skip_invalid: bool = False
) -> CompileReport:
    """Read and union one or more word lists (NASPA III.A.1: OWL2 plus the Long List), write OUT."""
    if not sources:
        raise LexiconError("compile needs at least one source word list")
    from .wordlist import read_source  # only compiling reads word lists

    reports = [read_source(p, skip_invalid=skip_invalid) for p in sources]
    words: set[str] = set()
    for report in reports:
        words |= report.words
    fingerprint = fingerprint_words(words)
    known = identify(fingerprint)
    for report in reports:  # a header or a hash inside a file names the list it says it is
        if report.claims:
            own = fingerprint if len(reports) == 1 else fingerprint_words(report.words)
            check_claims(report.path, report.claims, identify(own), len(report.words), own,
                         "check the file (a damaged or altered copy is never used)")
    if name is None:
        stem = os.path.splitext(reports[0].name)[0]
        claim = claim_of_name(stem, f"its file name {reports[0].name}")
        name = known.id if known else stem.upper()
    else:
        claim = claim_of_name(name, f"the name {name}")
    if claim is not None:  # NASPA III.A.1: OWL2.txt with the Long List is TWL06
        check_claims(reports[0].path if len(reports) == 1 else ", ".join(sources), [claim],
                     known, len(words), fingerprint,
                     "check the file, or give the list a name of its own (rename it, or --name)")
    header = {
        "format": FORMAT_VERSION,
        "name": name,
        "word_count": len(words),
        "fingerprint": fingerprint,
        "sources": [
            {
                "file": r.name,
                "sha256": r.sha256,
                "lines": r.lines,
                "header": r.header,
                "skipped": len(r.skipped),
                **({"format": r.format} if r.format != "text" else {}),
            }
            for r in reports
        ],
    }
    write_compiled(out, marisa_trie.Trie(words).tobytes(), header)
    return CompileReport(out, name, len(words), fingerprint, reports)


def write_compiled(out: str, trie_bytes: bytes, header: dict) -> None:
    """Write the file atomically (temp file then rename): a crash never leaves half a lexicon.
    OUT a symlink: its target is written; a device, pipe, socket or folder: refused (exit 4)."""
    from .destination import replacing

    header_bytes = json.dumps(header, sort_keys=True, separators=(",", ":")).encode("utf-8")
    digest = hashlib.sha256(trie_bytes + header_bytes).digest()
    with replacing(out, "lexicon", prefix=".lexicon-") as f:
        f.write(trie_bytes)
        f.write(header_bytes)
        f.write(_FOOTER.pack(len(header_bytes), digest, MAGIC))


class Lexicon:
    """A loaded, checked lexicon: `word in lexicon` answers for one uppercase word."""

    def __init__(self, path: str, header: dict, trie: marisa_trie.Trie):
        self.path = path
        self.header = header
        self._trie = trie
        self.contains = trie.__contains__  # `word in lexicon` without a Python frame between
        self.identity = LexiconIdentity(
            name=header["name"],
            fingerprint=header["fingerprint"],
            word_count=header["word_count"],
            known=identify(header["fingerprint"]),
        )

    @classmethod
    def load(cls, path: str) -> Lexicon:
        """Load and verify a compiled file; refuse a truncated, altered or foreign one."""
        header, trie_len = _read_checked(path)
        trie = marisa_trie.Trie()
        try:
            trie.mmap(path)
        except Exception as e:  # marisa raises bare RuntimeError/ValueError on bad data
            raise LexiconError(f"{path}: not a usable lexicon ({e})") from e
        if len(trie) != header["word_count"]:
            raise LexiconError(f"{path}: word count does not match its header; refused")
        lex = cls(path, header, trie)
        claim = claim_of_name(lex.name, f"its name {lex.name}")
        if claim is not None:  # compiled before names were checked, or by hand
            check_claims(path, [claim], lex.identity.known, lex.identity.word_count,
                         lex.fingerprint, "compile the list again")
        return lex

    @property
    def name(self) -> str:
        return self.identity.name

    @property
    def fingerprint(self) -> str:
        return self.identity.fingerprint

    def __contains__(self, word: str) -> bool:
        return word in self._trie

    def __len__(self) -> int:
        return len(self._trie)

    def __iter__(self) -> Iterator[str]:
        return iter(self._trie.keys())

    def verify_fingerprint(self) -> bool:
        """Recompute the content fingerprint from every word (about 0.1 s for CSW)."""
        return fingerprint_words(self._trie.keys()) == self.fingerprint


def check_file_name(path: str, lex: "Lexicon") -> None:
    """A file named like an official list (CSW21.lex, nwl23.dawg) must hold that list, whatever
    name is recorded inside it: a director who configured CSW21 must get CSW21 or a refusal."""
    name = os.path.basename(path)
    claim = claim_of_name(os.path.splitext(name)[0], f"its file name {name}")
    if claim is not None:
        ident = lex.identity
        check_claims(path, [claim], ident.known, ident.word_count, ident.fingerprint,
                     "check the file, or compile it under a name of its own "
                     "('adjudicator compile FILE --name NAME -o OUT')")


def _read_checked(path: str) -> tuple[dict, int]:
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < _FOOTER.size:
                raise LexiconError(f"{path}: not a compiled lexicon, or one damaged or truncated "
                                   "(too short); refused")
            f.seek(size - _FOOTER.size)
            header_len, digest, magic = _FOOTER.unpack(f.read(_FOOTER.size))
            f.seek(0)
            if magic != MAGIC and f.read(len(MARISA_MAGIC)) == MARISA_MAGIC:
                raise LexiconError(f"{path}: the lexicon file is damaged or truncated (its end is "
                                   "missing); refused: copy or compile it again")
            if magic != MAGIC:
                raise LexiconError(
                    f"{path}: not a compiled lexicon (compile a word list with "
                    "'adjudicator compile'); refused"
                )
            trie_len = size - _FOOTER.size - header_len
            if header_len > size or trie_len <= 0:
                raise LexiconError(f"{path}: damaged lexicon (bad footer); refused")
            if size > MAX_LEX_BYTES:  # before hashing it: an 8 GB file is refused at once
                raise LexiconError(f"{path}: {size / (1 << 20):,.0f} MB is too large for a "
                                   f"compiled lexicon (at most {MAX_LEX_BYTES >> 20} MB); refused")
            f.seek(0)
            sha = hashlib.sha256()
            remaining = trie_len + header_len
            while remaining:
                chunk = f.read(min(_CHUNK, remaining))
                if not chunk:
                    break
                sha.update(chunk)
                remaining -= len(chunk)
            f.seek(trie_len)
            header_bytes = f.read(header_len)
    except OSError as e:
        raise FileAccessError(f"cannot read lexicon {path}: {e.strerror or e}") from e
    if remaining or sha.digest() != digest:
        raise LexiconError(f"{path}: checksum mismatch, the file is damaged or altered; refused")
    try:
        header = json.loads(header_bytes)
    except ValueError as e:
        raise LexiconError(f"{path}: damaged lexicon header; refused") from e
    if header.get("format") != FORMAT_VERSION:
        raise LexiconError(
            f"{path}: lexicon format {header.get('format')} is not {FORMAT_VERSION}; recompile it"
        )
    return header, trie_len
