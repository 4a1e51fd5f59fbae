"""Every real list in $ADJUDICATOR_TEST_LEXICONS: counts, fingerprints, and verdicts on real words."""

import random

import pytest

from adjudicator.lexicon.known import by_id, known_lexicons
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.judging.verdict import adjudicate
from adjudicator.lexicon.wordlist import read_source
from realdata import real_list

LISTS = {
    "CSW19": "CSW19.txt",
    "CSW21": "CSW21.txt",
    "CSW24": "CSW24.txt",
    "NWL2018": "NWL2018.txt",
    "NWL2020": "NWL2020.txt",
    "NWL2023": "NWL2023.txt",
    "TWL06": "TWL06.txt",
}
OFFICIAL_COUNTS = {  # published counts (DESIGN.md; issue 2)
    "CSW19": 279_496, "CSW21": 279_077, "CSW24": 280_887, "NWL2018": 192_111,
    "NWL2020": 191_852, "NWL2023": 196_601, "TWL06": 178_691,
}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    folder = tmp_path_factory.mktemp("real")
    cache = {}

    def get(lexicon_id):
        if lexicon_id not in cache:
            out = folder / f"{lexicon_id}.lex"
            compile_sources([real_list(LISTS[lexicon_id])], str(out))
            cache[lexicon_id] = Lexicon.load(str(out))
        return cache[lexicon_id]

    return get


@pytest.mark.parametrize("lexicon_id", sorted(LISTS))
def test_compiles_to_the_official_count_and_is_recognised(compiled, lexicon_id):
    lex = compiled(lexicon_id)
    assert len(lex) == OFFICIAL_COUNTS[lexicon_id] == by_id(lexicon_id).words
    assert lex.identity.known.id == lexicon_id
    assert lex.name == lexicon_id
    assert lex.identity.describe().endswith(f"{OFFICIAL_COUNTS[lexicon_id]:,} words — verified")
    assert lex.verify_fingerprint()


def test_known_toml_has_every_official_list_and_enable():
    assert {k.id for k in known_lexicons().values()} == set(LISTS) | {"ENABLE"}


@pytest.mark.parametrize("lexicon_id", sorted(LISTS))
def test_real_words_and_near_misses(compiled, lexicon_id):
    lex = compiled(lexicon_id)
    words = sorted(read_source(real_list(LISTS[lexicon_id])).words)
    plain = frozenset(words)
    rng = random.Random(lexicon_id)
    sample = rng.sample(words, 400)
    for start in range(0, 400, 8):  # real plays: up to 8 real words
        assert adjudicate(lex, sample[start:start + 8]).acceptable
    misses = 0
    for word in sample:
        i = rng.randrange(len(word))
        near = word[:i] + rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ".replace(word[i], "")) + word[i + 1:]
        play = [sample[0], near, sample[1]]
        assert adjudicate(lex, play).acceptable == (near in plain)
        misses += near not in plain
    assert misses > 200  # most one-letter changes are not words: the test exercised rejections


CROSS = [
    # (word, in this list, not in that one): known differences between editions and families
    ("QIN", "CSW19", "TWL06"),
    ("ZE", "CSW19", "NWL2023"),
    ("OK", "NWL2018", "TWL06"),  # OK entered the NASPA list in 2018
    ("EW", "NWL2018", "TWL06"),
    ("VAX", "NWL2023", "NWL2020"),
    ("YEET", "NWL2023", "CSW21"),
]


@pytest.mark.parametrize("word, present, absent", CROSS)
def test_cross_list_words(compiled, word, present, absent):
    assert adjudicate(compiled(present), ["QI", word]).acceptable
    assert not adjudicate(compiled(absent), ["QI", word]).acceptable


def test_words_only_in_one_list_of_each_pair(compiled):
    """Set differences between editions, judged by marisa, agree with a plain set."""
    pairs = [("CSW19", "CSW21"), ("CSW21", "CSW24"), ("NWL2020", "NWL2023"), ("TWL06", "NWL2018")]
    for a, b in pairs:
        words_a = read_source(real_list(LISTS[a])).words
        words_b = read_source(real_list(LISTS[b])).words
        only_a = sorted(words_a - words_b)[:200]
        only_b = sorted(words_b - words_a)[:200]
        assert only_a or only_b
        for w in only_a:
            assert w in compiled(a) and w not in compiled(b)
        for w in only_b:
            assert w in compiled(b) and w not in compiled(a)


def test_owl2_plus_long_list_is_recognised_as_twl06(tmp_path):
    # NASPA III.A.1: OWL2 covers 2-9 letters and the Long List 10 letters and more.
    words = read_source(real_list("TWL06.txt")).words
    (tmp_path / "owl2.txt").write_text("\n".join(sorted(w for w in words if len(w) <= 9)))
    (tmp_path / "long.txt").write_text("\n".join(sorted(w for w in words if len(w) >= 10)))
    out = tmp_path / "twl.lex"
    compile_sources([str(tmp_path / "owl2.txt"), str(tmp_path / "long.txt")], str(out))
    lex = Lexicon.load(str(out))
    assert lex.identity.known.id == "TWL06"
    assert len(lex) == 178_691


def test_csw19_header_is_not_the_word_collins(tmp_path):
    report = read_source(real_list("CSW19.txt"))
    assert report.header == "Collins Scrabble Words (2019). 279,496 words. Words only."
    assert len(report.words) == 279_496
