"""Tiny word lists in Zyzzyva, Quackle and KWG layouts, from the format descriptions, for tests."""

from __future__ import annotations

import sqlite3

from adjudicator.lexicon.readers.quackle_dawg import word_hash
from adjudicator.lexicon.readers.zyzzyva_dwg import checksum

ALPHABET = [chr(65 + i) for i in range(26)]


def sibling_lists(words) -> list[list[tuple[str, bool, int | None]]]:
    """The words as a trie: list 0 is the root; each entry is (letter, a word ends, child list)."""
    trie: dict = {}
    for word in sorted(set(words)):
        node = trie
        for letter in word:
            node = node.setdefault(letter, [False, {}])[1]
    ends = set(words)
    lists: list = []

    def build(node: dict, prefix: str) -> int | None:
        if not node:
            return None
        index = len(lists)
        lists.append(None)
        lists[index] = [(letter, prefix + letter in ends, build(child[1], prefix + letter))
                        for letter, child in sorted(node.items())]
        return index

    build(trie, "")
    return lists


def _starts(lists, first: int) -> list[int]:
    starts, at = [], first
    for entries in lists:
        starts.append(at)
        at += len(entries)
    return starts


def dwg_bytes(words) -> bytes:
    """A Zyzzyva .dwg: u32 N, then N little-endian edges; root list at edge 1."""
    lists = sibling_lists(words)
    starts = _starts(lists, 1)
    edges = []
    for entries in lists:
        for k, (letter, end, child) in enumerate(entries):
            edges.append(ord(letter) << 24 | end << 23 | (k == len(entries) - 1) << 22
                         | (starts[child] if child is not None else 0))
    return len(edges).to_bytes(4, "little") + b"".join(e.to_bytes(4, "little") for e in edges)


def write_dwg_set(folder, stem: str, words) -> str:
    """LEX.dwg with LEX-R.dwg and LEX-Checksums.txt beside it, as Zyzzyva ships them."""
    fwd = dwg_bytes(words)
    rev = dwg_bytes([w[::-1] for w in words])
    (folder / f"{stem}.dwg").write_bytes(fwd)
    (folder / f"{stem}-R.dwg").write_bytes(rev)
    (folder / f"{stem}-Checksums.txt").write_text(f"{checksum(fwd)}\n{checksum(rev)}\n")
    return str(folder / f"{stem}.dwg")


def quackle_bytes(words, version: int = 1, count: int | None = None) -> bytes:
    """A Quackle DAWG: v1 header (hash, count, alphabet) then 7-byte records; v0 records only."""
    lists = sibling_lists(words)
    starts = _starts(lists, 1)
    records = [starts[0].to_bytes(3, "big") + b"\xfc\0\0\0"]
    for entries in lists:
        for k, (letter, end, child) in enumerate(entries):
            flags = (ord(letter) - 65) | (k == len(entries) - 1) << 6
            if version == 0:
                flags |= end << 5
            ptr = starts[child] if child is not None else 0
            records.append(ptr.to_bytes(3, "big") + bytes([flags])
                           + (int(end) if version else 0).to_bytes(3, "big"))
    body = b"".join(records)
    if version == 0:
        return body
    n = len(set(words)) if count is None else count
    header = (b"\x01" + word_hash(sorted(set(words)), ALPHABET) + n.to_bytes(3, "big")
              + bytes([26]) + "".join(f"{a} " for a in ALPHABET).encode())
    return header + body


def gaddag_strings(words) -> list[str]:
    """A GADDAG's paths: reverse(prefix), then '@' (tile 0, the direction switch) and the rest:
    CARE -> ERAC, RAC@E, AC@RE, C@ARE (wolges details.txt)."""
    out = []
    for word in set(words):
        for i in range(1, len(word) + 1):
            out.append(word[:i][::-1] + ("" if i == len(word) else "@" + word[i:]))
    return out


def kwg_bytes(words, gaddawg: bool = True, gaddag_words=None) -> bytes:
    """A KWG (Node22): node 0 -> DAWG root; a Gaddawg's node 1 -> its GADDAG root (of
    GADDAG_WORDS when given: a damaged file whose two halves disagree)."""
    lists = sibling_lists(words)
    gwords = words if gaddag_words is None else gaddag_words
    glists = sibling_lists(gaddag_strings(gwords)) if gaddawg and gwords else []
    first = 2 if gaddawg else 1
    starts = _starts(lists, first)
    gstarts = _starts(glists, first + sum(map(len, lists)))
    nodes = [1 << 22 | starts[0]] + ([1 << 22 | (gstarts[0] if glists else 0)] if gaddawg
                                     else [])
    for group, at in ((lists, starts), (glists, gstarts)):
        for entries in group:
            for k, (letter, end, child) in enumerate(entries):
                tile = 0 if letter == "@" else ord(letter) - 64
                nodes.append(tile << 24 | end << 23 | (k == len(entries) - 1) << 22
                             | (at[child] if child is not None else 0))
    return b"".join(n.to_bytes(4, "little") for n in nodes)


ZYZZYVA_COLUMNS = (
    "word varchar(16), length integer, playability integer, playability_order integer, "
    "min_playability_order integer, max_playability_order integer, combinations0 integer, "
    "probability_order0 integer, min_probability_order0 integer, "
    "max_probability_order0 integer, combinations1 integer, probability_order1 integer, "
    "min_probability_order1 integer, max_probability_order1 integer, combinations2 integer, "
    "probability_order2 integer, min_probability_order2 integer, "
    "max_probability_order2 integer, alphagram varchar(16), num_anagrams integer, "
    "num_unique_letters integer, num_vowels integer, point_value integer, "
    "front_hooks varchar(32), back_hooks varchar(32), is_front_hook integer, "
    "is_back_hook integer, lexicon_symbols varchar(16), definition varchar(256)")


