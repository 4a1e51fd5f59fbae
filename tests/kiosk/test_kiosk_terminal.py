"""The kiosk's input splitter and parser: whole pastes and whole sequences, whatever the reads.

Issue 21: Textual typed the characters of a sequence it did not know ("ESC [ 8 ; 0 ; 0 t" put
"[8;0;0t" into the entry, "ESC [ 3 ;" then "c" put "[3;c") and typed Alt+X as "x". Here every
split is checked without a terminal (a fake clock); tests/kiosk/test_kiosk_pty_controls.py does
the same through a real pseudo-terminal.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual import events

from kiosk.sequences import (
    ESCAPE_DELAY,
    PASTE_END,
    PASTE_KEEP,
    PASTE_QUIET,
    PASTE_START,
    SEQUENCE_QUIET,
    Sequence,
    TerminalInput,
)
from kiosk.terminal import KioskParser, clamp_size, decoder
from kiosk.typed import Typed, plain_runs


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def run(terminal: TerminalInput, *reads: str) -> list:
    out = []
    for text in reads:
        for part in terminal.split(text):
            if isinstance(part, events.Paste):
                out.append(part.text)
            elif isinstance(part, events.Key):
                out.append(("key", part.key))
            elif isinstance(part, Sequence):
                out.append(("seq", str(part)))
            else:
                out.append(("keys", part))
    return out


def typed(*reads: str, gap: float = 0.0) -> str:
    """What the entry box would get from READS (GAP seconds of silence apart, each found by a
    look at the terminal): the printable keys."""
    clock, parser = Clock(), KioskParser()
    terminal = TerminalInput(clock=clock)
    text = ""
    looks = [look for read in reads for look in ((read, "") if gap else (read,))]
    for read in (*looks, "", ""):
        for part in terminal.split(read):
            if isinstance(part, Sequence):
                messages = parser.sequence_events(part)
            elif isinstance(part, str):
                messages = parser.text_events(part)
            else:
                messages = [part]
            for m in [key for m in messages
                      for key in (m.keys() if isinstance(m, Typed) else [m])]:
                if isinstance(m, events.Key) and m.is_printable:
                    text += m.character
        clock.now += gap if read else max(gap, SEQUENCE_QUIET, PASTE_QUIET)
    return text


def test_an_esc_in_a_paste_never_hides_its_end():
    """Textual's parser read ESC [ 2 0 1 ~ after an ESC in the paste as one long sequence."""
    assert run(TerminalInput(), f"ab{PASTE_START}x\x1by\x1b{PASTE_END}qi\t") == [
        ("keys", "ab"), "x\x1by\x1b", ("keys", "qi\t")]


def test_markers_cut_by_a_read_are_joined():
    assert run(TerminalInput(), "q" + PASTE_START[:3], PASTE_START[3:] + "za" + PASTE_END[:4],
               PASTE_END[4:] + "i") == [("keys", "q"), "za", ("keys", "i")]


def test_a_paste_that_never_ends_ends_after_a_quiet_moment():
    clock = Clock()
    terminal = TerminalInput(clock=clock)
    assert run(terminal, PASTE_START + "qi za") == []
    clock.now += PASTE_QUIET
    assert run(terminal, "") == ["qi za"]
    assert run(terminal, "cat") == [("keys", "cat")]


def test_a_lone_esc_is_the_escape_key_after_the_escape_delay():
    clock = Clock()
    terminal = TerminalInput(clock=clock)
    assert run(terminal, "\x1b") == []
    assert run(terminal, "") == []  # no time has passed: it may begin a sequence
    clock.now += ESCAPE_DELAY
    assert run(terminal, "") == [("key", "escape")]
    assert run(terminal, "\x1b") == []
    clock.now += ESCAPE_DELAY
    assert run(terminal, "", "a") == [("key", "escape"), ("keys", "a")]  # a key after a pause


