"""Typed entry: every named rejection, and nothing ever dropped or changed silently."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from plain_entry import SEPARATORS, reference_parse

from adjudicator.text import entry
from adjudicator.text.entry import parse_entry
from adjudicator.errors import EXIT_ENTRY, EntryError
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.judging.verdict import adjudicate


@pytest.mark.parametrize(
    "text, words",
    [
        ("qi za", ("QI", "ZA")),
        ("  QI,ZA  ", ("QI", "ZA")),
        ("cat, dog,\tEMU", ("CAT", "DOG", "EMU")),
        ("Cat,,,dog", ("CAT", "DOG")),
        ("at at", ("AT", "AT")),  # a play may form the same word twice
        ("a" * 15, ("A" * 15,)),
        ("qi\u00a0za", ("QI", "ZA")),  # a no-break space is still a space
    ],
)
def test_separators_and_case(text, words):
    assert parse_entry(text) == words


@pytest.mark.parametrize(
    "text, code, says",
    [
        ("", entry.EMPTY, "No words"),
        (" , \t ", entry.EMPTY, "No words"),
        ("cat5", entry.NOT_A_LETTER, "'5' is not a letter"),
        ("café", entry.NOT_A_LETTER, "'é' is not a letter"),
        ("straße", entry.NOT_A_LETTER, "'ß'"),  # 'ß'.upper() is 'SS': never changed silently
        ("don't", entry.NOT_A_LETTER, "\"'\" is not a letter"),
        ("qi?", entry.NOT_A_LETTER, "'?'"),
        ("qi\x00", entry.NOT_A_LETTER, "U+0000"),
        ("a", entry.TOO_SHORT, "at least 2"),
        ("qi a", entry.TOO_SHORT, "at least 2"),
        ("a" * 16, entry.TOO_LONG, "16 letters"),
        ("qi " * 9, entry.TOO_MANY, "at most 8"),
    ],
)
def test_named_rejections(text, code, says):
    with pytest.raises(EntryError) as caught:
        parse_entry(text)
    assert caught.value.code == code
    assert says in str(caught.value)
    assert caught.value.exit_code == EXIT_ENTRY


def test_eight_words_is_the_most_a_play_forms():
    # WESPA Appendix 1: at most 7 tiles in one line, so one main word and 7 cross words.
    assert len(parse_entry("qi " * 8)) == 8


@given(st.text(alphabet=st.sampled_from("abcXYZ ,\t5é-'"), max_size=60))
def test_never_drops_a_character(text):
    """Either the entry is refused, or its letters are exactly the typed letters, uppercased."""
    try:
        words = parse_entry(text)
    except EntryError:
        return
    typed = [c.upper() for c in text if c not in " ,\t"]
    assert list("".join(words)) == typed


@given(st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyzQZ", min_size=2, max_size=15),
                min_size=1, max_size=8), st.sampled_from([" ", ",", ", ", "\t", "  "]))
def test_fast_and_slow_paths_agree(words, sep):
    text = sep.join(words)
    assert parse_entry(text) == tuple(w.upper() for w in words)
    assert entry.validate_words(tuple(w.upper() for w in words)) == parse_entry(text)


# Characters that are whitespace, control or format characters to Python but are not separators
# here: each must be named in a refusal, never split (or join) words. Issue 12.
NOT_SEPARATORS = ["\x1c", "\x1d", "\x1e", "\x1f", "\x0b", "\x0c", "\x85", "\u2028", "\u2029",
                  "\x00", "\x1b", "\u200b", "\ufeff", "\r", "\n", "\u3000", "\u2003"]


@pytest.mark.parametrize("ch", NOT_SEPARATORS)
def test_only_documented_separators_separate_words(ch):
    with pytest.raises(EntryError) as caught:
        parse_entry(f"CaR{ch}apaCE")
    assert caught.value.code == entry.NOT_A_LETTER
    assert f"U+{ord(ch):04X}" in str(caught.value)
    with pytest.raises(EntryError):
        parse_entry(f"qi za{ch}")  # at the end too: nothing is trimmed silently


@pytest.mark.parametrize("ch, says", [("\r", "U+000D (CARRIAGE RETURN)"),
                                       ("\x1c", "U+001C (FILE SEPARATOR)"),
                                       ("\x85", "U+0085 (NEXT LINE)"),
                                       ("\u2028", "U+2028 (LINE SEPARATOR)"),
                                       ("\x01", "U+0001")])
def test_an_invisible_character_is_named_by_code_and_name(ch, says):
    with pytest.raises(EntryError) as caught:
        parse_entry(f"qi{ch}za")
    assert str(caught.value).startswith(f"{says} is not a letter")


def test_the_separators_are_space_no_break_space_tab_and_comma():
    assert entry.SEPARATORS == " \t,\u00a0"
    assert parse_entry(" qi\tza,xu\u00a0cat ") == ("QI", "ZA", "XU", "CAT")


HOSTILE = st.sampled_from(NOT_SEPARATORS + ["5", "é", "ß", "'", "-", "\ufffd", "\x7f", "İ"])
ENTRY_TEXT = st.lists(st.one_of(st.sampled_from("qizaxcatQIZ"), st.sampled_from(SEPARATORS),
                                HOSTILE), max_size=40).map("".join)


PLAIN_SET = frozenset(["QI", "ZA", "XU", "CAT", "ZAX", "TAX"])


@pytest.fixture(scope="module")
def tiny_lexicon(tmp_path_factory):
    folder = tmp_path_factory.mktemp("entry")
    (folder / "tiny.txt").write_text("\n".join(sorted(PLAIN_SET)) + "\n")
    compile_sources([str(folder / "tiny.txt")], str(folder / "tiny.lex"))
    return Lexicon.load(str(folder / "tiny.lex"))


@given(text=ENTRY_TEXT)
def test_entry_and_verdict_match_a_plain_reading_and_a_plain_set(tiny_lexicon, text):
    """Property: parse_entry agrees with reference_parse, and the verdict with a plain set."""
    expected = reference_parse(text)
    try:
        got = parse_entry(text)
    except EntryError as e:
        assert e.code == (expected if isinstance(expected, str) else "accepted")
        return
    assert got == expected
    assert adjudicate(tiny_lexicon, got).acceptable == all(w in PLAIN_SET for w in expected)


@given(st.lists(st.one_of(st.sampled_from(["qi", "ZA", "cat", "Xu", "a", "b" * 15, "c" * 16]),
                          st.sampled_from([" ", "\t", ",", " " * 40, "\u00a0"])),
                max_size=30).map("".join))
def test_is_plain_agrees_with_parse_entry(text):
    """The batch judge inlines parse_entry's fast path (entry.is_plain, then upper/replace/split):
    whatever is plain must be exactly what parse_entry accepts, with the same words."""
    if entry.is_plain(text):
        assert parse_entry(text) == tuple(text.upper().replace(",", " ").split())


def test_the_entry_cap_is_what_a_play_can_form():
    """8 words of 15 letters, each with a comma and a space after it, fit; one more does not."""
    assert entry.MAX_ENTRY_CHARS == 8 * (15 + 2)
    longest = ", ".join(["ABCDEFGHIJKLMNO"] * 8) + ", "
    assert len(longest) == entry.MAX_ENTRY_CHARS
    entry.check_entry_length(longest)
    with pytest.raises(EntryError) as e:
        entry.check_entry_length(longest + " ")
    assert e.value.code == entry.ENTRY_TOO_LONG and "at most 136 characters" in str(e.value)
