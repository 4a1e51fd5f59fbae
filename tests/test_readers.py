"""Word lists in other programs' formats (issue 22): Zyzzyva .dwg and database, Quackle .dawg, KWG.

Tiny lists written by tests/graph_files.py from the format descriptions; the real files are
checked in tests/test_readers_real.py.
"""

import os
import sqlite3

import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.errors import EXIT_LEXICON, LexiconError
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon, fingerprint_words
from adjudicator.lexicon.readers import ListFormatError
from adjudicator.lexicon.readers.zyzzyva_dwg import checksum
from adjudicator.lexicon.library import load_lexicon
from adjudicator.lexicon.wordlist import read_source
from graph_files import (dwg_bytes, kwg_bytes, quackle_bytes, write_dwg_set, write_zyzzyva_db)

WORDS = ["AA", "AAH", "AAHED", "AAHING", "AB", "ABA", "BE", "BED", "CAT", "CATS", "QI", "ZA",
         "ZZZ", "OXYPHENBUTAZONE"]
FORMATS = {
    "dwg": lambda w: dwg_bytes(w),
    "quackle-v1": lambda w: quackle_bytes(w),
    "quackle-v0": lambda w: quackle_bytes(w, version=0),
    "kwg": lambda w: kwg_bytes(w),
    "kwg-dawg-only": lambda w: kwg_bytes(w, gaddawg=False),
}


@pytest.fixture
def run():
    runner = CliRunner()
    return lambda *args: runner.invoke(main, list(args), catch_exceptions=False)


def shelf_files() -> list[str]:
    folder = os.environ["ADJUDICATOR_SHELF"]
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


@pytest.mark.parametrize("kind", FORMATS)
def test_each_format_reads_to_the_same_words_and_fingerprint_as_text(tmp_path, kind):
    text = tmp_path / "list.txt"
    text.write_text("\n".join(WORDS) + "\n")
    graph = tmp_path / "list.bin"  # a name that says nothing: the content tells
    graph.write_bytes(FORMATS[kind](WORDS))
    report = read_source(str(graph))
    assert report.words == set(WORDS) and report.format != "text"
    a = compile_sources([str(text)], str(tmp_path / "a.lex"))
    b = compile_sources([str(graph)], str(tmp_path / "b.lex"))
    assert a.fingerprint == b.fingerprint == fingerprint_words(WORDS)


@pytest.mark.parametrize("kind,name", [("kwg", "NWL.dawg"), ("quackle-v1", "NWL.kwg"),
                                       ("dwg", "NWL.kwg"), ("quackle-v0", "NWL.dwg")])
def test_a_misnamed_file_is_read_as_what_it_is(tmp_path, kind, name):
    path = tmp_path / name
    path.write_bytes(FORMATS[kind](WORDS))
    assert read_source(str(path)).words == set(WORDS)


def test_a_text_list_still_reads_as_text(tmp_path):
    path = tmp_path / "list.dwg"
    path.write_text("QI\nZA\n")
    report = read_source(str(path))
    assert report.format == "text" and report.words == {"QI", "ZA"}