def test_bytes_read_late_are_never_silence():
    """Issue 28: the timers ran on the clock of reading, so a stalled or busy kiosk counted as
    silence. Only a look that finds nothing ("") is silence; what was waiting goes on."""
    clock = Clock()
    terminal = TerminalInput(clock=clock)
    assert run(terminal, "qi\x1b") == [("keys", "qi")]
    clock.now += 1.5  # stalled: the rest of the sequence came meanwhile
    assert run(terminal, "[D") == [("seq", "\x1b[D")]  # the arrow key, not "[D" typed
    assert run(terminal, "\x1b[<0;41;") == []
    clock.now += 5 * SEQUENCE_QUIET
    assert run(terminal, "23M") == [("seq", "\x1b[<0;41;23M")]
    assert run(terminal, PASTE_START) == []
    clock.now += 3 * PASTE_QUIET
    assert run(terminal, "cat\txu" + PASTE_END) == ["cat\txu"]  # a paste, never keys
    terminal.waiting()  # the reader handed everything on, then waited...
    clock.now += PASTE_QUIET
    assert run(terminal, "\x1b[") == []
    clock.now += 1.0
    terminal.waiting()  # ...busy again (no look found nothing): the cut sequence waits
    clock.now += ESCAPE_DELAY / 2
    assert run(terminal, "") == []
    clock.now += ESCAPE_DELAY / 2
    assert run(terminal, "") == [] and terminal.dropped == 1  # now it was silence: dropped


def test_a_huge_paste_is_kept_only_up_to_paste_keep():
    out = run(TerminalInput(), PASTE_START, "q" * (PASTE_KEEP + 10), PASTE_END)
    assert [len(t) for t in out] == [PASTE_KEEP]


@pytest.mark.parametrize("reads", [
    ("qi\x1b[8;0;0tza",),  # a window-size report (CSI 8 t): issue 21
    ("qi\x1b[3;", "cza"),  # cut by the read; "c" came later (the test clock: 0.2 s)
    ("qi\x1b", "[3;c", "za"),  # (cut after ESC or ESC [: the next read within ESCAPE_DELAY)
    ("qi\x1b[", "3", ";", "c", "za"),
    ("qi\x1b[?1;2c" "za",),  # a device-attributes answer
    ("qi\x1b]11;rgb:0000/0000/0000\x1b\\za",),  # an OSC answer, ended by ST
    ("qi\x1b]0;TITLE\x07za",),  # ended by BEL
    ("qi\x1bP1$r0m\x1b\\za",),  # DCS
    ("qi\x1b_APPLICATION\x1b\\za",),  # APC
    ("qi\x1b(Bza",),  # ESC ( B
    ("qi\x9b3;cza",),  # 8-bit CSI
    ("qi\x1b[" + "1;" * 100 + "tza",),  # longer than any sequence kept
    ("qi\x1b[Mabcza",),  # an old-style mouse report: three bytes after ESC [ M
    ("qi\x1bxza",), ("qi\x1bqza",), ("qi\x1bQza",), ("qi\x1b1za",),  # Alt chords
    ("qi\x1b", "x", "za"),  # an Alt chord cut by a read
])
def test_a_sequence_the_kiosk_does_not_use_is_swallowed_whole(reads):
    # 0.2 s between reads once a sequence has begun (ESC [ 3 ;); within the escape delay
    # while it is only ESC or ESC [ (after that, ESC alone is the Escape key)
    gap = 0.2 if len(reads) > 1 and reads[0].endswith(";") else ESCAPE_DELAY / 2
    assert typed(*reads, gap=gap) == "qiza"


def test_a_paste_after_a_cut_mouse_report_is_still_a_paste():
    """An old-style mouse report cut short (its bytes are never ESC) must not eat the paste's
    start: the fuzz test's 100 KB paste was typed as 100,000 keys."""
    assert run(TerminalInput(), "\x1b[Ma" + PASTE_START + "qi za" + PASTE_END + "x") == [
        "qi za", ("keys", "x")]


