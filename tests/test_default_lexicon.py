"""The shipped default: ENABLE (public domain), 2-15 letters, equal to a fresh compile of its source."""

import pathlib

from adjudicator.lexicon.known import SHIPPED
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.lexicon.library import default_path, load_lexicon


def test_shipped_file_equals_a_fresh_compile(tmp_path):
    source = str(pathlib.Path(SHIPPED, "enable1.txt"))
    out = tmp_path / "enable.lex"
    compile_sources([source], str(out), name="ENABLE", skip_invalid=True)
    assert out.read_bytes() == open(default_path(), "rb").read()


def test_default_is_enable_labelled_not_for_tournaments():
    lex = load_lexicon()
    assert lex.identity.known.id == "ENABLE"
    assert not lex.identity.known.tournament
    assert "not a tournament word list" in lex.identity.describe()
    assert len(lex) == 168_548  # 172,820 ENABLE words less the 4,272 longer than 15 letters
    assert all(2 <= len(w) <= 15 for w in lex)
    assert "ABSENTMINDEDNESS" not in lex  # 16 letters: cannot be on the board


def test_default_matches_the_shared_copy_when_present():
    from realdata import real_list

    shared = real_list("enable1.txt")
    shipped = pathlib.Path(SHIPPED, "enable1.txt").read_bytes()
    assert open(shared, "rb").read() == shipped


def test_licence_file_is_shipped():
    text = pathlib.Path(SHIPPED, "README.md").read_text()
    assert "public domain" in text.lower()


def test_loaded_default_is_a_lexicon():
    assert isinstance(Lexicon.load(default_path()), Lexicon)
