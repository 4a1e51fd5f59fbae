"""Golden bytes of the slip encoder, and what a runner reads off the slip (WESPA 3.11.2(a)(ix))."""

from __future__ import annotations

import pytest
from escpos_decode import DecodeError, decode

from adjudicator.docket import Slip, encode_slip, encode_test_slip, printable, status_request
from adjudicator.docket.encoder import CROSS, TICK
from adjudicator.errors import AdjudicatorError, ConfigError

ESC, GS = b"\x1b", b"\x1d"


def slip(**over) -> Slip:
    values = dict(event="Club Night", station="Station 1", number=12, time="14:03",
                  words=("QI", "ZA"), acceptable=True,
                  consequence="The play stands. Its player scores 10 extra points "
                              "(2 words x 5).",
                  lexicon_name="CSW21", short_fingerprint="0123456789ab")
    values.update(over)
    return Slip(**values)


def test_golden_bytes_58mm_acceptable():
    got = encode_slip(slip(table="7", round="3"), 32)
    tick = b"".join(row.encode("cp437") + b"\n" for row in TICK)
    expected = (
        ESC + b"@" + ESC + b"t\x00" + ESC + b"!\x00" + GS + b"!\x00" + ESC + b"E\x00"
        + ESC + b"a\x00"
        + ESC + b"a\x01" + ESC + b"E\x01" + b"Club Night\n" + ESC + b"E\x00" + b"Station 1\n"
        + ESC + b"a\x00" + b"=" * 32 + b"\n"
        + ESC + b"!\x18" + b"CHALLENGE #12\n" + ESC + b"!\x00"
        + b"Table 7" + b" " * 18 + b"Round 3\n"
        + b"Time 14:03\n"
        + b"-" * 32 + b"\n"
        + b"Words challenged:\n" + ESC + b"E\x01" + b"QI ZA\n" + ESC + b"E\x00"
        + b"-" * 32 + b"\n"
        + ESC + b"a\x01" + b"The play is\n" + ESC + b"E\x01"
        + GS + b"!\x11" + b"ACCEPTABLE\n" + GS + b"!\x00" + ESC + b"E\x00"
        + ESC + b"d\x01"
        + ESC + b"a\x01" + GS + b"!\x11" + tick + GS + b"!\x00"
        + ESC + b"a\x00" + b"-" * 32 + b"\n"
        + b"The play stands. Its player\nscores 10 extra points (2 words\nx 5).\n"
        + b"-" * 32 + b"\n"
        + b"Lexicon CSW21 0123456789ab\n"
        + ESC + b"d\x03" + GS + b"V\x42\x00"
    )
    assert got == expected


def test_encoder_is_pure():
    assert encode_slip(slip(), 48) == encode_slip(slip(), 48)


def test_status_requests_are_dle_eot_1_to_4():
    assert [status_request(n) for n in (1, 2, 3, 4)] == [
        b"\x10\x04\x01", b"\x10\x04\x02", b"\x10\x04\x03", b"\x10\x04\x04"]
    with pytest.raises(ValueError):
        status_request(5)


@pytest.mark.parametrize("columns", [32, 42, 48])
@pytest.mark.parametrize("acceptable", [True, False])
def test_runner_reads_the_whole_story(columns, acceptable):
    s = slip(acceptable=acceptable, table="14", round="3", recheck_of=9,
             words=("QUIXOTRY", "OX", "XI"),
             consequence="The play comes off the board: its player loses the turn."
             if not acceptable else slip().consequence)
    out = decode(encode_slip(s, columns), columns)  # also fails on any overflowing line
    assert out.commands[:2] == ["ESC @", "ESC t 0"]
    assert out.cuts == 1 and out.commands[-1].startswith("GS V")
    assert out.find("Club Night").bold and out.find("Club Night").align == "centre"
    assert out.find("Station 1")
    challenge = out.find("CHALLENGE #12")
    assert challenge.bold and challenge.height == 2
    assert out.find("RECHECK OF #9")
    assert out.find("Table 14") and out.find("Round 3") and out.find("Time 14:03")
    assert out.find("QUIXOTRY OX XI").bold
    word = "ACCEPTABLE" if acceptable else "UNACCEPTABLE"
    verdict = next(line for line in out.lines if line.text == word)
    assert (verdict.width, verdict.height, verdict.align) == (2, 2, "centre")
    art = TICK if acceptable else CROSS
    drawn = [line for line in out.lines if line.text in art]
    assert [line.text for line in drawn] == list(art)
    assert all(line.width == 2 and line.height == 2 for line in drawn)
    assert "REPRINT" not in " ".join(out.text)
    assert out.find("Lexicon CSW21 0123456789ab")
    joined = " ".join(out.text)
    assert "extra points" in joined or "comes off the board" in joined