def test_a_sequence_cut_half_way_is_dropped_after_a_quiet_moment_then_typing_goes_on():
    assert typed("qi\x1b[3;", "za", gap=SEQUENCE_QUIET) == "qiza"
    assert typed("qi\x1b[", "za", gap=ESCAPE_DELAY) == "qiza"  # an Alt+[ chord, then typing


def test_keys_mouse_and_reports_are_still_understood():
    parser, terminal = KioskParser(), TerminalInput()
    got = []
    for part in terminal.split("\x1b[A\x1b[1;5C\x1bOP\x1b[[A\x1b[Z\x1b[<0;5;5M\x1b[I\x1b[O"
                               "\x1b[99;5u\x1b[?2026;2$y\x1b[48;24;80;0;0t"):
        got += parser.sequence_events(part) if isinstance(part, Sequence) else [part]
    names = [getattr(m, "key", type(m).__name__) for m in got]
    assert names == ["up", "ctrl+right", "f1", "f1", "shift+tab", "MouseDown", "AppFocus",
                     "AppBlur", "ctrl+c", "TerminalSupportsSynchronizedOutput", "Resize"]


def test_sizes_are_clamped():
    assert clamp_size(0, 0) == (80, 25)
    assert clamp_size(99999, 99999) == (1000, 500)
    assert clamp_size(80, 24) == (80, 24)


PIECES = ["q", "i", " ", "\t", "\r", "\x7f", "\x1b", "[", "O", "]", "P", "\\", "\x07", "3", ";",
          "<", "M", "m", "~", "200~", "201~", "c", "t", "u", "A", "\x9b", "\x9d", "\u202e", "é"]


def flat(parts) -> list:
    """Parts with adjacent text joined (a read's cut may split text, nothing else)."""
    out: list = []
    for p in parts:
        if isinstance(p, events.Paste):
            p = ("paste", p.text)
        elif isinstance(p, events.Key):
            p = ("key", p.key)
        elif isinstance(p, Sequence):
            p = ("seq", str(p))
        if isinstance(p, str) and out and isinstance(out[-1], str):
            out[-1] += p
        else:
            out.append(p)
    return out


@given(st.lists(st.sampled_from(PIECES), max_size=40), st.lists(st.integers(0, 200), max_size=6))
@settings(max_examples=300, deadline=None)
def test_however_the_reads_cut_the_input_it_splits_the_same(pieces, cuts):
    """Reads cut anywhere, with no time between them, give what one read gives."""
    text = "".join(pieces)
    whole = TerminalInput(clock=Clock())
    expected = flat(whole.split(text) + whole.split(""))
    terminal = TerminalInput(clock=Clock())
    got, start = [], 0
    for cut in sorted(c for c in cuts if c <= len(text)) + [len(text)]:
        got += terminal.split(text[start:cut])
        start = cut
    assert flat(got + terminal.split("")) == expected
    for part in expected:  # no character of a sequence ever comes out as text
        assert not isinstance(part, str) or "\x1b" not in part


@given(st.lists(st.sampled_from(PIECES), max_size=30))
@settings(max_examples=300, deadline=None)
def test_whatever_came_before_a_paste_it_is_pasted_whole(junk):
    """A sequence cut short, a control string left open, an Alt chord: none eats a paste."""
    parts = flat(TerminalInput(clock=Clock()).split("".join(junk) + PASTE_START + "qi za"
                                                  + PASTE_END + "x"))
    assert parts[-1] == "x"  # typed after the paste: a key again
    pastes = [p for p in parts if isinstance(p, tuple) and p[0] == "paste"]
    assert pastes and pastes[-1][1].endswith("qi za")


