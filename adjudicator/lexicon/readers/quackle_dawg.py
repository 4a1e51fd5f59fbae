"""Quackle DAWG files (.dawg): version 1 (header: MD5-XOR hash, word count, alphabet) and v0."""

from __future__ import annotations

import hashlib
import os
import sys
from array import array
from operator import methodcaller

from adjudicator.lexicon.names import QUACKLE_HASHES, claim_of_id
from adjudicator.lexicon.readers.graph import FlatGraph, ListFormatError, flag_table

FORMAT_V1 = "Quackle DAWG (.dawg, version 1)"
FORMAT_V0 = "Quackle DAWG (.dawg, version 0, no header)"
try:  # CPython's own MD5 makes small objects twice as fast as OpenSSL's, same digests
    from _md5 import md5 as _md5
except ImportError:  # pragma: no cover - other Pythons
    _md5 = hashlib.md5
_RECORD = 7  # pointer (3 bytes, big-endian), letter and flags, playability (3 bytes)
_LAST = 0x40  # last sibling, in both versions
_V0_END = 0x20  # v0: a word ends here (v1: a non-zero playability says so)
_QUACKLE_FIRST_LETTER = 5  # Quackle's letter codes: the hash encodes letter index + 5
_LAST_TABLE = flag_table(_LAST)
_V0_END_TABLE = flag_table(_V0_END)
_LETTER_INDEX = bytes(b & 63 for b in range(256))
ENGLISH = [chr(65 + i) for i in range(26)]  # an English Quackle file's alphabet, in this order
_V0_LETTERS = bytes(65 + (b & 31) if (b & 31) < 26 else 0 for b in range(256))


def parse_header(data: bytes) -> tuple[bytes, int, list[str], int] | None:
    """(hash, word count, alphabet, header length) of a v1 file, or None: no such header."""
    if len(data) < 22 or data[0] != 1 or not 0 < data[20] <= 64:
        return None
    alphabet, pos = [], 21
    for _ in range(data[20]):
        space = data.find(b" ", pos, pos + 9)
        if space <= pos:
            return None
        try:
            alphabet.append(data[pos:space].decode("utf-8"))
        except UnicodeDecodeError:
            return None
        pos = space + 1
    return data[1:17], int.from_bytes(data[17:20], "big"), alphabet, pos


def looks_like_v0(data: bytes) -> bool:
    """Headerless: whole 7-byte records, record 0's pointer leads to an ascending list of A-Z."""
    if len(data) < 2 * _RECORD or len(data) % _RECORD or data[0] != 0:
        return False
    first = int.from_bytes(data[0:3], "big")
    if not 0 < first < len(data) // _RECORD:
        return False
    prev = -1
    for off in range(first * _RECORD, min(len(data), (first + 26) * _RECORD), _RECORD):
        code = data[off + 3]
        if not prev < (code & 31) < 26:
            return False
        if code & _LAST:
            return True
        prev = code & 31
    return False


def _graph(path: str, records: bytes, letters: bytes, accepts: bytes) -> FlatGraph:
    count = len(records) // _RECORD
    wide = bytearray(4 * count)  # each big-endian 3-byte pointer as a little-endian u32
    wide[0::4], wide[1::4], wide[2::4] = (records[2::_RECORD][:count], records[1::_RECORD][:count],
                                          records[0::_RECORD][:count])
    kids = array("I")
    kids.frombytes(wide)  # no bytes() copy between: 4 bytes a record once, not twice
    del wide
    if sys.byteorder == "big":
        kids.byteswap()
    flags = records[3::_RECORD]
    return FlatGraph(path, letters, flags.translate(_LAST_TABLE), accepts, kids, base=0,
                     raw_letters=flags.translate(_LETTER_INDEX))