def write_zyzzyva_db(path, words) -> str:
    """A database laid out as Zyzzyva's CreateDatabaseThread builds it (words table and more)."""
    conn = sqlite3.connect(path)
    conn.execute(f"CREATE TABLE words ({ZYZZYVA_COLUMNS}, UNIQUE(word))")
    conn.execute("CREATE TABLE db_version (version integer)")
    conn.execute("CREATE TABLE lexicon_date (date date)")
    conn.execute("CREATE TABLE lexicon_file (file varchar(256))")
    conn.execute("INSERT INTO db_version VALUES (15)")
    conn.executemany("INSERT INTO words (word, length, alphagram, definition) VALUES (?, ?, ?, ?)",
                     [(w, len(w), "".join(sorted(w)), f"a word, {w.lower()}") for w in words])
    conn.commit()
    conn.close()
    return str(path)


def worst_dawg(depth: int = 4, fan: int = 2, chain: int = 8, share: int = 0) -> bytes:
    """The word graph that makes a reader hold the most in 64 MB: a Quackle v0 .dawg (its 24-bit
    pointers reach every record, where a .dwg's 21 bits and a KWG's 22 do not), a full 26-ary
    tree DEPTH deep, each leaf edge a list of FAN edges, each starting a chain of CHAIN
    one-edge lists ending a word; every list distinct (or the chains shared by SHARE leaves'
    edges at a time). The defaults: 58 MB, 8.7 M records, 913,952 words of 13 letters."""
    import random

    rng = random.Random(1)
    out = bytearray()
    starts = [1]
    for level in range(1, depth + 1):
        starts.append(starts[-1] + 26 ** level)
    leaves = 26 ** depth
    fan_start = starts[depth]
    chains = fan * leaves if not share else share
    chain_start = fan_start + fan * leaves

    def rec(kid: int, letter: int, flags: int) -> None:
        out.extend(kid.to_bytes(3, "big") + bytes([letter | flags]) + bytes(3))

    rec(1, 0, 0)  # record 0: the root's pointer to the first list
    for level in range(1, depth + 1):
        for k in range(26 ** level):
            kid = starts[level] + 26 * k if level < depth else fan_start + fan * k
            rec(kid, k % 26, 0x40 if k % 26 == 25 else 0)
    for k in range(leaves):
        for f in range(fan):
            rec(chain_start + chain * ((fan * k + f) % chains), f, 0x40 if f == fan - 1 else 0)
    for c in range(chains):
        base = chain_start + chain * c
        for i in range(chain):
            rec(base + i + 1 if i < chain - 1 else 0, rng.randrange(26),
                0x40 | (0x20 if i == chain - 1 else 0))
    return bytes(out)


def _tree_records(depth: int, fan: int, chain: int, first: int, share: int = 0) -> list:
    """(letter 0-25, word ends, last of its list, child) records: a full 26-ary tree DEPTH deep
    from record FIRST, FAN edges under each leaf, each starting a chain of CHAIN one-edge lists
    ending a word; every list distinct, or the chains shared by SHARE of them at a time."""
    import random

    rng = random.Random(1)
    recs = []
    starts = [first]
    for level in range(1, depth + 1):
        starts.append(starts[-1] + 26 ** level)
    leaves = 26 ** depth
    fan_start = starts[depth]
    chains = share or fan * leaves
    chain_start = fan_start + fan * leaves
    for level in range(1, depth + 1):
        for k in range(26 ** level):
            kid = starts[level] + 26 * k if level < depth else fan_start + fan * k
            recs.append((k % 26, False, k % 26 == 25, kid))
    for k in range(leaves):
        for f in range(fan):
            recs.append((f, False, f == fan - 1, chain_start + chain * ((fan * k + f) % chains)))
    for c in range(chains):
        base = chain_start + chain * c
        for i in range(chain):
            recs.append((rng.randrange(26), i == chain - 1, True,
                         base + i + 1 if i < chain - 1 else 0))
    return recs


def worst_graph(kind: str, size: int = 64 << 20) -> bytes:
    """The 64 MB .dwg and .kwg files that make a reader hold the most before refusing them
    (issue 34.4), padded with zero records to SIZE: "dwg" and "kwg", a tree of distinct lists
    as far as their child indices reach (21 and 22 bits); "kwg-big", a word graph of 913,952
    words of 15 letters whose GADDAG part is such a tree."""
    def u32s(recs, tile) -> bytes:
        return b"".join((tile(letter) << 24 | end << 23 | last << 22 | kid).to_bytes(4, "little")
                        for letter, end, last, kid in recs)

    if kind == "dwg":
        out = u32s(_tree_records(4, 1, 2, 1), lambda t: 65 + t)
        count = (size - 4) // 4
        return count.to_bytes(4, "little") + out + bytes(4 * count - len(out))
    if kind == "kwg":
        word_graph, gaddag = _tree_records(4, 2, 2, 2), []
    else:
        word_graph = _tree_records(4, 2, 10, 2, share=1000)
        gaddag = _tree_records(4, 1, 3, 2 + len(word_graph))
    out = ((1 << 22 | 2).to_bytes(4, "little")
           + (1 << 22 | (2 + len(word_graph) if gaddag else 2)).to_bytes(4, "little")
           + u32s(word_graph + gaddag, lambda t: 1 + t))
    return out + bytes(size - len(out))
