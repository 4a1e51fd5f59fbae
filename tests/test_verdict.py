"""One collective verdict, equal to a plain set's answer, with every word always looked up."""


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.errors import EntryError
from adjudicator.judging.verdict import Verdict, adjudicate

WORDS = st.text(alphabet="ABQZ", min_size=2, max_size=4)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from adjudicator.lexicon.compile import compile_sources
    from adjudicator.lexicon.compiled import Lexicon

    folder = tmp_path_factory.mktemp("tiny")
    vocabulary = sorted({"AB", "BA", "QA", "ZA", "ABBA", "BAZ", "QAZ", "ZZZ", "AAA"})
    (folder / "t.txt").write_text("\n".join(vocabulary))
    compile_sources([str(folder / "t.txt")], str(folder / "t.lex"))
    return Lexicon.load(str(folder / "t.lex")), frozenset(vocabulary)


@settings(max_examples=300)
@given(st.lists(WORDS, min_size=1, max_size=8))
def test_matches_a_plain_set(tiny, words):
    lexicon, plain = tiny
    verdict = adjudicate(lexicon, words)
    assert verdict.acceptable == all(w in plain for w in words)
    assert verdict.words == tuple(words)


def test_verdict_word(make_lexicon):
    lex = make_lexicon(["QI", "ZA"])
    assert adjudicate(lex, ["QI", "ZA"]).word == "ACCEPTABLE"
    assert adjudicate(lex, ["QI", "QZ"]).word == "UNACCEPTABLE"


def test_verdict_carries_no_per_word_result(make_lexicon):
    # WESPA 3.11.2(a)(viii), NASPA IV.K.3.d: the play as a whole, never which word failed.
    verdict = adjudicate(make_lexicon(["QI"]), ["QI", "QZ"])
    assert list(Verdict._fields) == ["words", "acceptable", "lexicon"]
    assert isinstance(verdict.acceptable, bool)
    assert verdict.lexicon.name == "TINY"


class CountingLexicon:
    """Wraps a lexicon and counts look-ups, to prove there is no early exit."""

    def __init__(self, inner):
        self.inner, self.identity, self.asked = inner, inner.identity, []

    def __contains__(self, word):
        self.asked.append(word)
        return word in self.inner


@pytest.mark.parametrize("first_bad", [0, 3, 7])
def test_every_word_is_looked_up_even_after_a_failure(make_lexicon, first_bad):
    lex = CountingLexicon(make_lexicon(["QI"]))
    words = ["QI"] * 8
    words[first_bad] = "QZ"
    assert not adjudicate(lex, words).acceptable
    assert lex.asked == words  # so time does not tell which word failed


def test_unnormalised_words_are_refused(make_lexicon):
    with pytest.raises(EntryError):
        adjudicate(make_lexicon(["QI"]), ["qi"])
    with pytest.raises(EntryError):
        adjudicate(make_lexicon(["QI"]), [])
