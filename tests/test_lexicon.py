"""Compiled lexicons: fingerprint by content, checked on every load, damaged files refused."""

import hashlib
import os

import pytest

from adjudicator.errors import FileAccessError, LexiconError
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon, fingerprint_words, is_compiled


def compile_text(tmp_path, text: bytes, name="tiny", **kw):
    src = tmp_path / f"{name}.txt"
    src.write_bytes(text)
    out = tmp_path / f"{name}.lex"
    report = compile_sources([str(src)], str(out), name=kw.get("title"))
    return str(out), report


def test_compile_load_and_look_up(tmp_path):
    path, report = compile_text(tmp_path, b"qi\nza\ncat\n")
    lex = Lexicon.load(path)
    assert report.word_count == len(lex) == 3
    assert "QI" in lex and "CAT" in lex
    assert "QZ" not in lex and "CA" not in lex and "CATS" not in lex
    assert sorted(lex) == ["CAT", "QI", "ZA"]
    assert lex.name == "TINY"  # the file's name, uppercased, when no official list matches


def test_fingerprint_is_the_sha256_of_sorted_words():
    expected = hashlib.sha256(b"CAT\nQI\nZA\n").hexdigest()
    assert fingerprint_words({"ZA", "QI", "CAT"}) == expected


def test_same_words_in_any_shape_give_the_same_fingerprint(tmp_path):
    a, _ = compile_text(tmp_path, b"ZA\nQI\nCAT\n", name="a")
    b, _ = compile_text(tmp_path, b"\xef\xbb\xbf# c\r\nqi\r\ncat x\r\n\r\nza\r\nQI\r\n", name="b")
    assert Lexicon.load(a).fingerprint == Lexicon.load(b).fingerprint


def test_several_sources_are_unioned(tmp_path):
    # NASPA III.A.1: OWL2 for 2-9 letters plus the Long List for 10+ letters.
    (tmp_path / "short.txt").write_text("QI\nZA\n")
    (tmp_path / "long.txt").write_text("QUESTIONING\nZABAGLIONES\n")
    out = tmp_path / "both.lex"
    compile_sources([str(tmp_path / "short.txt"), str(tmp_path / "long.txt")], str(out))
    lex = Lexicon.load(str(out))
    assert {"QI", "ZA", "QUESTIONING", "ZABAGLIONES"} == set(lex)
    assert [s["file"] for s in lex.header["sources"]] == ["short.txt", "long.txt"]


def test_compile_is_deterministic(tmp_path):
    a, _ = compile_text(tmp_path, b"qi\nza\n", name="x")
    first = open(a, "rb").read()
    os.remove(a)
    compile_text(tmp_path, b"qi\nza\n", name="x")
    assert open(a, "rb").read() == first


def test_name_option_is_kept(tmp_path):
    path, _ = compile_text(tmp_path, b"qi\nza\n", name="club")
    assert Lexicon.load(path).name == "CLUB"
    path2, _ = compile_text(tmp_path, b"qi\nza\n", name="club2", title="Club List")
    assert Lexicon.load(path2).name == "Club List"


def test_truncated_file_is_refused(tmp_path):
    path, _ = compile_text(tmp_path, b"qi\nza\ncat\n")
    data = open(path, "rb").read()
    for cut in (1, 10, len(data) // 2, len(data) - 1):
        open(path, "wb").write(data[:cut])
        with pytest.raises(LexiconError, match="refused"):
            Lexicon.load(path)


@pytest.mark.parametrize("where", [0, 40, -80])
def test_any_altered_byte_is_refused(tmp_path, where):
    path, _ = compile_text(tmp_path, b"qi\nza\ncat\n")
    data = bytearray(open(path, "rb").read())
    data[where] ^= 0x01
    open(path, "wb").write(bytes(data))
    with pytest.raises(LexiconError, match="refused"):
        Lexicon.load(path)


def test_foreign_files_are_refused(tmp_path):
    import marisa_trie

    plain = tmp_path / "plain.trie"
    marisa_trie.Trie(["QI", "ZA"]).save(str(plain))
    text = tmp_path / "words.txt"
    text.write_text("QI\nZA\n")
    empty = tmp_path / "empty.lex"
    empty.write_bytes(b"")
    for path in (plain, text, empty):
        assert not is_compiled(str(path))
        with pytest.raises(LexiconError, match="refused"):
            Lexicon.load(str(path))


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(FileAccessError, match="cannot read lexicon"):  # exit 4, issue 12
        Lexicon.load(str(tmp_path / "absent.lex"))


def test_verify_fingerprint_recomputes_from_the_words(tmp_path):
    path, _ = compile_text(tmp_path, b"qi\nza\n")
    assert Lexicon.load(path).verify_fingerprint()


def test_written_file_follows_the_umask_not_a_private_temp_mode(tmp_path):
    old = os.umask(0o022)
    try:
        path, _ = compile_text(tmp_path, b"qi\nza\n")
    finally:
        os.umask(old)
    assert os.stat(path).st_mode & 0o777 == 0o644
