"""Walk a word graph (DAWG) of sibling lists into words, bounded and checked: the shared core."""

from __future__ import annotations

import sys
from array import array

from adjudicator.errors import LexiconError
from adjudicator.lexicon.compiled import fingerprint_words
from adjudicator.lexicon.known import KnownLexicon, identify

MAX_LETTERS = 15  # a word has 2-15 letters: no path in a word graph is longer (a loop is)
MAX_WORDS = 1_000_000  # 3.5x CSW: more is not a word list, whatever the graph says
MAX_BYTES = 64 << 20  # a word graph or a text list larger than this is not a word list


class ListFormatError(LexiconError):
    """A file in another program's format that cannot be read: names file and problem (exit 3)."""

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path}: {problem}; refused")
        self.path, self.problem = path, problem


def _too_many(path: str) -> ListFormatError:
    return ListFormatError(path, f"it holds more than {MAX_WORDS:,} words, more than any "
                           "word list (damaged)")


# Each distinct sibling list keeps the words below it as one LF-separated byte string: one list
# may hold at most MAX_WORDS words of 15 letters; all of them together, counting _PER_LIST bytes
# for each list held (what a dict entry, its int key and a bytes object really cost), 8 times
# that, for the whole file (a KWG's word graph and GADDAG walks share it: NWL2018.kwg needs 72
# MB; CSW19.dwg 79k lists and 13 MB of words). The memo is not the whole cost: the file itself,
# its child indices (a view of the records as they are for a .dwg and a .kwg; 4 bytes a record
# for a Quackle .dawg), its list ends and one code a record. The worst 64 MB files built
# (tests/graph_files: worst_dawg, a Quackle v0 .dawg of 8.7 M records, every list distinct;
# worst_graph, a .dwg and .kwg as far as their child indices reach, and a .kwg of 913,952 words
# whose GADDAG part fills the budget) peak at 244-274 MB for the whole process before they are
# refused (issue 34.4: under 300 MB; 416-513 MB before); the largest list that is accepted
# (913,952 words of 15 letters) 256 MB through the whole compile. Measured with 128 bytes a
# list (the budget counted 64, and 0.8 GB was measured against "150 MB").
_MAX_BLOB = MAX_WORDS * 16
_MEMO_BUDGET = 8 * _MAX_BLOB
_PER_LIST = 128
_NL_LETTER = [b"\n" + bytes([c & 127]) for c in range(256)]  # by code: b"\nA" for A
_ENDS_HERE = [b"\n" + bytes([c & 127]) if c & 128 else b"" for c in range(256)]
SEPARATOR = 1  # the letter code a KWG GADDAG's tile 0 is given (below A; 0 means no letter)
_AZ = bytes(c if 65 <= c <= 90 else 0 for c in range(256))
_AZ_SEPARATOR = bytes(c if 65 <= c <= 90 or c == SEPARATOR else 0 for c in range(256))


_VALID = bytes([0] + [255] * 255)
_HIGH = bytes([0] + [128] * 255)
_MERGE_CHUNK = 1 << 20


def _merge(codes: bytes, accepts: bytes) -> bytearray:
    """Each record's letter code with 128 added where a word ends, 0 where it is no letter A-Z
    (bytes ops on big integers, no Python loop over the records; a megabyte at a time, so that
    no integer the size of a 64 MB file's 16 M records is made)."""
    out = bytearray()
    for i in range(0, len(codes), _MERGE_CHUNK):
        part = codes[i:i + _MERGE_CHUNK]
        high = (int.from_bytes(part.translate(_VALID), "big")
                & int.from_bytes(accepts[i:i + _MERGE_CHUNK].translate(_HIGH), "big"))
        out += (int.from_bytes(part, "big") | high).to_bytes(len(part), "big")
    return out


def _too_long(path: str) -> ListFormatError:
    return ListFormatError(path, f"a path in the word graph is longer than {MAX_LETTERS} "
                           "letters, or loops (damaged)")


