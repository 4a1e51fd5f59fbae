"""KioskDriver's paste splitter: whole pastes out of the input, whatever they hold or lack."""

from __future__ import annotations

from textual import events

from kiosk.terminal import PASTE_END, PASTE_KEEP, PASTE_QUIET, PASTE_START, Pastes, clamp_size


def run(pastes: Pastes, *reads: str) -> list:
    out = []
    for text in reads:
        out += [p.text if isinstance(p, events.Paste) else ("keys", p) for p in pastes.split(text)]
    return out


def test_an_esc_in_a_paste_never_hides_its_end():
    """Textual's parser read ESC [ 2 0 1 ~ after an ESC in the paste as one long sequence."""
    assert run(Pastes(), f"ab{PASTE_START}x\x1by\x1b{PASTE_END}qi\t") == [
        ("keys", "ab"), "x\x1by\x1b", ("keys", "qi\t")]


def test_markers_cut_by_a_read_are_joined():
    assert run(Pastes(), "q" + PASTE_START[:3], PASTE_START[3:] + "za" + PASTE_END[:4],
               PASTE_END[4:] + "i") == [("keys", "q"), "za", ("keys", "i")]


def test_a_paste_that_never_ends_ends_after_a_quiet_moment():
    now = [0.0]
    pastes = Pastes(clock=lambda: now[0])
    assert run(pastes, PASTE_START + "qi za") == []
    now[0] += PASTE_QUIET
    assert run(pastes, "") == ["qi za"]
    assert run(pastes, "cat") == [("keys", "cat")]


def test_a_lone_esc_waits_one_read_then_is_a_key():
    pastes = Pastes()
    assert run(pastes, "\x1b") == []
    assert run(pastes, "") == [("keys", "\x1b")]


def test_a_huge_paste_is_kept_only_up_to_paste_keep():
    pastes = Pastes()
    out = run(pastes, PASTE_START, "q" * (PASTE_KEEP + 10), PASTE_END)
    assert [len(t) for t in out] == [PASTE_KEEP]


def test_sizes_are_clamped():
    assert clamp_size(0, 0) == (80, 25)
    assert clamp_size(99999, 99999) == (1000, 500)
    assert clamp_size(80, 24) == (80, 24)
