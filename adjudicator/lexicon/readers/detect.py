"""Tell which word-list format a file is in from its content (never from its name alone)."""

from __future__ import annotations

import os

from adjudicator.lexicon.readers import kwg, quackle_dawg, zyzzyva_dwg

ZYZZYVA_DWG = "zyzzyva-dwg"
QUACKLE_DAWG = "quackle-dawg"
QUACKLE_DAWG_V0 = "quackle-dawg-v0"
QUACKLE_GADDAG = "quackle-gaddag"
KWG = "kwg"
ZYZZYVA_DB = "zyzzyva-db"


def detect(path: str, data: bytes) -> str | None:
    """The format of DATA (a whole file, not SQLite), or None when it is none of them (text).

    Each test is on the bytes: Quackle v1 has a version byte and an alphabet header; a .dwg is
    exactly 4 + 4N bytes for its first u32 N with a root list of ASCII A-Z; a KWG's node 0 is
    tile 0, is_end, its arc to a list of tiles 1-26; a v0 Quackle DAWG is whole 7-byte records
    whose root record leads to letters 0-25. A Quackle GADDAG carries nothing of its own that
    tells it apart: its .gaddag name, or its hash equal to the .dawg's beside it, does.
    """
    header = quackle_dawg.parse_header(data)
    if header is not None and (len(data) - header[3]) % 7 == 0:
        return QUACKLE_DAWG
    if zyzzyva_dwg.looks_like(data[:4096], len(data)):
        return ZYZZYVA_DWG
    if kwg.looks_like(data) or (len(data) % 4 and b"\0" in data[:4096]
                                and kwg.looks_like(data[:len(data) - len(data) % 4])):
        return KWG  # whole nodes, or cut short: refused then as truncated
    if is_gaddag(path, data):
        return QUACKLE_GADDAG
    if quackle_dawg.looks_like_v0(data):
        return QUACKLE_DAWG_V0
    if header is not None:  # a v1 header over records cut short: refused as such
        return QUACKLE_DAWG
    return None


def is_gaddag(path: str, data: bytes) -> bool:
    """A Quackle .gaddag: so named, or its 16-byte hash is the one in the .dawg beside it."""
    if path.lower().endswith(".gaddag"):
        return b"\0" in data[:4096]
    dawg = quackle_dawg.gaddag_beside(path)
    if dawg is None or len(data) < 21 or data[0] != 1 or (len(data) - 17) % 4:
        return False
    try:
        with open(dawg, "rb") as f:
            header = f.read(17)
    except OSError:
        return False
    return os.path.abspath(dawg) != os.path.abspath(path) and header[1:17] == data[1:17]