class FlatGraph:
    """A word graph stored as one record per edge, decoded in bulk (slices, translate, find).

    Record r is edge index r + BASE. LETTERS holds each record's letter as an ASCII code
    (anything outside A-Z is refused when reached; RAW_LETTERS, the code as stored, names it),
    LAST and ACCEPTS a non-zero byte where its sibling list ends and where a word ends, KIDS the
    index of the first edge of its child list (0 = none; KID_MASK clears the rest of each, when
    KIDS are the file's records as they are: kid_view). SEPARATOR_OK: SEPARATOR is a letter
    here (a KWG GADDAG: words(skip_separator=True) passes over its edges).

    LETTERS and ACCEPTS are merged into one code a record at once and not kept: each array the
    size of a quarter of a 64 MB file is 16 MB more at the peak (issue 34.4).
    """

    def __init__(self, path: str, letters: bytes, last: bytes, accepts: bytes, kids, base: int,
                 raw_letters: bytes | memoryview | None = None, kid_mask: int = 0xFFFFFFFF,
                 separator_ok: bool = False):
        self.path, self.last = path, last
        self.kids, self.base = kids, base
        self.raw = raw_letters if raw_letters is not None else letters
        self.count = len(letters)
        self.kid_mask = kid_mask
        self.spent = 0
        # one code per record: its letter, plus 128 where a word ends (0: not a letter A-Z)
        self.codes = _merge(letters.translate(_AZ_SEPARATOR if separator_ok else _AZ), accepts)

    def words(self, root: int, skip_separator: bool = False, spent: int = 0) -> list[str]:
        """Every word below the sibling list starting at ROOT, in sorted order.

        Each distinct list is read once and the words below it are built once, bottom up, as
        one byte string (putting a letter in front of all of them is one bytes.replace), so
        time and memory are bounded by the file's size and the limits above however the graph
        shares its nodes. The walk goes at most 15 lists deep, so a loop is refused too.

        Siblings come in strictly ascending letter order in every format read here: one letter
        changed in a list mostly breaks the order, and is refused. SKIP_SEPARATOR: edges whose
        letter is SEPARATOR (a KWG GADDAG's direction switch) are passed over, not refused.
        SPENT: bytes this read already holds or held (a walk before, its words), taken from the
        memo's budget; self.spent is then that and what this walk's memo held.
        """
        path, last, kids, codes = self.path, self.last, self.kids, self.codes
        base, count, nl_letter, kid_mask = self.base, self.count, _NL_LETTER, self.kid_mask
        memo: dict[int, bytes] = {}
        budget = _MEMO_BUDGET - spent
        ends_here = _ENDS_HERE

        def visit(start: int, depth: int) -> bytes:
            nonlocal budget
            first = start - base
            end = last.find(1, first) + 1 if 0 <= first < count else -1
            if end <= 0:
                raise self._bad_list(start, end)
            seg = codes[first:end]
            if 0 in seg:
                raise self._bad_letter(first, end)
            if end - first == 1:  # a list of one edge: common, and cheaper without a loop
                code = seg[0]
                kid = kids[first] & kid_mask
                if skip_separator and code & 127 == SEPARATOR:
                    blob = b""
                elif not kid:
                    blob = ends_here[code]
                else:
                    below = memo.get(kid)
                    if below is None:
                        if depth >= MAX_LETTERS:
                            raise _too_long(path)
                        below = visit(kid, depth + 1)
                    blob = ends_here[code] + below.replace(b"\n", nl_letter[code])
            else:
                parts = []
                size = prev = 0
                for code, kid in zip(seg, kids[first:end]):
                    if code & 127 <= prev:
                        raise self._bad_order(first)
                    prev = code & 127
                    if skip_separator and prev == SEPARATOR:
                        continue
                    parts.append(ends_here[code])
                    kid &= kid_mask
                    if kid:
                        below = memo.get(kid)
                        if below is None:
                            if depth >= MAX_LETTERS:
                                raise _too_long(path)
                            below = visit(kid, depth + 1)
                        size += len(below)
                        if size > _MAX_BLOB:
                            raise _too_many(path)
                        parts.append(below.replace(b"\n", nl_letter[code]))
                blob = b"".join(parts)
            budget -= len(blob) + _PER_LIST
            if budget < 0:
                raise ListFormatError(path, "the word graph is too large for a word list "
                                      "(damaged)")
            memo[start] = blob
            return blob

        blob = visit(root, 1)
        self.spent = _MEMO_BUDGET - budget  # what this walk held at most, SPENT included
        memo.clear()  # before the words are made: the memo is no longer needed
        words = blob.decode("ascii").split("\n")[1:]
        del blob
        if len(words) > MAX_WORDS:
            raise _too_many(path)
        if words and min(map(len, words)) < 2:
            raise ListFormatError(path, "it holds a 1-letter word (a word has 2-15 letters)")
        if words and max(map(len, words)) > MAX_LETTERS:  # a shared list reached deep down
            raise ListFormatError(path, f"it holds a word longer than {MAX_LETTERS} letters "
                                  "(damaged)")
        return words

    def _bad_list(self, start: int, end: int) -> ListFormatError:
        if end < 0:
            return ListFormatError(self.path, f"an edge points to {start}, outside the graph's "
                                   f"{self.count:,} records (damaged)")
        return ListFormatError(self.path, "a list of edges runs past the end of the file "
                               "(truncated or damaged)")

    def _bad_order(self, first: int) -> ListFormatError:
        return ListFormatError(self.path, f"the list of edges at record {first + self.base} is "
                               "not in letter order (damaged or altered)")

    def _bad_letter(self, first: int, end: int) -> ListFormatError:
        r = first + max(0, self.codes[first:end].find(0))
        return ListFormatError(self.path, f"record {r + self.base} holds letter code "
                               f"{self.raw[r]}, not a letter A-Z")


