"""The compiled lexicon file: written atomically, read into memory once, checked, looked up."""

from __future__ import annotations

import json
import os
import stat
import struct
import threading
from collections.abc import Iterable, Iterator

import marisa_trie

from adjudicator.files.destination import replacing
from adjudicator.errors import FileAccessError, LexiconError
from adjudicator.lexicon import verified
from adjudicator.lexicon.known import LexiconIdentity, identify

FORMAT_VERSION = 1
MAGIC = b"ADJLEX\x00\x01"
MARISA_MAGIC = b"We love Marisa."  # how every marisa trie, so every compiled lexicon, begins
# File layout: [marisa trie][header JSON][u64 header length][32-byte SHA-256][8-byte MAGIC].
# The SHA-256 covers the trie and the header, and is verified on every load, over the bytes read
# into memory: the trie is built from those very bytes (never mapped from the file, which anyone
# with the station's login could rewrite under a running station).
_FOOTER = struct.Struct("<Q32s8s")
# A compiled lexicon larger than this is refused before it is hashed: the real ones are under 1 MB
# (CSW19 0.7 MB), and the largest list a reader accepts (1,000,000 random words of 15 letters)
# compiles to 12 MB.
MAX_LEX_BYTES = 32 << 20


def _sha256(data: bytes | memoryview = b""):
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


def write_compiled(out: str, trie_bytes: bytes, header: dict) -> str:
    """Write the file atomically (temp file then rename): a crash never leaves half a lexicon.
    OUT a symlink: its target is written; a device, pipe, socket or folder: refused (exit 4).
    Returns the SHA-256 of the whole file written (what a verified mark is keyed by)."""
    header_bytes = json.dumps(header, sort_keys=True, separators=(",", ":")).encode("utf-8")
    sha = _sha256(trie_bytes + header_bytes)
    footer = _FOOTER.pack(len(header_bytes), sha.digest(), MAGIC)
    sha.update(footer)
    with replacing(out, "lexicon", prefix=".lexicon-") as f:
        f.write(trie_bytes)
        f.write(header_bytes)
        f.write(footer)
    return sha.hexdigest()


class _HeldTrie(marisa_trie.Trie):
    """A trie mapped over bytes in memory, holding them: marisa's map() keeps no reference, so
    the bytes live exactly as long as the trie (and every `contains` bound to it)."""

    __slots__ = ("_held",)


class Lexicon:
    """A loaded, checked lexicon: `word in lexicon` answers for one uppercase word."""

    def __init__(self, path: str, header: dict, trie: marisa_trie.Trie):
        self.path = path
        self.header = header
        self._trie = trie
        self.contains = trie.__contains__  # `word in lexicon` without a Python frame between
        self.words_match: bool | None = None  # the words' fingerprint is the header's
        self.sha256 = ""  # of the file's bytes as read (once its checksum is verified)
        self._checking = threading.Lock()
        self._checksum: _Checksum | None = None  # the bytes', when load left it to check_words
        self._damage = ""  # why that checksum refused it
        self._set: frozenset[str] | None = None  # word_set(), once asked for
        self.identity = LexiconIdentity(
            name=header["name"],
            fingerprint=header["fingerprint"],
            word_count=header["word_count"],
            known=identify(header["fingerprint"]),
        )

    @classmethod
    def load(cls, path: str, *, checksum_now: bool = True) -> Lexicon:
        """Read a compiled file into memory once, verify it, build its trie from those bytes;
        refuse a truncated, altered or foreign one. The file is closed before this returns:
        rewritten, truncated or replaced afterwards, it changes nothing here. The name it gives
        itself and its file's name are checked by whoever uses it: the loader, the shelf
        (names.check_named). CHECKSUM_NOW False: the checksum is verified with its words
        (check_words, before its first verdict), over the same bytes in memory."""
        data, header, trie_len, checksum = _read_checked(path)
        if checksum_now:
            checksum.verify()  # a damaged trie is never mapped
        trie = _HeldTrie()
        trie._held = memoryview(data)[:trie_len]
        try:
            trie.map(trie._held)
        except Exception as e:  # marisa raises bare RuntimeError/ValueError on bad data
            raise LexiconError(f"{path}: not a usable lexicon ({e})") from e
        if len(trie) != header["word_count"]:
            raise LexiconError(f"{path}: word count does not match its header; refused")
        lexicon = cls(path, header, trie)  # its names are checked by who uses it (check_named)
        if checksum_now:
            lexicon.sha256 = checksum.sha256
        else:
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

    def word_set(self) -> frozenset[str]:
        """Every word as a frozenset, made from the trie (the same verified bytes) at the first
        call: a long batch looks its words up there, in about a third of a trie look-up's time
        (about 70 ms and 30 MB to make for CSW)."""
        if self._set is None:
            self._set = frozenset(self._trie.keys())
        return self._set

    def verify_fingerprint(self) -> bool:
        """True when the fingerprint of its words is the header's: computed from every word
        (about 0.1 s for CSW) unless a verified mark says these very bytes (by their SHA-256)
        were checked to hold it; a check that passes leaves such a mark. Once per Lexicon.
        LexiconError when the checksum, left by load to this check, is not its bytes'."""
        with self._checking:
            if self._checksum is not None:  # its bytes first: a damaged trie is never walked
                checksum, self._checksum = self._checksum, None
                try:
                    checksum.verify()
                except LexiconError as e:  # damaged or altered: refused now and every time after
                    self.words_match, self._damage = False, str(e)
                    raise
                self.sha256 = checksum.sha256
            if self.words_match is None:
                if self.sha256 and verified.recall("words", self.sha256) == self.fingerprint:
                    self.words_match = True  # these bytes' words were checked: not again
                else:
                    self.words_match = fingerprint_words(self._trie.keys()) == self.fingerprint
                    if self.words_match and self.sha256:
                        verified.remember("words", self.sha256, self.fingerprint)
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
    """A compiled file's checksum, verified over the bytes read at load (in memory: a list
    replaced or rewritten on disk meanwhile is not the one read)."""

    def __init__(self, path: str, data: bytes, length: int, digest: bytes):
        self.path, self.data, self.length, self.digest = path, data, length, digest
        self.sha256 = ""  # of the whole file's bytes, once verified

    def verify(self) -> None:
        """LexiconError when the first LENGTH bytes are not the DIGEST's; else the SHA-256 of
        all the bytes is kept (one pass: the footer is hashed on from there)."""
        view = memoryview(self.data)
        sha = _sha256(view[:self.length])
        if sha.digest() != self.digest:
            raise LexiconError(f"{self.path}: checksum mismatch, the file is damaged or altered; "
                               "refused")
        sha.update(view[self.length:])
        self.sha256 = sha.hexdigest()


