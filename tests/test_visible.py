"""visible(): every control or invisible character as a one-cell picture, one for one (issue 21)."""

from __future__ import annotations

import unicodedata

import pytest
from rich.cells import cell_len

from adjudicator.text.entry import parse_entry
from adjudicator.errors import EntryError
from adjudicator.text.visible import DEL_PICTURE, OTHER_PICTURE, is_hidden, visible

HIDDEN = ["\x00", "\x07", "\t", "\n", "\r", "\x1b", "\x1f", "\x7f", "\x80", "\x85", "\x9b",
          "\x9f", "\u00ad", "\u061c", "\u200b", "\u200c", "\u200d", "\u200e", "\u202a", "\u202e",
          "\u2028", "\u2029", "\u2060", "\u2066", "\u2069", "\ufeff", "\U000e0001", "\ue000",
          "\U0010fffd", "\ud800", "\U000effff"]


@pytest.mark.parametrize("ch", HIDDEN, ids=lambda ch: f"U+{ord(ch):04X}")
def test_each_control_or_invisible_character_becomes_one_visible_cell(ch):
    shown = visible(f"ca{ch}t")
    assert len(shown) == 4 and shown[:2] == "ca" and shown[3] == "t"
    assert is_hidden(ch) and not is_hidden(shown[2])
    assert cell_len(shown) == 4 and shown[2].isprintable()


def test_the_pictures():
    assert visible("cat\x1bxu") == "cat\u241bxu"  # ␛, as the issue saw it in the box
    assert visible("\x00\t\x1f") == "\u2400\u2409\u241f"
    assert visible("\x7f") == DEL_PICTURE
    assert visible("\u202e\x85") == OTHER_PICTURE * 2


@pytest.mark.parametrize("text", ["qi za", "QI, ZA", "caf\u00e9", "\u00a0", "\u4e2d\u6587",
                                  "\u241b", "e\u0301"])
def test_what_a_terminal_draws_as_it_is_is_left_alone(text):
    assert visible(text) == text


def test_every_code_point_a_screen_would_act_on_is_hidden():
    for code in range(0x110000):
        ch = chr(code)
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            assert visible(ch) != ch, f"U+{code:04X}"


@pytest.mark.parametrize("ch", [c for c in HIDDEN if c != "\t"], ids=lambda ch: f"U+{ord(ch):04X}")
def test_an_entry_holding_one_is_malformed_and_named_by_its_code(ch):
    with pytest.raises(EntryError) as e:
        parse_entry(f"cat{ch}xu")
    assert f"U+{ord(ch):04X}" in str(e.value)