def low_bits(records: bytes, third_byte_mask: int) -> array:
    """Each little-endian u32 of RECORDS with its top byte cleared and its third byte masked:
    the child index of every edge at once, by byte slicing (no Python loop over the edges)."""
    count = len(records) // 4
    out = bytearray(4 * count)
    out[0::4] = records[0::4][:count]
    out[1::4] = records[1::4][:count]
    out[2::4] = records[2::4][:count].translate(bytes(b & third_byte_mask for b in range(256)))
    kids = array("I")
    kids.frombytes(out)  # from the bytearray itself: no third copy of the records
    del out
    if sys.byteorder == "big":
        kids.byteswap()
    return kids


def kid_view(records: bytes | memoryview, third_byte_mask: int):
    """RECORDS (little-endian u32s) as the KIDS of a FlatGraph whose kid_mask clears what is not
    the child index: on a little-endian machine a view of the records as they are (no copy: a
    64 MB file's 16 M records would cost 64 MB more), elsewhere low_bits' array."""
    if sys.byteorder == "little":
        return memoryview(records).cast("I")
    return low_bits(bytes(records), third_byte_mask)


def flag_table(mask: int) -> bytes:
    """A bytes.translate table turning a flags byte into 1 where MASK is set, else 0."""
    return bytes(1 if b & mask else 0 for b in range(256))


def official_list(words: list[str]) -> KnownLexicon | None:
    """The official list WORDS are exactly, by their content fingerprint, or None. When a word
    graph's words are an official list, that fingerprint is a stronger check than a
    cross-check against the same file's second graph (a KWG's GADDAG, Zyzzyva's -R.dwg): it
    vouches for every word."""
    return identify(fingerprint_words(words))


def check_size(path: str, size: int, limit: int = MAX_BYTES) -> None:
    """Refuse by size before reading: a 1 GB file is never read into memory."""
    if size > limit:
        raise ListFormatError(path, f"{size / (1 << 20):,.0f} MB is too large for a word list "
                              f"(at most {limit >> 20} MB)")