def _read_checked(path: str) -> tuple[bytes, dict, int, _Checksum]:
    """(the file's bytes, its header, its trie's length, its checksum left to verify): the file
    is read whole, once, after its size is checked, and closed: what was read is what is used,
    whatever the file becomes meanwhile."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_LEX_BYTES:  # its ends only: an 8 GB file is refused at once, unread
                first = f.read(len(MARISA_MAGIC))
                f.seek(size - _FOOTER.size)
                _footer(path, first + f.read(_FOOTER.size))
                raise LexiconError(f"{path}: {size / (1 << 20):,.0f} MB is too large for a "
                                   f"compiled lexicon (at most {MAX_LEX_BYTES >> 20} MB); refused")
            data = f.read(MAX_LEX_BYTES + 1)
    except OSError as e:
        raise FileAccessError(f"cannot read lexicon {path}: {e.strerror or e}") from e
    if len(data) > MAX_LEX_BYTES:  # it grew as it was read
        raise LexiconError(f"{path}: more than {MAX_LEX_BYTES >> 20} MB, too large for a "
                           "compiled lexicon; refused")
    header_len, digest = _footer(path, data)
    size = len(data)
    trie_len = size - _FOOTER.size - header_len
    if header_len > size or trie_len <= 0:
        raise LexiconError(f"{path}: damaged lexicon (bad footer); refused")
    try:
        header = json.loads(data[trie_len:trie_len + header_len])
    except ValueError as e:
        raise LexiconError(f"{path}: damaged lexicon header; refused") from e
    if not isinstance(header, dict) or header.get("format") != FORMAT_VERSION:
        what = header.get("format") if isinstance(header, dict) else None
        raise LexiconError(f"{path}: lexicon format {what} is not {FORMAT_VERSION}; recompile it")
    if not (isinstance(header.get("name"), str) and isinstance(header.get("word_count"), int)
            and isinstance(header.get("fingerprint"), str)):
        raise LexiconError(f"{path}: damaged lexicon header (no name, count or fingerprint); "
                           "refused")
    return data, header, trie_len, _Checksum(path, data, trie_len + header_len, digest)


def _footer(path: str, data: bytes) -> tuple[int, bytes]:
    """(header length, SHA-256) from the footer at the end of DATA; LexiconError when there is
    none: too short, cut short (a trie without its end), or not a compiled lexicon at all."""
    if len(data) < _FOOTER.size:
        raise LexiconError(f"{path}: not a compiled lexicon, or one damaged or truncated "
                           "(too short); refused")
    header_len, digest, magic = _FOOTER.unpack_from(data, len(data) - _FOOTER.size)
    if magic != MAGIC and data.startswith(MARISA_MAGIC):
        raise LexiconError(f"{path}: the lexicon file is damaged or truncated (its end is "
                           "missing); refused: copy or compile it again")
    if magic != MAGIC:
        raise LexiconError(f"{path}: not a compiled lexicon (compile a word list with "
                           "'adjudicator compile'); refused")
    return header_len, digest