def test_no_line_says_anything_about_a_single_word():
    """WESPA 3.11.2(a)(viii): the words appear once, together, and nothing follows any of them."""
    out = decode(encode_slip(slip(acceptable=False, words=("QI", "ZQX")), 48), 48)
    holding = [line.text for line in out.lines if "QI" in line.text or "ZQX" in line.text]
    assert holding == ["QI ZQX"]


def test_other_verdict_mark_never_printed():
    acc = decode(encode_slip(slip(acceptable=True), 32)).text
    unacc = decode(encode_slip(slip(acceptable=False), 32)).text
    assert not set(CROSS) & set(acc) and not set(TICK) & set(unacc)
    assert "UNACCEPTABLE" not in acc and "ACCEPTABLE" not in unacc


def test_reprint_is_marked_large_and_at_the_foot():
    out = decode(encode_slip(slip(reprint=True), 32), 32)
    big = next(line for line in out.lines if line.text == "REPRINT")
    assert (big.width, big.height) == (2, 2)
    assert out.find("REPRINT of challenge #12")


@pytest.mark.parametrize("columns", [32, 42, 48])
def test_long_names_wrap_and_nothing_overflows(columns):
    s = slip(event="The Extraordinarily Long Annual Invitational Scrabble Championship of 2026",
             station="Adjudication station at the far end of the hall", table="Top board 1",
             round="Quarter-final 3 of the knockout", number=123456789, recheck_of=123456788,
             words=("ABCDEFGHIJKLMNO",) * 8, lexicon_name="A-VERY-LONG-LEXICON-NAME-2026-EDITION")
    out = decode(encode_slip(s, columns), columns)
    assert out.find("CHALLENGE #123456789")
    assert sum(line.text.count("ABCDEFGHIJKLMNO") for line in out.lines) == 8


@pytest.mark.parametrize("columns", [0, 20, 23, 81, "48"])
def test_bad_columns_refused_with_a_config_error(columns):
    with pytest.raises(ConfigError) as e:
        encode_slip(slip(), columns)
    assert isinstance(e.value, AdjudicatorError) and "columns" in str(e.value)


def test_names_transliterated_and_control_codes_cannot_reach_the_wire():
    text = printable("Zürich – “Łódź” Open\x1bE\n\u4e2d")
    assert text == 'Zürich - "Lódz" Open?E ?'
    named = slip(event="Łódź \u2014 Open\x1d", station="Büro\x10\x04\x01")
    out = decode(encode_slip(named, 32), 32)
    assert out.find("Lódz - Open?") and out.find("Büro???")
    assert out.status_requests == []  # the DLE EOT smuggled in the name was neutralised


def test_decoder_refuses_unknown_commands():
    with pytest.raises(DecodeError):
        decode(b"\x1b@\x1bJ\x10hello\n")
    with pytest.raises(DecodeError):
        decode(b"\x1b@\x1bt\x00" + GS + b"!\x11" + b"X" * 20 + b"\n", 32)


def test_test_slip_says_not_a_verdict_and_shows_both_marks():
    out = decode(encode_test_slip(32, "/dev/ttyUSB0", "19200 baud"), 32)
    assert out.find("NOT A VERDICT")
    assert [line.text for line in out.lines if line.text in TICK] == list(TICK)
    assert [line.text for line in out.lines if line.text in CROSS] == list(CROSS)
    assert "1234567890123456789012345678901" + "2" in out.text
    assert out.find("Printer /dev/ttyUSB0")
    assert "ACCEPTABLE" not in out.text and "UNACCEPTABLE" not in out.text
