"""Zyzzyva word graphs (.dwg): a u32 count, then u32 edges; -R.dwg and checksums beside it."""

from __future__ import annotations

import binascii
import os

from adjudicator.lexicon.names import ZYZZYVA_CHECKSUMS, claim_of_id
from adjudicator.lexicon.readers.graph import FlatGraph, ListFormatError, flag_table, kid_view, official_list

FORMAT = "Zyzzyva word graph (.dwg)"
_END = 1 << 23  # a word ends on this edge
_LAST = 1 << 22  # last edge of its sibling list
_CHILD = 0x1FFFFF  # index of the first edge of the child list (0 = none)
_TRUNCATED_ROOT_MIN = 10  # a cut-short file is told from junk by a root list this long
_BITREV = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))
# Zyzzyva (WordGraph.cpp) reads edge records into an array after a zero: file record k is edge k+1.


def is_whole(data: bytes) -> bool:
    """DATA is laid out as a dwg: exactly 4 + 4N bytes for its first u32 N."""
    return len(data) >= 8 and len(data) == 4 + 4 * int.from_bytes(data[:4], "little")


def looks_like(head: bytes, size: int) -> bool:
    """Size is 4 + 4N from the first u32, and the root list starts with ascending letters A-Z;
    or the file is shorter than 4 + 4N (cut short) and holds a whole root list of ten letters
    or more and the zero bytes of a binary file, so it is refused as truncated, not as junk."""
    if size < 8:
        return False
    whole = size % 4 == 0 and size == 4 + 4 * int.from_bytes(head[:4], "little")
    if not whole and (size > 4 + 4 * int.from_bytes(head[:4], "little") or b"\0" not in head):
        return False
    prev = 0
    for count, off in enumerate(range(4, min(len(head) - 3, 4 + 4 * 26), 4), start=1):
        edge = int.from_bytes(head[off:off + 4], "little")
        letter = edge >> 24
        if not (65 <= letter <= 90 and letter > prev):
            return False
        if edge & _LAST:
            return whole or count >= _TRUNCATED_ROOT_MIN
        prev = letter
    return False


_LAST_TABLE = flag_table(_LAST >> 16)
_END_TABLE = flag_table(_END >> 16)


def decode(path: str, data: bytes) -> list[str]:
    """Every word in the graph (walked from edge 1, the root list)."""
    if not is_whole(data):
        expected = 4 + 4 * int.from_bytes(data[:4], "little") if len(data) >= 4 else 8
        if len(data) < expected:
            raise ListFormatError(path, f"truncated: {len(data):,} bytes of the {expected:,} its "
                                  "edge count says (a Zyzzyva word graph cut short)")
        raise ListFormatError(path, "not a Zyzzyva word graph: its size does not match its edge "
                              "count (damaged)")
    flags = data[6::4]  # bits 23-16 of each edge
    last, ends = flags.translate(_LAST_TABLE), flags.translate(_END_TABLE)
    del flags  # each array the size of a quarter of the file counts (issue 34.4)
    graph = FlatGraph(path, data[7::4], last, ends, kid_view(memoryview(data)[4:], 0x1F), base=1,
                      raw_letters=memoryview(data)[7::4], kid_mask=_CHILD)
    del ends  # merged into the graph's codes
    return graph.words(1)


def checksum(data: bytes) -> int:
    """Qt qChecksum (CRC-16/X-25) over the first N bytes of the edge array, as Zyzzyva computes it
    (it passes the edge count as a byte length). X-25 is CRC-CCITT bit-reflected: reflect each
    byte, run binascii's CCITT CRC, reflect the result, XOR 0xFFFF."""
    count = int.from_bytes(data[:4], "little")
    crc = binascii.crc_hqx(data[4:4 + count].translate(_BITREV), 0xFFFF)
    return int(f"{crc:016b}"[::-1], 2) ^ 0xFFFF


def companions(path: str) -> tuple[str, str]:
    """Zyzzyva's reversed graph and checksums of LEX.dwg: LEX-R.dwg, LEX-Checksums.txt."""
    folder, name = os.path.split(path)
    stem = os.path.splitext(name)[0]
    return (os.path.join(folder, f"{stem}-R.dwg"), os.path.join(folder, f"{stem}-Checksums.txt"))


