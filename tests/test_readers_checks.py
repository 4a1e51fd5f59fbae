"""What each format allows to be checked (issue 29): Quackle's alphabet A-Z in order, siblings in
letter order, a KWG's GADDAG against its word graph, .kad refused even damaged, empty and endless
inputs, a Zyzzyva database read in bounded memory and never beside itself, a cut .dwg named."""

import os
import shutil
import sqlite3
import subprocess
import sys

import pytest
from graph_files import (
    dwg_bytes,
    kwg_bytes,
    quackle_bytes,
    worst_dawg,
    worst_graph,
    write_zyzzyva_db,
)

from adjudicator.errors import LexiconError
from adjudicator.lexicon.readers import ListFormatError
from adjudicator.lexicon import scan as scan_mod
from adjudicator.lexicon.wordlist import read_source

WORDS = ["AA", "AB", "BE", "BED", "CAT", "CATS", "DO", "EH", "FA", "GO", "HI", "ID", "JO", "KA",
         "LA", "MA", "QI", "ZA"]


def write(tmp_path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_a_quackle_alphabet_with_two_letters_swapped_is_refused(tmp_path):
    """Quackle's hash codes letters by their index, so swapping A and B in the header keeps the
    count and the hash and turns every A into B: ZA would read as ZB and be UNACCEPTABLE."""
    data = bytearray(quackle_bytes(WORDS))
    assert data[21:25] == b"A B "
    data[21], data[23] = data[23], data[21]
    with pytest.raises(ListFormatError, match="not the English alphabet A-Z in order"):
        read_source(write(tmp_path, "NWL2018.dawg", bytes(data)))


def _swap_first_inner_pair(data: bytearray, first: int, size: int, root: int) -> bytes:
    """Swap the letters of the first two siblings of a list below the root list (records of
    SIZE bytes from FIRST, the root list from record ROOT); the flags stay where they were."""
    flags_at, last = (3, 0x40) if size == 7 else (2, 0x40)
    count = (len(data) - first) // size

    def is_last(r):
        return data[first + r * size + flags_at] & last

    root_end = next(r for r in range(root, count) if is_last(r))
    for r in range(root_end + 1, count - 1):
        if is_last(r):
            continue
        i, j = first + r * size + 3, first + (r + 1) * size + 3
        keep = 0xC0 if size == 7 else 0  # Quackle keeps its flags in the letter byte
        a, b = data[i] & ~keep & 0xFF, data[j] & ~keep & 0xFF
        data[i], data[j] = (data[i] & keep) | b, (data[j] & keep) | a
        return bytes(data)
    raise AssertionError("no list of two siblings below the root")


@pytest.mark.parametrize("kind", ["dwg", "quackle-v1", "kwg"])
def test_siblings_out_of_letter_order_are_refused(tmp_path, kind):
    """One letter changed in a list mostly breaks its order: refused, never read as words."""
    if kind == "dwg":
        mutant = _swap_first_inner_pair(bytearray(dwg_bytes(WORDS)), 4, 4, 0)
    elif kind == "quackle-v1":
        mutant = _swap_first_inner_pair(bytearray(quackle_bytes(WORDS)), 73, 7, 1)
    else:
        data = bytearray(kwg_bytes(WORDS, gaddawg=False))
        mutant = _swap_first_inner_pair(data, 0, 4, int.from_bytes(data[:4], "little") & 0x3FFFFF)
    with pytest.raises(ListFormatError, match="not in letter order"):
        read_source(write(tmp_path, f"club.{kind.split('-')[0]}", mutant))


def test_a_kwg_whose_gaddag_disagrees_with_its_word_graph_is_refused(tmp_path):
    good = read_source(write(tmp_path, "good.kwg", kwg_bytes(WORDS)))
    assert sorted(good.words) == WORDS and good.notes == ["its GADDAG part holds the same words"]
    bad = kwg_bytes(WORDS, gaddag_words=[w for w in WORDS if w != "QI"] + ["QIS"])
    with pytest.raises(ListFormatError, match="GADDAG part does not hold the same words"):
        read_source(write(tmp_path, "NWL20.kwg", bad))


def _as_official(monkeypatch, words: list[str]) -> None:
    """known.toml made to hold WORDS as an official list (a test cannot ship a real one)."""
    from adjudicator.lexicon.compiled import fingerprint_words
    from adjudicator.lexicon.known import KnownLexicon
    from adjudicator.lexicon.readers import graph

    entry = KnownLexicon("TESTLIST", "Test List", "2026", "tests", len(words),
                         fingerprint_words(words))
    monkeypatch.setattr(graph, "identify",
                        lambda fp: entry if fp == entry.fingerprint else None)


def test_official_words_make_the_gaddag_walk_needless(tmp_path, monkeypatch):
    """Issue 34.1: when a .kwg's word graph holds an official list exactly (by fingerprint),
    the GADDAG part (which this program never uses) is not walked: the fingerprint already
    vouches for every word. A list that is not official is still checked against it."""
    bad = kwg_bytes(WORDS, gaddag_words=[w for w in WORDS if w != "QI"] + ["QIS"])
    _as_official(monkeypatch, WORDS)
    report = read_source(write(tmp_path, "club.kwg", bad))
    assert sorted(report.words) == WORDS
    assert report.notes == [("its word graph holds TESTLIST exactly (by fingerprint): its "
                             "GADDAG part, not used here, was not walked")]
    _as_official(monkeypatch, WORDS[:-1])  # another list official: this one checked in full
    with pytest.raises(ListFormatError, match="GADDAG part does not hold the same words"):
        read_source(write(tmp_path, "club2.kwg", bad))


def test_official_words_make_the_reversed_dwg_walk_needless(tmp_path, monkeypatch):
    """The same for Zyzzyva's -R.dwg: walked only for a list that is not official."""
    from graph_files import write_dwg_set

    path = write_dwg_set(tmp_path, "club", WORDS)
    reverse = tmp_path / "club-R.dwg"
    reverse.write_bytes(dwg_bytes([w[::-1] for w in WORDS if w != "QI"]))
    os.unlink(tmp_path / "club-Checksums.txt")  # its CRC would refuse the new -R.dwg first
    _as_official(monkeypatch, WORDS)
    assert read_source(path).notes == [
        "club-R.dwg not walked: the words are TESTLIST exactly (by fingerprint)",
        "not checked: club-Checksums.txt was not beside it"]
    _as_official(monkeypatch, WORDS[1:])
    with pytest.raises(ListFormatError, match="club-R.dwg does not hold the same words"):
        read_source(path)


def test_the_readers_fingerprint_is_the_lexicons(monkeypatch):
    """graph.official_list hashes words as lexicon.fingerprint_words does (it may not differ)."""
    from adjudicator.lexicon.compiled import fingerprint_words
    from adjudicator.lexicon.readers import graph

    seen = []
    monkeypatch.setattr(graph, "identify", seen.append)
    graph.official_list(list(reversed(WORDS)))
    assert seen == [fingerprint_words(WORDS)]


ALPHAGRAMS = sorted({"".join(sorted(w)) for w in
                     ["CAT", "DOG", "BEE", "ACT", "TEA", "QI", "ZA", "RATE", "STAR", "LEMON",
                      "MELON", "BOARD", "BREAD", "TRAIN", "PLANE", "HOUSE", "MOUSE", "CHAIR",
                      "TABLE", "GRAPE", "WATER", "STONE", "NIGHT", "LIGHT", "SOUND"]})


@pytest.mark.parametrize("damaged", [False, True])
def test_an_alphagram_file_is_refused_even_damaged(tmp_path, damaged):
    words = list(ALPHAGRAMS)
    if damaged:  # letters changed here and there: no longer all in order
        words[:4] = ["TAC", "GOD", "EEBZ", "IQ"]
    data = kwg_bytes(words, gaddawg=False)
    with pytest.raises(ListFormatError, match="sorted letters, not words"):
        read_source(write(tmp_path, "club.kwg", data))
    with pytest.raises(ListFormatError, match="sorted letters, not words"):  # so named: refused
        read_source(write(tmp_path, "CSW21.kad", kwg_bytes(WORDS, gaddawg=False)))


def test_a_cut_short_dwg_is_called_truncated(tmp_path):
    data = dwg_bytes(WORDS)
    for cut in (len(data) - 4, len(data) - 3, len(data) // 2):
        with pytest.raises(ListFormatError, match="truncated"):
            read_source(write(tmp_path, "club.dwg", data[:cut]))


def test_an_empty_zyzzyva_database_is_refused(tmp_path):
    path = write_zyzzyva_db(tmp_path / "CSW24.db", [])
    with pytest.raises(ListFormatError, match="no words found in it .*words table is empty"):
        read_source(path)


def test_a_wal_database_is_read_alone_and_nothing_is_made_beside_it(tmp_path):
    """A -wal beside it is not read (the hash covers the file alone), no -shm is created."""
    live = tmp_path / "live"
    live.mkdir()
    writer = sqlite3.connect(live / "club.db")
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE words (word varchar(16))")
    writer.executemany("INSERT INTO words VALUES (?)", [(w,) for w in WORDS])
    writer.commit()
    writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    writer.execute("INSERT INTO words VALUES ('ZZZ')")  # only in the -wal
    writer.commit()
    shutil.copyfile(live / "club.db", tmp_path / "club.db")
    shutil.copyfile(live / "club.db-wal", tmp_path / "club.db-wal")
    writer.close()
    report = read_source(str(tmp_path / "club.db"))
    assert sorted(report.words) == WORDS
    assert sorted(os.listdir(tmp_path)) == ["club.db", "club.db-wal", "live"]


# The peak of this process alone: VmHWM starts again at exec (ru_maxrss would carry the test
# process's own peak over).
_PEAK = r"""
import sys
from adjudicator.errors import LexiconError
from adjudicator.lexicon.wordlist import read_source
try:
    read_source(sys.argv[1])
    print("read")
except LexiconError as e:
    print("refused:", e)
status = open("/proc/self/status").read()
print(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("VmHWM:")))
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads VmHWM (Linux)")
@pytest.mark.parametrize("computed", ["printf('%.*c', 200000000, 'A')", "zeroblob(200000000)",
                                      "replace(hex(zeroblob(100000000)), '00', 'AB')"])
def test_a_database_whose_words_are_computed_huge_is_refused_in_bounded_memory(tmp_path,
                                                                                computed):
    """Issue 29.4: a `word` column computed as 200 MB a row took 1.6 GB for 6 rows. No value
    over 1 MB is ever made now: refused at the first row, the whole process under 200 MB."""
    path = tmp_path / "CSW24.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE words (n integer)")
    conn.executemany("INSERT INTO words (n) VALUES (?)", [(i,) for i in range(6)])
    conn.commit()
    # the column added by rewriting the schema: inserting would compute it here, 200 MB a row
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = ? WHERE name = 'words'", (
        f"CREATE TABLE words (n integer, word text GENERATED ALWAYS AS ({computed}) VIRTUAL)",))
    conn.commit()
    conn.close()
    done = subprocess.run([sys.executable, "-c", _PEAK, str(path)], capture_output=True,
                          text=True, timeout=300, check=False)
    said, peak_kb = done.stdout.splitlines()
    assert said.startswith(f"refused: {path}: "), said
    assert int(peak_kb) < 200 * 1024, f"peak RSS {int(peak_kb) / 1024:.0f} MB"


_COMPILE_PEAK = _PEAK.replace("from adjudicator.lexicon.wordlist import read_source", "").replace(
    "read_source(sys.argv[1])", "from adjudicator.lexicon.compile import compile_sources\n    "
    "compile_sources([sys.argv[1]], sys.argv[1] + '.lex')")


@pytest.mark.skipif(os.environ.get("ADJUDICATOR_FULL") != "1",
                    reason="builds 58 MB in Python (about 15 s): ADJUDICATOR_FULL=1 runs it")
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads VmHWM (Linux)")
@pytest.mark.parametrize("shape, refused, limit_mb", [
    ({}, True, 300),  # 8.7 M records, every list distinct: refused by the memo's budget
    ({"chain": 10, "share": 1000}, False, 300),  # 913,952 words of 15 letters: compiled
    ({"kind": "dwg"}, True, 300),  # .dwg and .kwg: as many distinct lists as they can point to
    ({"kind": "kwg"}, True, 300),
    ({"kind": "kwg-big"}, True, 300),  # 913,952 words, then a GADDAG part of distinct lists
])
def test_the_worst_word_graph_file_is_read_in_bounded_memory(tmp_path, shape, refused,
                                                             limit_mb):
    """Issues 29.4 and 34.4: the real peak of the worst 64 MB graph files built (0.8 GB was
    measured when a comment said "about 150 MB"; then 416 MB for a .dwg, 513 MB for a .kwg):
    measured 249-281 MB refused, 256 MB for the largest list compiled whole (read,
    fingerprint, trie); see adjudicator/lexicon/readers/graph.py."""
    if "kind" in shape:
        path = write(tmp_path, f"worst.{shape['kind'][:3]}", worst_graph(shape["kind"]))
    else:
        path = write(tmp_path, "worst.dawg", worst_dawg(**shape))
    done = subprocess.run([sys.executable, "-c", _COMPILE_PEAK, path], capture_output=True,
                          text=True, timeout=600, check=False)
    said, peak_kb = done.stdout.splitlines()
    assert said.startswith("refused: ") == refused, said
    assert int(peak_kb) < limit_mb * 1024, f"peak RSS {int(peak_kb) / 1024:.0f} MB"


def test_a_long_row_in_a_database_is_refused_at_that_row(tmp_path):
    path = write_zyzzyva_db(tmp_path / "club.db", ["QI", "ZA"])
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO words (word) VALUES (?)", ("Q" * 5000,))
    conn.commit()
    conn.close()
    with pytest.raises(LexiconError, match="not a word of 2-15 letters"):
        read_source(path)


def test_scan_looks_in_quackles_per_user_lexica(monkeypatch, tmp_path, run):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("APPDATA", r"C:\Users\td\AppData\Roaming")
    places = scan_mod.default_places()
    lexica = tmp_path / ".local" / "share" / "Quackle.org" / "Quackle" / "lexica"
    assert str(lexica) in places
    assert os.path.join(str(tmp_path), "Library", "Application Support", "Quackle.org",
                        "Quackle", "lexica") in places  # macOS
    assert os.path.join(r"C:\Users\td\AppData\Roaming", "Quackle.org", "Quackle",
                        "lexica") in places  # Windows
    lexica.mkdir(parents=True)
    (lexica / "club.dawg").write_bytes(quackle_bytes(WORDS))
    monkeypatch.setattr(scan_mod, "default_places",
                        lambda: [p for p in places if p.startswith(str(tmp_path))])
    result = run("lexicon", "scan")
    assert f"{lexica / 'club.dawg'}\n  Quackle DAWG (.dawg, version 1), 18 words" in result.stdout
