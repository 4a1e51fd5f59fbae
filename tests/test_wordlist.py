"""Source word lists: every common shape compiles to the right words; bad lines are refused by number."""

import pytest

from adjudicator.errors import FileAccessError, LexiconError, WordListError
from adjudicator.lexicon.wordlist import is_header, read_source

WORDS = {"AA", "QI", "ZA", "CAT", "COLLINS"}


def write(tmp_path, data: bytes, name="list.txt"):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize(
    "data",
    [
        b"AA\nQI\nZA\nCAT\nCOLLINS\n",  # one word a line
        b"aa\nqi\nza\ncat\ncollins",  # lowercase, no final newline
        b"Aa\nqI\nZa\nCAT\nCollins\n",  # mixed case
        b"AA\r\nQI\r\nZA\r\nCAT\r\nCOLLINS\r\n",  # CRLF
        b"AA\rQI\rZA\rCAT\rCOLLINS\r",  # old Mac CR
        b"\xef\xbb\xbfAA\nQI\nZA\nCAT\nCOLLINS\n",  # UTF-8 byte-order mark
        b"# my list\nAA\n\n  # indented comment\nQI\nZA\n\nCAT\nCOLLINS\n",  # comments, blanks
        b"AA\nQI\nZA\nQI\nCAT\nCOLLINS\nAA\n",  # duplicates are fine
        b"AA rough cindery lava [n -S]\nQI vital force [n -S]\nZA pizza [n -S]\n"
        b"CAT a feline [n -S]\nCOLLINS a drink [n -ES]\n",  # WORD definition
        b"  AA  \n\tQI\nZA \nCAT\nCOLLINS\n",  # stray whitespace around a word
    ],
)
def test_shapes_compile_to_the_same_words(tmp_path, data):
    assert read_source(write(tmp_path, data)).words == WORDS


def test_csw19_style_header_is_recognised_not_read_as_collins(tmp_path):
    data = b"Collins Scrabble Words (2019). 279,496 words. Words only.\r\n\r\nAA\r\nQI\r\nZA\r\n"
    report = read_source(write(tmp_path, data))
    assert report.words == {"AA", "QI", "ZA"}  # COLLINS is a word, but not this line's
    assert report.header.startswith("Collins Scrabble Words (2019)")


def test_header_with_definitions_body(tmp_path):
    data = b"My Word List 2024: 3 words\nAA lava\nQI force\nZA pizza\n"
    report = read_source(write(tmp_path, data))
    assert report.words == {"AA", "QI", "ZA"}


def test_header_only_on_the_first_line(tmp_path):
    path = write(tmp_path, b"AA\nQI\nCollins Scrabble Words (2019). 3 words.\n")
    # A definition line is read for its first token; a header later in the file is no header.
    assert read_source(path).words == {"AA", "QI", "COLLINS"}


@pytest.mark.parametrize(
    "line, why",
    [
        ("CAT5", "'5' is not a letter"),
        ("CAFÉ", "'É' is not a letter"),
        ("ABCDEFGHIJKLMNOP", "16 letters"),
        ("A", "at least 2"),
        ("STRAẞE", "is not a letter"),
    ],
)
def test_bad_line_refuses_the_file_with_its_number(tmp_path, line, why):
    path = write(tmp_path, f"AA\nQI\n{line}\nZA\n".encode())
    with pytest.raises(WordListError) as caught:
        read_source(path)
    assert caught.value.line_no == 3
    assert f"{path}, line 3" in str(caught.value)
    assert why in str(caught.value)


def test_binary_junk_is_refused(tmp_path):
    with pytest.raises(WordListError, match="binary"):
        read_source(write(tmp_path, b"AA\n\x00\x01\x02\xff\n"))


def test_non_utf8_is_refused_with_its_line(tmp_path):
    with pytest.raises(WordListError) as caught:
        read_source(write(tmp_path, b"AA\nQI\nCAF\xc9\n"))
    assert caught.value.line_no == 3


def test_skip_invalid_counts_and_reports(tmp_path):
    path = write(tmp_path, b"AA\nCAT5\nQI\nABCDEFGHIJKLMNOP\nZA\n")
    report = read_source(path, skip_invalid=True)
    assert report.words == {"AA", "QI", "ZA"}
    assert [n for n, _ in report.skipped] == [2, 4]


def test_empty_list_is_refused(tmp_path):
    with pytest.raises(LexiconError, match="no words"):
        read_source(write(tmp_path, b"# nothing here\n\n"))


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(FileAccessError, match="cannot read word list"):  # exit 4
        read_source(str(tmp_path / "absent.txt"))


@pytest.mark.parametrize(
    "line, header",
    [
        ("Collins Scrabble Words (2019). 279,496 words. Words only.", True),
        ("NASPA Word List 2023 - 196601 words", True),
        ("AA rough cindery lava [n -S]", False),
        ("ZZZ", False),
    ],
)
def test_is_header(line, header):
    assert is_header(line) is header


@pytest.mark.parametrize("ch", ["\x1c", "\x1e", "\u2028", "\u2029", "\x85", "\x0b", "\x0c",
                                "\u200b"])  # NUL: "binary data", tested above
def test_only_lf_and_cr_end_a_line_and_nothing_else_is_trimmed(tmp_path, ch):
    """Issue 12: QI<U+2028>ZA is not two words, and QI<U+001C> is not QI: the line is refused,
    naming the character (str.splitlines and str.split() would take them as line/word ends)."""
    for text in (f"AA\nQI{ch}ZA\nCAT\n", f"AA\nQI{ch}\nCAT\n", f"AA\n{ch}QI\nCAT\n"):
        with pytest.raises(WordListError) as caught:
            read_source(write(tmp_path, text.encode()))
        assert caught.value.line_no == 2
        assert f"U+{ord(ch):04X}" in str(caught.value)


def test_a_no_break_space_is_a_space_as_in_an_entry(tmp_path):
    assert read_source(write(tmp_path, "AA\u00a0\nQI\u00a0vital force\nZA\n".encode())).words == {
        "AA", "QI", "ZA"}


@pytest.mark.parametrize("word, bad", [("ﬁne", "ﬁ"), ("ſtop", "ſ"), ("straße", "ß"),
                                       ("ﬂag", "ﬂ"), ("ﬀ", "ﬀ"), ("lıst", "ı")])
@pytest.mark.parametrize("shape", ["plain", "definitions"])
def test_a_letter_that_upper_cases_into_a_z_still_refuses_the_file(tmp_path, word, bad, shape):
    """Issue 40: "ﬁne", "ſtop", "straße" upper-case to FINE, STOP, STRASSE; the file was read
    as if they were those words. A letter outside A-Z refuses the file, naming its line."""
    tail = " a definition" if shape == "definitions" else ""
    path = write(tmp_path, f"AA{tail}\nQI{tail}\n{word}{tail}\nZA{tail}\n".encode())
    with pytest.raises(WordListError) as caught:
        read_source(path)
    assert caught.value.line_no == 3 and f"{path}, line 3" in str(caught.value)
    assert f"'{bad}'" in str(caught.value) and "is not a letter A-Z" in str(caught.value)
    skipped = read_source(path, skip_invalid=True)
    assert skipped.words == {"AA", "QI", "ZA"} and skipped.skipped[0][0] == 3


def test_non_ascii_beyond_the_word_is_still_read(tmp_path):
    """A definition or a header in any script is fine: only the word itself must be A-Z."""
    path = write(tmp_path, "Collins Scrabble Words © (2019). 2 words.\nqi a Chinese life force — "
                 "ﬁne\nza pizza\n".encode())
    assert read_source(path).words == {"QI", "ZA"}