def is_reversed_graph(words: list[str]) -> bool:
    """An English graph spelled backwards (a -R.dwg): many words start GNI, none end ING."""
    text = "\n" + "\n".join(words) + "\n"
    backward, forward = text.count("\nGNI"), text.count("ING\n")
    return backward >= 20 and backward > 3 * forward


def read(path: str, data: bytes, claims: list | None = None) -> tuple[list[str], list[str]]:
    """The words of LEX.dwg, checked against LEX-R.dwg and LEX-Checksums.txt when they are beside
    it (as Zyzzyva's importLexicon does), LEX-R.dwg walked only when the words are no official
    list by fingerprint; the notes say what was checked or not there to check.
    CLAIMS gets the official list whose checksums LEX-Checksums.txt holds, if any."""
    words = decode(path, data)
    if is_reversed_graph(words):
        stem, ext = os.path.splitext(path)
        forward = stem[:-2] + ext if stem.upper().endswith("-R") else None
        raise ListFormatError(path, "it holds words spelled backwards (Zyzzyva's reversed "
                              "graph, -R.dwg): add " + (forward if forward and
                                                        os.path.isfile(forward) else
                                                        "the .dwg without -R") + " instead")
    rev_path, sums_path = companions(path)
    notes, missing = [], []
    rev_data = _read_companion(path, rev_path)
    sums = _read_checksums(path, sums_path)
    if sums is not None:
        if checksum(data) != sums[0]:
            raise ListFormatError(path, f"its checksum does not match the first value in "
                                  f"{os.path.basename(sums_path)} (damaged or altered)")
        if rev_data is not None and checksum(rev_data) != sums[1]:
            raise ListFormatError(path, f"the checksum of {os.path.basename(rev_path)} does not "
                                  f"match the second value in {os.path.basename(sums_path)} "
                                  "(damaged or altered)")
        notes.append(f"checksums match {os.path.basename(sums_path)}")
        official = ZYZZYVA_CHECKSUMS.get(sums)
        if official is not None and claims is not None:
            claims.append(claim_of_id(official, f"{os.path.basename(sums_path)} beside it"))
    else:
        missing.append(os.path.basename(sums_path))
    known = official_list(words) if rev_data is not None else None
    if known is not None:  # the fingerprint vouches for every word (its CRC checked above)
        notes.append(f"{os.path.basename(rev_path)} not walked: the words are {known.id} "
                     "exactly (by fingerprint)")
    elif rev_data is not None:
        backward = decode(rev_path, rev_data)
        spelled_forward = "\n".join(backward)[::-1].split("\n")  # each word turned round
        if len(backward) != len(words) or set(spelled_forward) != set(words):
            raise ListFormatError(path, f"the reversed graph {os.path.basename(rev_path)} does "
                                  "not hold the same words (one of the two is damaged)")
        notes.append(f"{os.path.basename(rev_path)} holds the same words reversed")
    else:
        missing.append(os.path.basename(rev_path))
    if missing:
        notes.append(f"not checked: {' and '.join(missing)} "
                     f"{'was' if len(missing) == 1 else 'were'} not beside it")
    return words, notes


def _read_companion(path: str, companion: str) -> bytes | None:
    from adjudicator.lexicon.readers.graph import check_size

    if not os.path.exists(companion):
        return None
    if not os.path.isfile(companion):  # a FIFO or a device would block or never end
        raise ListFormatError(path, f"{companion} beside it is not a regular file")
    try:
        with open(companion, "rb") as f:
            check_size(companion, os.fstat(f.fileno()).st_size)
            return f.read()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise ListFormatError(path, f"cannot read {companion} beside it: {e.strerror or e}") from e


def _read_checksums(path: str, sums_path: str) -> tuple[int, int] | None:
    if os.path.exists(sums_path) and not os.path.isfile(sums_path):
        raise ListFormatError(path, f"{sums_path} beside it is not a regular file")
    try:
        with open(sums_path, "rb") as f:
            raw = f.read(256)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise ListFormatError(path, f"cannot read {sums_path} beside it: {e.strerror or e}") from e
    values = raw.split()
    if len(values) != 2 or not all(v.isdigit() and len(v) <= 5 for v in values):
        raise ListFormatError(path, f"{os.path.basename(sums_path)} beside it is not two "
                              "checksum lines (damaged)")
    return int(values[0]), int(values[1])