def read(path: str, data: bytes, claims: list | None = None
         ) -> tuple[list[str], list[str], str]:
    """The words of a Quackle DAWG (either version), checked against the v1 header; CLAIMS gets
    the official list the header's hash names (Quackle's copyrights.txt keys), if any."""
    header = parse_header(data)
    if header is None:
        return _read_v0(path, data), [], FORMAT_V0
    digest, count, alphabet, start = header
    bad = next((a for a in alphabet if not (len(a) == 1 and "A" <= a <= "Z")), None)
    if bad is not None:
        raise ListFormatError(path, f"its alphabet holds {bad!r}, outside A-Z: not a list of "
                              "English words")
    if alphabet != ENGLISH:  # two letters swapped keep the count and the hash: not the words
        raise ListFormatError(path, f"its alphabet is {''.join(alphabet)}, not the English "
                              "alphabet A-Z in order (damaged or altered)")
    records = data[start:]
    if len(records) % _RECORD or len(records) < 2 * _RECORD:
        raise ListFormatError(path, "its records are cut short (truncated or damaged)")
    table = bytes(ord(alphabet[b & 63]) if (b & 63) < len(alphabet) else 0 for b in range(256))
    playable = (int.from_bytes(records[4::_RECORD], "big") | int.from_bytes(records[5::_RECORD],
                "big") | int.from_bytes(records[6::_RECORD], "big"))
    accepts = playable.to_bytes(len(records) // _RECORD, "big")
    graph = _graph(path, records, records[3::_RECORD].translate(table), accepts)
    root = graph.kids[0]
    words = graph.words(root) if root else []
    if len(words) != count:
        raise ListFormatError(path, f"its header says {count:,} words but the graph holds "
                              f"{len(words):,} (damaged or altered)")
    if word_hash(words, alphabet) != digest:
        raise ListFormatError(path, "its words do not match the hash in its header "
                              "(damaged or altered)")
    official = QUACKLE_HASHES.get(digest[:4].hex())
    if official is not None and claims is not None:
        claims.append(claim_of_id(official, f"its header's hash {digest[:4].hex()}"))
    return words, [f"header checked: {count:,} words, hash {digest[:4].hex()}"], FORMAT_V1


def _read_v0(path: str, data: bytes) -> list[str]:
    if len(data) % _RECORD or len(data) < 2 * _RECORD:
        raise ListFormatError(path, "its records are cut short (truncated or damaged)")
    flags = data[3::_RECORD]
    graph = _graph(path, data, flags.translate(_V0_LETTERS), flags.translate(_V0_END_TABLE))
    root = graph.kids[0]
    return graph.words(root) if root else []


def word_hash(words: list[str], alphabet: list[str]) -> bytes:
    """Quackle's list hash: XOR over all words of MD5(letter index + 5, one byte per letter)."""
    letter_codes = bytes(i + _QUACKLE_FIRST_LETTER for i in range(len(alphabet)))
    codes = bytes.maketrans("".join(alphabet).encode("ascii") + b" ", letter_codes + b"\xff")
    encoded = " ".join(words).encode("ascii").translate(codes).split(b"\xff")
    digests = b"".join(map(methodcaller("digest"), map(_md5, encoded))) if words else b""
    return xor_fold(digests, 16)


def xor_fold(blocks: bytes, width: int) -> bytes:
    """The XOR of all WIDTH-byte blocks in BLOCKS, folding halves as big integers (C speed)."""
    count = len(blocks) // width
    value = int.from_bytes(blocks, "big")
    while count > 1:
        half = count // 2
        shift = (count - half) * width * 8  # the top HALF blocks onto the bottom ones
        value = (value >> shift) ^ (value & ((1 << shift) - 1))
        count -= half
    return value.to_bytes(width, "big")


def gaddag_beside(path: str) -> str | None:
    """The .dawg that goes with a Quackle .gaddag (same name), if it is there."""
    stem = os.path.splitext(path)[0]
    for ext in (".dawg", ".DAWG"):
        if os.path.isfile(stem + ext):
            return stem + ext
    return None
