"""The compiled lexicon file: written atomically, mmapped with its checksum verified, looked up."""

from __future__ import annotations

import json
import os
import stat
import struct
import threading
from collections.abc import Iterable, Iterator
import marisa_trie

from ..destination import replacing
from ..errors import FileAccessError, LexiconError
from .known import LexiconIdentity, identify

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


def _sha256(data: bytes = b""):
    """hashlib's SHA-256. Imported at its first use: hashlib loads OpenSSL (about 3 ms), which a
    kiosk's first paint does without (its list is checked just after it)."""
    from hashlib import sha256

    return sha256(data)


def fingerprint_words(words: Iterable[str]) -> str:
    """SHA-256 of the canonical content: sorted uppercase words, one per line, each ending in LF."""
    ordered = sorted(words)
    return _sha256(("\n".join(ordered) + "\n").encode("ascii")).hexdigest()


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


def write_compiled(out: str, trie_bytes: bytes, header: dict) -> None:
    """Write the file atomically (temp file then rename): a crash never leaves half a lexicon.
    OUT a symlink: its target is written; a device, pipe, socket or folder: refused (exit 4)."""
    header_bytes = json.dumps(header, sort_keys=True, separators=(",", ":")).encode("utf-8")
    digest = _sha256(trie_bytes + header_bytes).digest()
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
        self.words_match: bool | None = None  # the words' fingerprint is the header's
        self._checking = threading.Lock()
        self._checksum: _Checksum | None = None  # the file's, when load left it to check_words
        self._damage = ""  # why that checksum refused it
        self.identity = LexiconIdentity(
            name=header["name"],
            fingerprint=header["fingerprint"],
            word_count=header["word_count"],
            known=identify(header["fingerprint"]),
        )

    @classmethod
    def load(cls, path: str, *, checksum_now: bool = True) -> Lexicon:
        """Load and verify a compiled file; refuse a truncated, altered or foreign one. The name
        it gives itself and its file's name are checked by whoever uses it: the loader, the
        shelf (names.check_named). CHECKSUM_NOW False: the file's checksum is verified with its
        words (check_words, before its first verdict), on the file as it was opened here."""
        header, trie_len, checksum = _read_checked(path, checksum_now)
        try:
            trie = marisa_trie.Trie()
            try:
                trie.mmap(path)
            except Exception as e:  # marisa raises bare RuntimeError/ValueError on bad data
                raise LexiconError(f"{path}: not a usable lexicon ({e})") from e
            if len(trie) != header["word_count"]:
                raise LexiconError(f"{path}: word count does not match its header; refused")
        except BaseException:
            if checksum is not None:
                checksum.close()
            raise
        lexicon = cls(path, header, trie)  # its names are checked by who uses it (check_named)
        lexicon._checksum = checksum
        return lexicon

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
        """True when the fingerprint computed from every word is the header's (once per
        Lexicon: about 0.1 s for CSW, then remembered). LexiconError when the file's checksum,
        left by load to this check, is not its bytes'."""
        with self._checking:
            if self._checksum is not None:  # its bytes first: a damaged trie is never walked
                checksum, self._checksum = self._checksum, None
                try:
                    checksum.verify()
                except LexiconError as e:  # damaged or altered: refused now and every time after
                    self.words_match, self._damage = False, str(e)
                    raise
            if self.words_match is None:
                self.words_match = fingerprint_words(self._trie.keys()) == self.fingerprint
            return self.words_match

    def check_words(self) -> None:
        """Refuse (LexiconError, exit 3) a list whose words are not the ones its header names:
        a checksum recomputed by hand must not let other words judge as CSW24. Called before the
        first verdict on every path (verdict.adjudicate), or earlier by the loader."""
        if self.words_match or self.verify_fingerprint():
            return
        if self._damage:
            raise LexiconError(self._damage)
        raise LexiconError(
            f"{self.path}: its words are not the list its header names ({self.name}, "
            f"fingerprint {self.fingerprint[:12]}): altered after it was compiled; refused: "
            "compile or add the list again")


class _Checksum:
    """A compiled file's checksum, verified later on the file as it was opened (a list replaced
    on disk meanwhile is not the one read)."""

    def __init__(self, path: str, f, length: int, digest: bytes):
        self.path, self.file, self.length, self.digest = path, f, length, digest

    def verify(self) -> None:
        """LexiconError when the first LENGTH bytes are not the DIGEST's; the file closed."""
        try:
            self.file.seek(0)
            sha = _sha256()
            remaining = self.length
            while remaining:
                chunk = self.file.read(min(_CHUNK, remaining))
                if not chunk:
                    break
                sha.update(chunk)
                remaining -= len(chunk)
        except OSError as e:
            raise FileAccessError(f"cannot read lexicon {self.path}: {e.strerror or e}") from e
        finally:
            self.close()
        if remaining or sha.digest() != self.digest:
            raise LexiconError(f"{self.path}: checksum mismatch, the file is damaged or altered; "
                               "refused")

    def close(self) -> None:
        self.file.close()


def _read_checked(path: str, checksum_now: bool = True) -> tuple[dict, int, _Checksum | None]:
    """(header, trie length, the checksum left to verify unless CHECKSUM_NOW)."""
    try:
        f = open(path, "rb")
    except OSError as e:
        raise FileAccessError(f"cannot read lexicon {path}: {e.strerror or e}") from e
    checksum = None
    try:
        try:
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
            f.seek(trie_len)
            header_bytes = f.read(header_len)
        except OSError as e:
            raise FileAccessError(f"cannot read lexicon {path}: {e.strerror or e}") from e
        checksum = _Checksum(path, f, trie_len + header_len, digest)
        if checksum_now:
            checksum, now = None, checksum
            now.verify()  # closes the file
        try:
            header = json.loads(header_bytes)
        except ValueError as e:
            raise LexiconError(f"{path}: damaged lexicon header; refused") from e
        if header.get("format") != FORMAT_VERSION:
            raise LexiconError(f"{path}: lexicon format {header.get('format')} is not "
                               f"{FORMAT_VERSION}; recompile it")
    except BaseException:
        f.close()
        raise
    return header, trie_len, checksum
