"""KWG word graphs (wolges/macondo/MAGPIE/Woogles .kwg, .kad): little-endian u32 Node22 records."""

from __future__ import annotations

from adjudicator.lexicon.readers.graph import SEPARATOR, FlatGraph, ListFormatError, flag_table, kid_view, official_list

FORMAT_FULL = "KWG word graph (.kwg, word graph and GADDAG)"
FORMAT_DAWG = "KWG word graph (.kwg, word graph only)"
_ACCEPTS = 0x80  # bit 23 of a node, bit 7 of its third byte: a word ends on this tile
_IS_END = 0x40  # bit 22: last node of its sibling list
_ARC = 0x3FFFFF  # bits 21-0: the first node of the child list (0 = none)
_ACCEPTS_TABLE = flag_table(_ACCEPTS)
_IS_END_TABLE = flag_table(_IS_END)
_TILES = bytes(64 + t if 1 <= t <= 26 else 0 for t in range(256))  # English: tiles 1-26 = A-Z
_GADDAG_TILES = bytes([SEPARATOR]) + _TILES[1:]  # tile 0 there is the direction switch
_ALPHAGRAM_MIN = 20  # this many words, each with its letters in order: alphagrams, not words


def _node(data: bytes, index: int) -> int:
    return int.from_bytes(data[4 * index:4 * index + 4], "little")


def looks_like(data: bytes) -> bool:
    """Whole u32 nodes; node 0 is tile 0, is_end, its arc to an ascending list of tiles 1-26."""
    if len(data) < 8 or len(data) % 4:
        return False
    count = len(data) // 4
    node0 = _node(data, 0)
    root = node0 & _ARC
    if node0 >> 24 or not node0 & (_IS_END << 16) or not 0 < root < count:
        return False
    prev = 0
    for index in range(root, min(count, root + 26)):
        node = _node(data, index)
        tile = node >> 24
        if not prev < tile <= 26:
            return False
        if node & (_IS_END << 16):
            return True
        prev = tile
    return False


def is_gaddawg(data: bytes) -> bool:
    """A full .kwg: node 1 is also tile 0, is_end, not accepting (its arc is the GADDAG root)."""
    node1 = _node(data, 1)
    return not node1 >> 24 and bool(node1 & (_IS_END << 16)) and not node1 & (_ACCEPTS << 16)


def read(path: str, data: bytes) -> tuple[list[str], list[str], str]:
    """The words of the word-graph (DAWG) part, checked against the GADDAG part of a full .kwg
    (its paths without a direction switch are the same words spelled backwards, as Zyzzyva's
    -R.dwg is) unless they are an official list by fingerprint (the stronger check; the GADDAG
    walk costs 3 times the word graph's). Alphagram files (.kad) are refused, damaged ones too."""
    if len(data) < 8 or len(data) % 4:
        raise ListFormatError(path, "not whole 4-byte nodes (truncated or damaged)")
    full = is_gaddawg(data)
    alphagrams = path.lower().endswith(".kad")
    if alphagrams and not full:
        raise _alphagram_file(path)
    flags = data[2::4]
    tiles = memoryview(data)[3::4]  # as stored, for messages: a view, no copy
    last, kids = flags.translate(_IS_END_TABLE), kid_view(data, _ARC >> 16)
    graph = FlatGraph(path, data[3::4].translate(_TILES), last, flags.translate(_ACCEPTS_TABLE),
                      kids, base=0, raw_letters=tiles, kid_mask=_ARC)
    del flags  # each array the size of a quarter of the file counts (issue 34.4)
    root = _node(data, 0) & _ARC
    words = graph.words(root) if root else []
    notes = []
    known = official_list(words) if full and words else None
    if known is not None:  # its fingerprint vouches for every word: the GADDAG is not ours to use
        notes.append(f"its word graph holds {known.id} exactly (by fingerprint): its GADDAG "
                     "part, not used here, was not walked")
    elif full:
        gaddag_root = _node(data, 1) & _ARC
        spent = graph.spent
        del graph  # its codes: the GADDAG's are others
        gaddag = FlatGraph(path, data[3::4].translate(_GADDAG_TILES), last,
                           data[2::4].translate(_ACCEPTS_TABLE), kids, base=0,
                           raw_letters=tiles, kid_mask=_ARC, separator_ok=True)
        text = "\n".join(words)  # held as one string while the GADDAG is walked: a fifth of
        words.clear()  # the memory of a list of words (issue 34.4)
        backward = (gaddag.words(gaddag_root, skip_separator=True, spent=spent + len(text))
                    if gaddag_root else [])  # one budget for the whole file's walks
        del gaddag, last, kids  # what the walks needed: not the comparison
        words = text.split("\n") if text else []
        del text
        if not _same_words_reversed(words, backward):
            raise ListFormatError(path, "its GADDAG part does not hold the same words as its "
                                  "word graph (damaged or altered)")
        if words:
            notes.append("its GADDAG part holds the same words")
    elif len(words) >= _ALPHAGRAM_MIN and alphagram_share(words) > 0.5:
        raise _alphagram_file(path)
    return words, notes, FORMAT_FULL if full else FORMAT_DAWG


def _same_words_reversed(words: list[str], backward: list[str]) -> bool:
    """BACKWARD (a GADDAG's paths without a switch) holds exactly the WORDS spelled backwards.
    Compared sorted (both come sorted from the walk: sorting costs next to nothing), BACKWARD
    dropped as soon as it is text: no sets of a million words (issue 34.4)."""
    if len(backward) != len(words):
        return False
    backward.sort()
    text = "\n".join(backward)
    backward.clear()
    turned = sorted(w[::-1] for w in words)
    return "\n".join(turned) == text


def _alphagram_file(path: str) -> ListFormatError:
    return ListFormatError(path, "it holds sorted letters, not words (an alphagram file, .kad, "
                           "for anagram search): add the .kwg word list instead")


def alphagram_share(words: list[str]) -> float:
    """The share of WORDS whose letters are in alphabetical order: nearly all in a .kad, damaged
    or not; under 1% in a word list."""
    return sum(1 for w in words if "".join(sorted(w)) == w) / len(words)