@pytest.mark.parametrize(("reads", "expected"), [
    # issue 28 (a): a kitty terminal sending no associated text lost spaces and Shift+letters
    (("\x1b[99u\x1b[97u\x1b[116u\x1b[32u\x1b[120u\x1b[117u",), "cat xu"),
    (("\x1b[99;2u\x1b[97:65;2u\x1b[116;2;84u",), "CAT"),  # Shift; its alternate; its text
    (("\x1b[99;65u\x1b[97;129u",), "ca"),  # caps lock and num lock change nothing
    (("q\x1b[105;1:2u\x1b[105;1:3u",), "qi"),  # a repeat types; a release does not
    # (c): a chord never types its letter, whatever the terminal adds
    (("cat\x1b[27;3;120~\x1b[120;3;120u\x1b[120;5u\x1b[120;9u xu",), "cat xu"),
    (("\x1b[27;2;81~\x1b[27;1;105~",), "Qi"),  # modifyOtherKeys: Shift is no chord
    # (d): malformed or out of range: nothing, and the rest of the read goes on
    (("\x1b[97;1:3:9u\x1b[1114112u\x1b[97;;55296u\x1b[57399;5u\x1b[1:2;5Acat",), "cat"),
    (("\x1b[" + "9" * 40 + "uqi",), "qi"),
])
def test_keys_reported_as_codes_type_what_they_stand_for(reads, expected):
    assert typed(*reads) == expected


def test_command_keys_reported_as_codes_keep_their_names():
    parser = KioskParser()
    names = [key.key for seq in ("\x1b[9u", "\x1b[9;2u", "\x1b[13u", "\x1b[127u", "\x1b[27u",
                                 "\x1b[27;2;9~", "\x1b[99;5u", "\x1b[120;3u")
             for key in parser.sequence_events(seq)]
    assert names == ["tab", "shift+tab", "enter", "backspace", "escape", "shift+tab", "ctrl+c",
                     "alt+x"]


def test_printable_characters_read_together_are_one_event_cut_by_every_other_key():
    """Issue 28 (5e): a key event a character made 600 KB of typing stall the kiosk for minutes.
    A run of printable characters is one Typed; a control (TAB, BACKSPACE, ENTER) or a format
    character (zero-width space) is a key of its own, in its place."""
    parser = KioskParser()
    got = [(type(m).__name__, m.text if isinstance(m, Typed) else m.key)
           for m in parser.text_events("za q\x7fqi\u200b\u00e9\t")]
    assert got == [("Typed", "za q"), ("Key", "backspace"), ("Typed", "qi"),
                   ("Key", "zero_width_space"), ("Typed", "\u00e9"), ("Key", "tab")]
    assert [k.key for k in parser.text_events("a b")[0].keys()] == ["a", "space", "b"]
    assert plain_runs("") == [] and plain_runs("x" * 100_000) == [(True, "x" * 100_000)]


@pytest.mark.parametrize("raw", [
    b"ca\x9d0;ACCEPTABLE\x07t",  # 8-bit OSC, ended by BEL (issue 36: typed `ca0;ACCEPTABLEt`)
    b"ca\x9d0;TITLE\x9ct",  # ended by the 8-bit ST
    b"ca\x9d0;TITLE\x1b\\t",  # by the 7-bit ST
    b"ca\x9b1;5Ct",  # 8-bit CSI (Ctrl+Right)
    b"ca\x903$r0m\x9ct",  # DCS
    b"ca\x98start of string\x9ct", b"ca\x9eprivacy\x9ct", b"ca\x9fapplication\x07t",  # SOS PM APC
    b"ca\x85t",  # a C1 control alone (NEL): no key that types
])
def test_raw_8bit_control_introducers_are_read_as_their_7bit_forms(raw):
    """Bytes 80-9f are not UTF-8: they were replaced by U+FFFD and the rest of the sequence
    typed. The kiosk's decoder reads them as the C1 controls they are (kiosk/terminal.py)."""
    decode = decoder()
    text = "".join(decode(raw[i:i + 1]) for i in range(len(raw)))  # cut at every byte too
    assert typed(text) == "cat"
    assert typed(decoder()(raw)) == "cat"


def test_other_bytes_that_are_not_utf8_are_still_replaced():
    assert decoder()(b"\xe9a\xff\xa9") == "\ufffda\ufffd\ufffd"
    assert decoder()("é✔".encode()) == "é✔"  # UTF-8 untouched
