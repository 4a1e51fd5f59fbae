"""What a terminal can send never ends the kiosk: invalid UTF-8, a zero-size window and a click.

On today's main the bytes e9 61 (a Latin-1 "é", then "a") ended `adjudicator kiosk` with a
traceback on the players' screen and exit status 0, and a zero-size resize followed by a click
raised ZeroDivisionError. Each test writes the bytes to a real pseudo-terminal, then checks that
the station still judges "qi<TAB>" right, and that the undecodable byte never became a letter.
"""

from __future__ import annotations


import pytest
from pty_driver import PtyApp, ready_station

from adjudicator.journal import Journal

ENTRY_ERRORS = (b"No words entered", b"has 1 letter", b"is not a letter", b"Traceback")


@pytest.fixture
def kiosk(tmp_path):
    yield from ready_station(tmp_path)


def judge(app: PtyApp, journal_path: str, burst: bytes = b"qi\t") -> tuple[tuple[str, ...], bool]:
    """Type BURST on a Ready station; the words and verdict recorded last."""
    mark = len(app.screen)
    app.write(burst)
    app.read_until(b"the play is", start=mark, fail_on=ENTRY_ERRORS, timeout=60)
    with Journal.open(journal_path) as journal:
        row = journal.recent(1)[0]
    return row.words, row.acceptable


def test_invalid_utf8_is_never_typed_and_never_ends_the_kiosk(kiosk):
    app, journal = kiosk
    app.write(b"\xe9a")  # e9 61: not UTF-8
    app.drain(0.5)
    assert app.proc.poll() is None, "the kiosk ended on e9 61"
    app.write(b"\x7f")  # the "a" was typed; the undecodable byte was not
    assert judge(app, journal) == (("QI",), True)
    app.drain(0.3)  # past the verdict's hold
    mark = len(app.screen)
    app.write(b" ")  # SPACE: back to Ready
    app.read_until(b"station: 1", start=mark)
    mark = len(app.screen)
    app.write(b"z\xffa\xc3\t")  # a cut sequence at the end of a burst too
    app.read_until(b"the play is", start=mark, fail_on=ENTRY_ERRORS)
    with Journal.open(journal) as j:
        assert j.recent(1)[0].words == ("ZA",)
    assert app.proc.poll() is None
    assert b"Traceback" not in app.screen


def test_a_zero_size_window_then_a_click_never_ends_the_kiosk(kiosk):
    app, journal = kiosk
    app.write(b"\x1b[48;0;0;0;0t")  # an in-band window-size report: 0 x 0 cells, 0 x 0 pixels
    app.drain(0.3)
    app.write(b"\x1b[<0;5;5M\x1b[<0;5;5m")  # a click (SGR mouse report): it divided by zero
    app.drain(0.5)
    assert app.proc.poll() is None, "the kiosk ended on a click after a zero-size report"
    app.resize(0, 0)  # the terminal device itself says 0 x 0
    app.drain(0.3)
    app.write(b"\x1b[<0;5;5M\x1b[<0;5;5m")
    app.drain(0.3)
    app.resize(80, 24)
    app.drain(0.3)
    assert judge(app, journal) == (("QI",), True)
    assert app.proc.poll() is None
    assert b"Traceback" not in app.screen


def test_huge_sizes_are_clamped_and_the_kiosk_keeps_judging(kiosk):
    app, journal = kiosk
    app.write(b"\x1b[48;99999;99999;0;0t")  # in-band: 99,999 x 99,999 cells
    app.resize(65535, 65535)  # and the device: 65,535 x 65,535
    app.drain(0.5)
    app.resize(80, 24)
    app.drain(0.3)
    assert judge(app, journal) == (("QI",), True)
    assert app.proc.poll() is None


def test_raw_8bit_sequences_are_swallowed_whole(kiosk):
    """Issue 36: bytes 9d, 9b, 90 (8-bit OSC, CSI, DCS; not UTF-8) were dropped and the rest of
    the sequence typed: `ca` 9d `0;ACCEPTABLE` BEL `t` made the entry `ca0;ACCEPTABLEt`, and a
    300 KB 8-bit OSC typed its base64 into the entry."""
    app, journal = kiosk
    assert judge(app, journal, b"ca\x9d0;ACCEPTABLE\x07t\t") == (("CAT",), True)
    for burst, words in ((b"q\x9b1;5Ci\x90$q\"p\x9c za\t", ("QI", "ZA")),
                         (b"z\x9d52;c;" + b"QUNDRVBUQUJMRQ" * 22_000 + b"\x07a\t", ("ZA",))):
        app.drain(0.3)  # past the verdict's hold
        mark = len(app.screen)
        app.write(b" ")  # SPACE: back to Ready
        app.read_until(b"press TAB.", start=mark)
        assert judge(app, journal, burst)[0] == words
    assert app.proc.poll() is None
