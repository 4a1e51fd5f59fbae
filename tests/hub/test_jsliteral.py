"""tsh's tourney.js read as JavaScript data, never run: every form tsh's writer emits, and more."""

from __future__ import annotations

import math

import pytest

from adjudicator.hub.jsliteral import JSLiteralError, decode_text, parse_assignment, parse_literal


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
    assert parse_assignment(decode_text('newt={"name":"Lamb\xe9, Ren\xe9"};'.encode("latin-1"))
                            ) == {"name": "Lambé, René"}
    assert decode_text("newt={\"n\":\"Ren\u00e9\"}".encode("utf-8")) == 'newt={"n":"René"}'


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
