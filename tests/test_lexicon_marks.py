"""Issue 40 items 2-4: a list verified once is known by its bytes' SHA-256 (a verified mark in the
cache folder), never trusted beyond what the mark says; `lexicon list` vouches only for words it
checked; a compile cache entry is used only when it is the file built from its source."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import marisa_trie
import pytest

from adjudicator.lexicon import compiled, verified
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon, fingerprint_words, write_compiled
from adjudicator.lexicon.known import KnownLexicon, known_lexicons
from adjudicator.lexicon.library import load_lexicon
from adjudicator.lexicon.store import cache_dir
from adjudicator.judging.verdict import adjudicate

WORDS = ["QI", "ZA", "CAT", "XU"]


@pytest.fixture
def walks(monkeypatch):
    """How many times the words of a list were walked to compute their fingerprint."""
    count = [0]
    real = compiled.fingerprint_words

    def counting(words):
        count[0] += 1
        return real(words)

    monkeypatch.setattr(compiled, "fingerprint_words", counting)
    return count


@pytest.fixture
def club(tmp_path):
    src = tmp_path / "club.txt"
    src.write_text("\n".join(WORDS) + "\n")
    out = tmp_path / "CLUB.lex"
    compile_sources([str(src)], str(out), name="CLUB")
    return out


def _checked(path) -> Lexicon:
    lex = Lexicon.load(str(path))
    lex.check_words()
    return lex


def _mark_path(lex: Lexicon) -> str:
    return os.path.join(cache_dir(), "verified-v1", f"words-{lex.sha256}")


def test_a_list_checked_once_is_not_walked_again(club, walks):
    lex = _checked(club)  # compiling it left the mark: its trie was built from those words
    assert walks[0] == 0 and lex.words_match
    os.unlink(_mark_path(lex))
    _checked(club)
    assert walks[0] == 1  # no mark: the words walked, and a mark left
    again = _checked(club)
    assert walks[0] == 1 and again.words_match
    assert adjudicate(again, ("QI", "ZA")).acceptable


def test_the_deferred_kiosk_check_uses_the_mark_too(club, walks):
    lex = load_lexicon(str(club), check_words=False)
    lex.check_words()
    assert walks[0] == 0 and lex.words_match and lex.sha256


def _tamper_cases(lex: Lexicon, other: Lexicon):
    mine, theirs = _mark_path(lex), _mark_path(other)
    good = Path(mine).read_text()

    def damaged():
        with open(mine, "w") as f:
            f.write(good.replace(lex.fingerprint[:4], "ffff"))

    def copied_from_another_list():
        os.unlink(mine)
        with open(mine, "w") as f:
            f.write(Path(theirs).read_text())

    def saying_other_words():
        with open(mine, "w") as f:
            f.write(good.replace(lex.fingerprint, other.fingerprint))

    def a_symbolic_link():
        os.unlink(mine)
        os.symlink(theirs, mine)

    def writable_by_others():
        os.chmod(mine, 0o666)

    def too_long():
        with open(mine, "a") as f:
            f.write("x" * 600)

    cases = [damaged, copied_from_another_list, saying_other_words, too_long]
    if sys.platform != "win32":
        cases += [a_symbolic_link, writable_by_others]
    return good, cases


def test_a_tampered_or_foreign_mark_is_not_trusted(club, tmp_path, walks):
    lex = _checked(club)
    other_src = tmp_path / "other.txt"
    other_src.write_text("AA\nBB\n")
    other = _checked(_compile_to(tmp_path, other_src, "OTHER.lex"))
    good, cases = _tamper_cases(lex, other)
    for case in cases:
        walks[0] = 0
        case()
        again = _checked(club)
        assert walks[0] == 1 and again.words_match, case.__name__  # walked, found right
        if os.path.islink(_mark_path(lex)):
            os.unlink(_mark_path(lex))
        os.chmod(_mark_path(lex), 0o600) if os.path.exists(_mark_path(lex)) else None
        with open(_mark_path(lex), "w") as f:
            f.write(good)


def test_an_altered_list_leaves_no_mark_and_a_mark_never_speaks_for_other_bytes(
        club, tmp_path, walks):
    """The altered file (header kept, checksum recomputed) has other bytes, so another SHA-256:
    the genuine list's mark says nothing of it, and its failed check leaves none."""
    genuine = _checked(club)
    bad = tmp_path / "bad" / "CLUB.lex"
    bad.parent.mkdir()
    write_compiled(str(bad), marisa_trie.Trie(["QI", "ZA", "CAT", "ZZZZZQ"]).tobytes(),
                   genuine.header)
    lex = Lexicon.load(str(bad))
    assert not lex.verify_fingerprint() and walks[0] == 1
    assert not os.path.exists(_mark_path(lex)) and os.path.exists(_mark_path(genuine))


def _compile_to(tmp_path, src, name):
    out = tmp_path / name
    compile_sources([str(src)], str(out))
    return out


