"""Typed entry: every named rejection, and nothing ever dropped or changed silently."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator import entry
from adjudicator.entry import parse_entry
from adjudicator.errors import EXIT_ENTRY, EntryError


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
