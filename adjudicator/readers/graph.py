"""Walk a word graph (DAWG) of sibling lists into words, bounded and checked: the shared core."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import LexiconError

MAX_LETTERS = 15  # a word has 2-15 letters: no path in a word graph is longer (a loop is)
MAX_WORDS = 2_000_000  # about 7x CSW: more is not a word list, whatever the graph says
MAX_BYTES = 64 << 20  # a word graph or a text list larger than this is not a word list
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# A sibling list: the (letter as an ASCII code, word ends here, first child's index or 0) of
# each edge in it.
Siblings = list[tuple[int, int, int]]


class ListFormatError(LexiconError):
    """A word list in another program's format that cannot be read: names file and problem (exit 3)."""

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path}: {problem}; refused")
        self.path, self.problem = path, problem


def walk(path: str, root: int, siblings: Callable[[int], Siblings]) -> list[str]:
    """Every word of the graph whose first sibling list starts at ROOT, in sorted order.

    SIBLINGS(start) reads and checks one sibling list (raising ListFormatError on a bad index,
    a letter outside A-Z or letters out of order). Each distinct list is read once and the words
    below it are built once, bottom up, as one LF-separated byte string (putting a letter in
    front of all of them is one bytes.replace), so time and memory are bounded by the file's
    size and MAX_BYTES however the graph shares its nodes. The walk is at most 15 lists deep: a
    loop, or a path over 15 letters, is refused.
    """
    memo: dict[int, bytes] = {}
    on_path: set[int] = set()
    budget = [_MEMO_BUDGET]

    def visit(node: int, depth: int) -> bytes:
        entries = siblings(node)
        on_path.add(node)
        parts = []
        size = 0
        for letter, accepts, child in entries:
            nl_letter = _NL_LETTER[letter]
            if accepts:
                parts.append(nl_letter)
                size += 2
            if child:
                below = memo.get(child)
                if below is None:
                    if child in on_path:
                        raise ListFormatError(path, "the word graph loops back on itself "
                                              "(damaged)")
                    if depth >= MAX_LETTERS:
                        raise ListFormatError(path, "a path in the word graph is longer than "
                                              f"{MAX_LETTERS} letters (damaged)")
                    below = visit(child, depth + 1)
                size += len(below)
                if size > _MAX_BLOB:
                    raise _too_many(path)
                parts.append(below.replace(b"\n", nl_letter))
        on_path.discard(node)
        blob = b"".join(parts)
        budget[0] -= len(blob)
        if budget[0] < 0:
            raise _too_many(path)
        memo[node] = blob
        return blob

    root_entries = siblings(root)
    if any(accepts for _, accepts, _ in root_entries):
        raise ListFormatError(path, "it holds a 1-letter word (a word has 2-15 letters)")
    words = visit(root, 1).decode("ascii").split("\n")[1:]
    if len(words) > MAX_WORDS:
        raise _too_many(path)
    return words


def _too_many(path: str) -> ListFormatError:
    return ListFormatError(path, f"it holds more than {MAX_WORDS:,} words, more than any "
                           "word list (damaged)")


_NL_LETTER = {c: b"\n" + bytes([c]) for c in range(65, 91)}
# Each distinct sibling list keeps the words below it as bytes: one list may hold at most
# MAX_WORDS words of 15 letters, all of them together 8 times that (CSW's are about 15 MB).
_MAX_BLOB = MAX_WORDS * 16
_MEMO_BUDGET = 8 * _MAX_BLOB


class FlatGraph:
    """A graph stored as one record per edge, decoded in bulk (bytes slices, translate, find).

    Record r is edge index r + BASE. LETTERS holds each record's letter as an ASCII code (anything
    outside A-Z is refused when reached), LAST and ACCEPTS a non-zero byte where the sibling list
    ends and where a word ends, KIDS the index of the first child edge (0 = none).
    """

    def __init__(self, path: str, letters: bytes, last: bytes, accepts: bytes, kids, base: int,
                 raw_letters: bytes | None = None):
        self.path, self.letters, self.last, self.accepts = path, letters, last, accepts
        self.kids, self.base, self.raw = kids, base, raw_letters or letters
        self.count = len(letters)

    def siblings(self, start: int) -> Siblings:
        r = start - self.base
        if not 0 <= r < self.count:
            raise ListFormatError(self.path, f"an edge points to {start}, outside the graph's "
                                  f"{self.count:,} records (damaged)")
        end = self.last.find(1, r) + 1
        if not end:
            raise ListFormatError(self.path, "a list of edges runs past the end of the file "
                                  "(truncated or damaged)")
        seg = self.letters[r:end]
        if not (seg.isalpha() and seg.isupper() and bytes(sorted(set(seg))) == seg):
            for i in range(r, end):
                if not 65 <= self.letters[i] <= 90:
                    raise ListFormatError(self.path, f"record {i + self.base} holds letter code "
                                          f"{self.raw[i]}, not a letter A-Z")
            raise ListFormatError(self.path, f"record {start}: letters out of order (damaged)")
        return list(zip(seg, self.accepts[r:end], self.kids[r:end]))

    def words(self, root: int) -> list[str]:
        return walk(self.path, root, self.siblings)


def flag_table(mask: int) -> bytes:
    """A bytes.translate table turning a flags byte into 1 where MASK is set, else 0."""
    return bytes(1 if b & mask else 0 for b in range(256))


def check_size(path: str, size: int, limit: int = MAX_BYTES) -> None:
    """Refuse by size before reading: a 1 GB file is never read into memory."""
    if size > limit:
        raise ListFormatError(path, f"{size / (1 << 20):,.0f} MB is too large for a word list "
                              f"(at most {limit >> 20} MB)")