@pytest.fixture
def official_tiny(tmp_path, monkeypatch):
    """A tiny genuine CSW24.lex and an altered one beside it (header kept, checksum
    recomputed): the tiny list's fingerprint is made CSW24's for the test."""
    src = tmp_path / "words.txt"
    src.write_text("\n".join(WORDS) + "\n")
    fingerprint = fingerprint_words(WORDS)
    monkeypatch.setitem(known_lexicons(), fingerprint, KnownLexicon(
        "CSW24", "Collins Scrabble Words 2024", "2024", "tests", len(WORDS), fingerprint))
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    monkeypatch.setenv("ADJUDICATOR_SHELF", str(shelf))
    genuine = tmp_path / "CSW24.lex"
    compile_sources([str(src)], str(genuine), name="CSW24")
    return genuine, shelf


def test_lexicon_list_never_vouches_for_an_altered_list(official_tiny, run):
    genuine, shelf = official_tiny
    header = Lexicon.load(str(genuine)).header
    write_compiled(str(shelf / "CSW24.lex"), marisa_trie.Trie(
        ["ZZZZZQ", "ZA", "CAT", "XU"]).tobytes(), header)
    out = run("lexicon", "list").stdout
    assert "ALTERED, refused" in out and "its words are not the list" in out
    assert "yes:" not in out
    (shelf / "CSW24.lex").write_bytes(genuine.read_bytes())
    assert "yes: Collins Scrabble Words 2024" in run("lexicon", "list").stdout


def test_lexicon_list_uses_the_mark_and_checks_without_one(official_tiny, run, walks):
    genuine, shelf = official_tiny
    (shelf / "CSW24.lex").write_bytes(genuine.read_bytes())
    assert "yes:" in run("lexicon", "list").stdout and walks[0] == 0  # compiled: marked
    for entry in os.listdir(os.path.join(cache_dir(), "verified-v1")):
        os.unlink(os.path.join(cache_dir(), "verified-v1", entry))
    assert "yes:" in run("lexicon", "list").stdout and walks[0] == 1


@pytest.fixture
def fresh(run):
    """The CLI as a new process sees it: nothing remembered from an earlier load."""
    from adjudicator.lexicon import library

    def invoke(*args):
        library._remembered.clear()
        return run(*args)

    return invoke


def _cache_entry() -> str:
    (entry,) = [e for e in os.listdir(cache_dir()) if e.endswith(".lex")]
    return os.path.join(cache_dir(), entry)


def test_a_cache_entry_replaced_by_another_lists_file_is_never_used(tmp_path, fresh):
    mine = tmp_path / "mylist.txt"
    mine.write_text("QI\nZA\nMYWORD\n")
    assert fresh("judge", "--lexicon", str(mine), "myword").exit_code == 0
    entry = _cache_entry()
    other_src = tmp_path / "theirs.txt"
    other_src.write_text("QI\nZA\nOTHER\n")
    other = _compile_to(tmp_path, other_src, "other.lex")
    os.replace(other, entry)  # another list's compiled file under the entry's name
    result = fresh("judge", "--lexicon", str(mine), "myword")
    assert result.exit_code == 0 and "MYLIST" in result.stderr  # rebuilt from mylist.txt
    assert fresh("judge", "--lexicon", str(mine), "other").exit_code == 1


def test_a_cache_entry_forged_to_name_its_source_is_never_used(tmp_path, fresh):
    """Another list's words with a header naming mylist.txt's SHA-256 and a checksum
    recomputed: it is not the file compiled from that source (the mark left at compile time
    names the SHA-256 of the file built), so it is compiled again."""
    mine = tmp_path / "mylist.txt"
    mine.write_text("QI\nZA\nMYWORD\n")
    assert fresh("judge", "--lexicon", str(mine), "myword").exit_code == 0
    entry = _cache_entry()
    header = dict(Lexicon.load(entry).header)
    words = ["QI", "ZA", "OTHER"]
    header.update(fingerprint=fingerprint_words(words), word_count=len(words), name="MYLIST")
    write_compiled(entry, marisa_trie.Trie(words).tobytes(), header)
    assert fresh("judge", "--lexicon", str(mine), "other").exit_code == 1
    assert fresh("judge", "--lexicon", str(mine), "myword").exit_code == 0
    assert json.loads(json.dumps(Lexicon.load(_cache_entry()).header))["fingerprint"] == (
        fingerprint_words(["QI", "ZA", "MYWORD"]))


def test_a_changed_source_is_compiled_again(tmp_path, fresh):
    mine = tmp_path / "mylist.txt"
    mine.write_text("QI\nZA\n")
    assert fresh("judge", "--lexicon", str(mine), "cat").exit_code == 1
    mine.write_text("QI\nZA\nCAT\n")
    assert fresh("judge", "--lexicon", str(mine), "cat").exit_code == 0


def test_marks_are_only_ours(tmp_path):
    """recall/remember take only SHA-256 keys and values: nothing else is ever written or read."""
    key = "a" * 64
    verified.remember("words", key, "not a fingerprint")
    assert verified.recall("words", key) is None
    verified.remember("words", key, "b" * 64)
    assert verified.recall("words", key) == "b" * 64
    assert verified.recall("words", "../" + key) is None and verified.recall("other", key) is None
    assert stat.S_IMODE(os.stat(os.path.join(cache_dir(), "verified-v1",
                                             f"words-{key}")).st_mode) & 0o077 == 0
