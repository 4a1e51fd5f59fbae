"""tsh's tourney.js read as JavaScript data, never run: every form tsh's writer emits, and more."""

from __future__ import annotations

import math

import pytest

from adjudicator.hub.jsliteral import JSLiteralError, parse_assignment, parse_literal


def test_undefined_and_array_holes_are_none_as_tshs_perl_undef_is():
    assert parse_assignment('newt={"currency_symbol":undefined,"a":[undefined,1,,2,]};') == {
        "currency_symbol": None, "a": [None, 1, None, 2]}


def test_numbers_as_perl_and_javascript_write_them():
    assert parse_literal("[.5, -.25, 7, -0, 1e3, 2E-2, 0x1F, +4, 12345678901234567890]") == [
        0.5, -0.25, 7, 0, 1000.0, 0.02, 31, 4, 12345678901234567890]
    nan, inf, minus = parse_literal("[NaN, Infinity, -Infinity]")
    assert math.isnan(nan) and inf == math.inf and minus == -math.inf
    assert parse_literal("[true, false, null]") == [True, False, None]


def test_strings_as_tshs_quote_writes_them_and_every_javascript_escape():
    # tsh escapes only " \\ and a newline (a backslash before a real newline: a continuation);
    # a tab stands raw in the string
    assert parse_literal('"Smith,\tAnn \\"Al\\" \\\\ two\\\nlines"') == \
        'Smith,\tAnn "Al" \\ twolines'
    assert parse_literal(r'"\u00e9\x41\n\t\/\q\uD83D\uDE00\u{1F600}"') == \
        "\u00e9A\n\t/q\U0001F600\U0001F600"
    assert parse_literal("'single \\'quoted\\''") == "single 'quoted'"


def test_bare_keys_comments_and_trailing_commas_of_a_pretty_printed_file():
    text = """// written by tsh
    var newt = {
      config: { 'event_name': "SPC", max_rounds: 31, /* boards */ tables: {A: [1, 2,],}, },
      divisions: [],
    };
    """
    assert parse_assignment(text) == {"config": {"event_name": "SPC", "max_rounds": 31,
                                                 "tables": {"A": [1, 2]}}, "divisions": []}


def test_latin1_text_from_an_older_perl_is_read_not_refused():
    assert parse_assignment('newt={"name":"Lamb\xe9, Ren\xe9"};'.encode("latin-1")) == {
        "name": "Lambé, René"}
    assert parse_assignment("\ufeffnewt={\"n\":\"Ren\u00e9\"}".encode("utf-8")) == {"n": "René"}


def test_one_bad_byte_garbles_only_its_own_string():
    """Issue 26: the whole file was read as Latin-1 for one byte that was not UTF-8, so every
    accented name in it came out garbled ("RenÃ©")."""
    raw = ('newt={"a":"Ren\u00e9 Cr\u00e9peau","b":"Lamb'.encode("utf-8") + b"\xe9"
           + '","c":"\u0141ukasz","d":"Zo\u00eb"};'.encode("utf-8"))
    assert parse_assignment(raw) == {"a": "René Crépeau", "b": "Lambé", "c": "Łukasz",
                                     "d": "Zoë"}


def test_numbers_longer_than_python_reads_as_ints_are_floats_not_a_crash():
    """Issue 26: int() refuses more than 4,300 digits (ValueError): the hub died at start."""
    assert parse_assignment("newt={\"n\":" + "7" * 5000 + "};") == {"n": math.inf}
    assert parse_literal("[" + "1" * 5000 + ", 0x" + "f" * 5000 + ", -" + "9" * 200 + "]") == [
        math.inf, math.inf, -float("9" * 200)]
    assert parse_literal("[.5, " + "2" * 5000 + "]") == [0.5, math.inf]  # the reader's path


def test_more_values_than_any_event_has_are_refused(monkeypatch):
    from adjudicator.hub import jsliteral

    monkeypatch.setattr(jsliteral, "MAX_TOKENS", 1000)
    with pytest.raises(JSLiteralError, match="more than 1,000 values"):
        parse_assignment("newt=[" + "{}," * 1000 + "];")  # trailing comma: not JSON
    with pytest.raises(JSLiteralError, match="more than 1,000 values"):
        parse_assignment("newt=[" + "{}," * 1000 + "{}];")  # JSON: the count is checked first
    with pytest.raises(JSLiteralError, match="more than 1,000 values"):
        parse_assignment("newt=['" + "\\n" * 1000 + "'];")  # escapes count too (not JSON)
    assert len(parse_assignment("newt=[" + "{}," * 300 + "{}];")) == 301


def test_undefined_inside_a_string_stays_text():
    assert parse_assignment('newt={"a":"undefined","b":undefined};') == {
        "a": "undefined", "b": None}


def test_a_stop_ends_the_reading_at_once():
    import threading

    stop = threading.Event()
    stop.set()
    with pytest.raises(JSLiteralError, match="stopping"):
        parse_assignment("newt=[" + "1," * 10_000 + "];", stop=stop)


@pytest.mark.parametrize("text, said", [
    ('newt={"a":[1,2', "ends in the middle"),
    ('newt={"a":"cut sho', "never ends"),
    ('newt={"a":', "ends in the middle"),
    ('newt={"a"', "ends in the middle"),
    ("newt=alert(1);", "is not a value"),
    ('newt={"a":1}} x', "after the data"),
    ('newt={"a" 1}', "expected :"),
    ("newt=[1 2]", "expected , or ]"),
    ("x = 1;", "no `newt = ...`"),
    ("newt=" + "[" * 500 + "]" * 500, "nested more than"),
    ("newt={@}", "unexpected '@'"),
])
def test_what_is_not_data_is_refused_naming_where(text, said):
    with pytest.raises(JSLiteralError, match=said):
        parse_assignment(text)


def test_every_cut_of_a_file_is_refused_never_misread():
    text = 'newt={"config":{"tables":{"A":[1,2]}},"divisions":[{"name":"A","players":' \
           '[undefined,{"id":1,"name":"Smith, Ann","pairings":[2]}]}]};'
    whole = parse_assignment(text)
    for cut in range(len("newt="), len(text) - 1):
        try:
            part = parse_assignment(text[:cut])
        except JSLiteralError:
            continue
        assert part == whole  # only the trailing ";" may go