def test_unknown_binary_is_still_refused_as_binary(tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(b"\0\1\2\3" * 100)
    with pytest.raises(LexiconError, match="binary data, not a word list"):
        read_source(str(path))


# -- Zyzzyva .dwg with -R.dwg and -Checksums.txt (WordGraph.cpp, MainWindow::importLexicon) --

def test_dwg_companions_are_checked_and_said(tmp_path, run):
    path = write_dwg_set(tmp_path, "CLUB", WORDS)
    assert read_source(path).notes == ["checksums match CLUB-Checksums.txt",
                                       "CLUB-R.dwg holds the same words reversed"]
    result = run("lexicon", "add", path)
    assert result.exit_code == 0, result.stderr
    assert "CLUB.dwg: Zyzzyva word graph (.dwg), 14 words" in result.stdout
    assert "checksums match CLUB-Checksums.txt" in result.stdout


def test_dwg_companion_that_is_a_fifo_is_refused_not_waited_on(tmp_path):
    path = tmp_path / "CLUB.dwg"
    path.write_bytes(dwg_bytes(WORDS))
    os.mkfifo(tmp_path / "CLUB-R.dwg")
    with pytest.raises(ListFormatError, match="CLUB-R.dwg beside it is not a regular file"):
        read_source(str(path))


def test_info_names_the_format_a_lexicon_was_read_from(tmp_path, run):
    path = tmp_path / "club.kwg"
    path.write_bytes(kwg_bytes(WORDS))
    out = tmp_path / "club.lex"
    assert run("compile", str(path), "-o", str(out)).exit_code == 0
    result = run("info", str(out))
    assert "Source:" in result.stdout
    assert "club.kwg (sha256 " in result.stdout and "KWG word graph" in result.stdout


def test_dwg_without_companions_says_they_were_not_there(tmp_path, run):
    path = tmp_path / "CLUB.dwg"
    path.write_bytes(dwg_bytes(WORDS))
    result = run("lexicon", "add", str(path))
    assert result.exit_code == 0
    assert ("not checked: CLUB-Checksums.txt and CLUB-R.dwg were not beside it"
            in result.stdout)


def test_checksum_is_crc16_x25_over_the_first_n_bytes():
    data = (3).to_bytes(4, "little") + b"123456789" + b"\0" * 3  # N = 3 edges: 3 bytes covered
    assert checksum(data) == _x25(b"123")
    data = (9).to_bytes(4, "little") + b"123456789" + b"\0" * 27
    assert checksum(data) == 0x906E  # the CRC-16/X-25 check value of "123456789"


def _x25(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc ^ 0xFFFF


@pytest.mark.parametrize("damage,message", [
    ("forward-checksum", "its checksum does not match the first value in CLUB-Checksums.txt"),
    ("reverse-checksum", "the checksum of CLUB-R.dwg does not match the second value"),
    ("reverse-words", "the reversed graph CLUB-R.dwg does not hold the same words"),
    ("checksums-file", "CLUB-Checksums.txt beside it is not two checksum lines"),
])
def test_dwg_companion_mismatch_is_refused_naming_the_check(tmp_path, run, damage, message):
    path = write_dwg_set(tmp_path, "CLUB", WORDS)
    sums = tmp_path / "CLUB-Checksums.txt"
    fwd, rev = (int(v) for v in sums.read_text().split())
    if damage == "forward-checksum":
        sums.write_text(f"{(fwd + 1) % 65536}\n{rev}\n")
    elif damage == "reverse-checksum":
        sums.write_text(f"{fwd}\n{(rev + 1) % 65536}\n")
    elif damage == "reverse-words":
        other = dwg_bytes([w[::-1] for w in WORDS if w != "ZZZ"])
        (tmp_path / "CLUB-R.dwg").write_bytes(other)
        sums.write_text(f"{fwd}\n{checksum(other)}\n")
    else:
        sums.write_text("hello\n")
    result = run("lexicon", "add", path)
    assert result.exit_code == EXIT_LEXICON
    assert message in result.stderr and result.stderr.count("\n") == 1
    assert shelf_files() == []


def test_a_reversed_graph_alone_is_refused(tmp_path):
    words = [w + "ING" for w in ("SING", "BRING", "THING", "WING", "KING")] + [
        f"{a}{b}ING" for a in "BCDFG" for b in "AEIOU"]
    path = tmp_path / "LEX.dwg"
    path.write_bytes(dwg_bytes([w[::-1] for w in words]))
    with pytest.raises(ListFormatError, match="spelled backwards"):
        read_source(str(path))
    path.write_bytes(dwg_bytes(words))
    assert read_source(str(path)).words == set(words)


# -- Zyzzyva's database --

def test_zyzzyva_database_is_read_and_never_written(tmp_path):
    path = write_zyzzyva_db(tmp_path / "CLUB.db", WORDS)
    os.chmod(path, 0o444)
    os.chmod(tmp_path, 0o555)  # no journal can be created either
    try:
        before = open(path, "rb").read()
        report = read_source(path)
        assert report.words == set(WORDS) and "SQLite" in report.format
        assert open(path, "rb").read() == before
        assert sorted(os.listdir(tmp_path)) == ["CLUB.db"]
    finally:
        os.chmod(tmp_path, 0o755)


def test_database_without_a_words_table_or_with_a_bad_row_is_refused(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE things (word text)")
    conn.commit()
    conn.close()
    with pytest.raises(ListFormatError, match="without Zyzzyva's words table"):
        read_source(str(path))
    bad = write_zyzzyva_db(tmp_path / "bad.db", ["QI", "CAT5"])
    with pytest.raises(ListFormatError, match="its words table holds 'CAT5', not a word"):
        read_source(bad)


def test_damaged_database_is_refused(tmp_path):
    path = write_zyzzyva_db(tmp_path / "CLUB.db", WORDS)
    data = bytearray(open(path, "rb").read())
    data[100:len(data)] = b"\xff" * (len(data) - 100)
    open(path, "wb").write(bytes(data))
    with pytest.raises(ListFormatError, match="CLUB.db"):
        read_source(path)


# -- Quackle .dawg v1 header, .gaddag, KWG alphagrams --

def test_quackle_header_count_that_lies_is_refused(tmp_path):
    path = tmp_path / "x.dawg"
    path.write_bytes(quackle_bytes(WORDS, count=len(WORDS) + 1))
    with pytest.raises(ListFormatError, match="its header says 15 words but the graph holds 14"):
        read_source(str(path))


def test_quackle_hash_that_does_not_match_is_refused(tmp_path):
    data = bytearray(quackle_bytes(WORDS))
    data[5] ^= 1
    path = tmp_path / "x.dawg"
    path.write_bytes(bytes(data))
    with pytest.raises(ListFormatError, match="do not match the hash in its header"):
        read_source(str(path))


def test_quackle_alphabet_outside_a_z_is_refused(tmp_path):
    data = quackle_bytes(WORDS).replace(b"Z ", "Ñ".encode() + b" ", 1)
    path = tmp_path / "x.dawg"
    path.write_bytes(data)
    with pytest.raises(ListFormatError, match="alphabet holds 'Ñ', outside A-Z"):
        read_source(str(path))


def test_gaddag_is_refused_pointing_to_the_dawg(tmp_path, run):
    dawg = tmp_path / "nwl.dawg"
    dawg.write_bytes(quackle_bytes(WORDS))
    gaddag = tmp_path / "nwl.gaddag"
    gaddag.write_bytes(b"\x01" + dawg.read_bytes()[1:17] + b"\0\0\0\x40" * 20)
    result = run("lexicon", "add", str(gaddag))
    assert result.exit_code == EXIT_LEXICON
    assert f"add {dawg} beside it instead" in result.stderr
    renamed = tmp_path / "nwl.bin"  # its hash still says what it is
    gaddag.rename(renamed)
    with pytest.raises(ListFormatError, match="Quackle GADDAG"):
        read_source(str(renamed))
    assert shelf_files() == []


def test_alphagram_kwg_is_refused(tmp_path, run):
    alphagrams = sorted({"".join(sorted(w)) for w in
                         [a + b + c for a in "BCDFG" for b in "AEIOU" for c in "RST"]})
    path = tmp_path / "NWL18.kad"
    path.write_bytes(kwg_bytes(alphagrams, gaddawg=False))
    result = run("lexicon", "add", str(path))
    assert result.exit_code == EXIT_LEXICON
    assert "holds sorted letters, not words" in result.stderr
    assert shelf_files() == []


# -- Hostile files: exit 3, one line naming file and problem, nothing on the shelf --

def _edge_file(tmp_path, edges: list[int]) -> str:
    path = tmp_path / "hostile.dwg"
    path.write_bytes(len(edges).to_bytes(4, "little")
                     + b"".join(e.to_bytes(4, "little") for e in edges))
    return str(path)


A, B, END, LAST = 65 << 24, 66 << 24, 1 << 23, 1 << 22


def hostile(tmp_path, case: str) -> str:
    if case == "truncated":
        path = tmp_path / "t.kwg"
        path.write_bytes(kwg_bytes(WORDS)[:-8])
        return str(path)
    if case == "truncated-dawg":
        path = tmp_path / "t.dawg"
        path.write_bytes(quackle_bytes(WORDS)[:-3])
        return str(path)
    if case == "child-out-of-range":
        return _edge_file(tmp_path, [A, B | LAST | 9999])
    if case == "cycle":  # A -> list at 3 (B, whose child is 3 again): ABBBB... forever
        return _edge_file(tmp_path, [A | 3, B | LAST, B | LAST | END | 3])
    if case == "letter":
        return _edge_file(tmp_path, [A | LAST | 2, (0x61 << 24) | LAST | END])
    if case == "runs-past-end":
        return _edge_file(tmp_path, [A | LAST | 2, B | END])
    if case == "explosion":  # 26 letters at each of 15 levels, all shared: 26^15 words
        edges = []
        for level in range(15):
            child = (level + 1) * 26 + 1 if level < 14 else 0
            edges += [((65 + i) << 24) | (i == 25) * LAST | END | child for i in range(26)]
        return _edge_file(tmp_path, edges)
    if case == "one-letter":
        return _edge_file(tmp_path, [A | LAST | END | 2, B | LAST | END])
    if case == "huge":
        path = tmp_path / "huge.dwg"
        with open(path, "wb") as f:
            f.truncate(1 << 30)  # sparse: 1 GB that costs nothing
        return str(path)
    raise AssertionError(case)


HOSTILE = {
    "truncated": "runs past the end|outside the graph",
    "truncated-dawg": "records are cut short",
    "child-out-of-range": "an edge points to 9999, outside the graph's 2 records",
    "cycle": "longer than 15 letters, or loops",
    "letter": "holds letter code 97, not a letter A-Z",
    "runs-past-end": "runs past the end of the file",
    "explosion": "more than 1,000,000 words",
    "one-letter": "1-letter word",
    "huge": "1,024 MB is too large for a word list",
}


@pytest.mark.parametrize("case", HOSTILE)
def test_hostile_file_is_refused_in_one_line_and_nothing_is_shelved(tmp_path, run, case):
    path = hostile(tmp_path, case)
    result = run("lexicon", "add", path)
    assert result.exit_code == EXIT_LEXICON
    line = result.stderr
    assert line.startswith(f"adjudicator: {path}: ") and line.count("\n") == 1, line
    import re

    assert re.search(HOSTILE[case], line), line
    assert "Traceback" not in result.output
    assert shelf_files() == []
    result = run("compile", path, "-o", str(tmp_path / "out.lex"))
    assert result.exit_code == EXIT_LEXICON and not (tmp_path / "out.lex").exists()


def test_config_lexicon_naming_a_graph_file_loads_it(tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "club.kwg"
    path.write_bytes(kwg_bytes(WORDS))
    lex = load_lexicon(str(path))
    assert "CATS" in lex and "CATT" not in lex and len(lex) == len(WORDS)
    assert Lexicon.load(lex.path).fingerprint == fingerprint_words(WORDS)
    monkeypatch.setenv("ADJUDICATOR_LEXICONS", str(tmp_path))
    assert len(load_lexicon("club")) == len(WORDS)  # by name, like NAME.txt


# -- Fuzz: any mutant of any format reads to words of 2-15 letters A-Z or is refused --

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(sorted(FORMATS)), edits=st.lists(
    st.tuples(st.integers(0, 10_000), st.integers(0, 255), st.sampled_from("set cut insert")),
    min_size=1, max_size=4))
def test_fuzzed_tiny_files_read_or_are_refused(tmp_path, kind, edits):
    data = bytearray(FORMATS[kind](WORDS))
    for where, value, how in edits:
        i = where % (len(data) or 1)
        if how == "set" and data:
            data[i] = value
        elif how == "cut":
            del data[i:]
        else:
            data[i:i] = bytes([value])
    path = tmp_path / "fuzz.bin"
    path.write_bytes(bytes(data))
    try:
        report = read_source(str(path))
    except LexiconError as e:
        assert str(e).startswith(str(path)) and "\n" not in str(e)
        return
    assert all(2 <= len(w) <= 15 and w.isascii() and w.isalpha() and w.isupper()
               for w in report.words)


def test_fuzzed_databases_read_or_are_refused(tmp_path):
    import random

    original = open(write_zyzzyva_db(tmp_path / "base.db", WORDS), "rb").read()
    rng = random.Random(22)
    for n in range(int(os.environ.get("ADJUDICATOR_FUZZ_CASES", "40"))):
        data = bytearray(original)
        for _ in range(rng.randrange(1, 6)):
            i = rng.randrange(16, len(data))  # past the magic: still taken for a database
            data[i] = rng.randrange(256)
        path = tmp_path / f"fuzz{n}.db"
        path.write_bytes(bytes(data))
        try:
            words = read_source(str(path)).words
        except LexiconError as e:
            assert str(e).startswith(str(path)) and "\n" not in str(e)
            continue
        assert all(2 <= len(w) <= 15 and w.isascii() and w.isalpha() for w in words)


def test_empty_lists_count_against_the_memory_bound(tmp_path, monkeypatch):
    """Lists holding no word still cost memory to remember: each counts, so a file of millions
    of them is refused. Here 26 x 26 empty lists against a bound of 500 lists."""
    from adjudicator.lexicon.readers import graph

    edges = [((65 + i) << 24) | (i == 25) * LAST | (27 + 26 * i) for i in range(26)]
    for i in range(26):  # list i: 26 letters, each to its own one-edge empty list
        edges += [((65 + j) << 24) | (j == 25) * LAST | (27 + 26 * 26 + 26 * i + j)
                  for j in range(26)]
    edges += [(66 << 24) | LAST] * (26 * 26)  # 'B', no word, no child
    path = _edge_file(tmp_path, edges)
    with pytest.raises(ListFormatError, match="no words found"):  # read in full: 703 lists
        read_source(path)
    monkeypatch.setattr(graph, "_MEMO_BUDGET", 500 * graph._PER_LIST)
    with pytest.raises(ListFormatError, match="too large for a word list"):
        read_source(path)


@pytest.mark.parametrize("word", ["ﬁne", "ſtop", "straße"])
def test_database_row_that_upper_cases_into_a_z_is_refused(tmp_path, word):
    """Issue 40: as a text list, a row "ﬁne" is never FINE: a letter outside A-Z refuses it."""
    bad = write_zyzzyva_db(tmp_path / "bad.db", ["QI", word])
    with pytest.raises(ListFormatError, match="not a word of 2-15 letters A-Z"):
        read_source(bad)
