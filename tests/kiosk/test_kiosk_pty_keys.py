"""What was typed is what is judged, through a real pseudo-terminal (issue 28, item 5).

(a) A terminal speaking the kitty keyboard protocol without associated text lost every space and
Shift+letter: `cat xu` as CSI 99 u ... was journaled CATXU. (b) The escape and paste timers ran
on the clock of reading: 1,500 clicks in one write typed their characters into the entry, a
stall under mouse motion and arrow keys typed D and C, and a paste read late was typed as keys
and its TAB judged. (c) Alt+x as modifyOtherKeys or kitty typed "x". (d) A malformed kitty
report dropped the rest of its read, and the error never reached the kiosk log.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
from pty_driver import (
    PtyApp,
    hooked_env,
    kiosk_argv,
    kiosk_child,
    ready_station,
    station_config,
)

from pty_screen import Shown

from adjudicator.journal import Journal
from adjudicator.supervisor.child import log_path

PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"
ENTRY_ERRORS = (b"No words entered", b"has 1 letter", b"is not a letter", b"Not taken")
KITTY_CAT_XU = b"\x1b[99u\x1b[97u\x1b[116u\x1b[32u\x1b[120u\x1b[117u"


def kitty(text: str, modifiers: int = 1) -> bytes:
    """TEXT as a kitty terminal without associated text sends it (Shift: upper case keys)."""
    out = b""
    for ch in text:
        mods = modifiers + (1 if ch.isupper() else 0)
        suffix = f";{mods}" if mods > 1 else ""
        out += f"\x1b[{ord(ch.lower())}{suffix}u".encode()
    return out


@pytest.fixture
def kiosk(tmp_path):
    yield from ready_station(tmp_path)


def judge(app: PtyApp, burst: bytes, journal: str, count: int) -> tuple[str, ...]:
    """BURST (ending in the judging key) written at once; the words journaled as row COUNT."""
    shown = Shown(app)
    mark = len(app.screen)
    app.write(burst)
    app.read_until(b"the play is", start=mark, fail_on=ENTRY_ERRORS)
    with Journal.open(journal) as j:
        assert j.count() == count, f"{burst[:80]!r}: {j.count()} rows, not {count}"
        words = j.get(count).words
    shown.wait("next challenge")  # the hold is over: keys are taken
    app.write(b" ")
    shown.wait(f"station: {count}", absent="the play is")
    return words


def test_kitty_key_reports_type_spaces_and_shift_letters_and_the_protocol_is_not_asked(kiosk):
    app, journal = kiosk
    assert b"\x1b[>" not in bytes(app.screen)  # the station asks for no kitty flags
    assert judge(app, KITTY_CAT_XU + b"\t", journal, 1) == ("CAT", "XU")
    assert judge(app, KITTY_CAT_XU + b"\x1b[9u", journal, 2) == ("CAT", "XU")  # TAB as CSI 9 u
    assert judge(app, kitty("Qi Za") + b"\x1b[9u", journal, 3) == ("QI", "ZA")
    # the associated text, and a release (event 3) that types nothing
    burst = b"\x1b[113;;113u\x1b[113;1:3u\x1b[105;2:1;73u\x1b[105;1:3u\t"
    assert judge(app, burst, journal, 4) == ("QI",)


def test_a_modified_key_never_types_its_letter(kiosk):
    app, journal = kiosk
    assert judge(app, b"cat\x1b[27;3;120~ xu\t", journal, 1) == ("CAT", "XU")  # modifyOtherKeys
    assert judge(app, b"cat\x1b[120;3;120u xu\t", journal, 2) == ("CAT", "XU")  # kitty, text
    assert judge(app, b"cat\x1b[120;5u\x1b[27;5;120~ xu\t", journal, 3) == ("CAT", "XU")  # Ctrl
    assert judge(app, b"\x1b[27;2;81~i\t", journal, 4) == ("QI",)  # Shift is not a chord


@pytest.mark.parametrize("bad", [b"\x1b[97;1:3u", b"\x1b[97;1:3:9u", b"\x1b[1114112u",
                                 b"\x1b[1:2;5A", b"\x1b[97;1;55296u", b"\x1b[" + b"9" * 40 + b"u"])
def test_a_malformed_key_report_drops_itself_only(kiosk, bad):
    app, journal = kiosk
    assert judge(app, bad + b"cat xu\t", journal, 1) == ("CAT", "XU")
    assert judge(app, b"qi" + bad + b" za\t", journal, 2) == ("QI", "ZA")


# A kiosk whose parser fails on one sequence: what a failure there does, wherever it comes from.
FAILING = """
import kiosk.terminal as terminal

original = terminal.KioskParser.sequence_events

def sequence_events(self, seq):
    if seq == "\\x1b[999u":
        raise ValueError("a parser failure, for the test")
    return original(self, seq)

terminal.KioskParser.sequence_events = sequence_events
"""


def test_an_input_failure_drops_only_its_part_and_is_written_to_the_kiosk_log(tmp_path):
    config, journal = station_config(tmp_path)
    app = PtyApp(kiosk_argv(config), hooked_env(tmp_path, FAILING))
    try:
        app.read_until(b"press TAB.")
        assert judge(app, b"cat\x1b[999u xu\t", journal, 1) == ("CAT", "XU")
        with open(log_path(journal), encoding="utf-8") as f:
            said = f.read()
        assert "terminal input not understood" in said and "a parser failure" in said
        assert app.proc.poll() is None
    finally:
        app.close()


def stalled(app: PtyApp, *writes: bytes, seconds: float) -> None:
    """The kiosk stopped while WRITES arrive (SECONDS in all), then running again."""
    child = kiosk_child(app)
    os.kill(child, signal.SIGSTOP)
    try:
        for data in writes:
            app.write(data)
            time.sleep(seconds / len(writes))
    finally:
        os.kill(child, signal.SIGCONT)


def test_a_flood_of_clicks_in_one_write_types_nothing(kiosk):
    app, journal = kiosk
    app.write(b"cat xu")
    app.write(b"\x1b[<0;41;12M\x1b[<0;41;12m" * 1600)  # on the big letters: nothing to press
    assert judge(app, b"\t", journal, 1) == ("CAT", "XU")
    app.write(b"cat xu")
    app.drain(0.2)
    mark = len(app.screen)
    app.write(b"\x1b[<0;41;23M\x1b[<0;41;23m" * 1600)  # on ADJUDICATE: one challenge
    app.read_until(b"the play is", start=mark)
    app.drain(3.0)
    with Journal.open(journal) as j:
        assert j.count() == 2 and j.get(2).words == ("CAT", "XU")


def test_a_stall_under_mouse_motion_and_arrow_keys_types_nothing(kiosk):
    app, journal = kiosk
    app.write(b"cat xu")
    app.drain(0.2)
    noise = b"".join(f"\x1b[<35;{10 + i % 60};{5 + i % 10}M".encode() + b"\x1b[D\x1b[C"
                     for i in range(600))
    stalled(app, noise[: len(noise) // 2], noise[len(noise) // 2:], seconds=1.5)
    assert judge(app, b"\t", journal, 1) == ("CAT", "XU")


def test_a_paste_read_late_is_a_paste_and_its_tab_never_judges(kiosk):
    app, journal = kiosk
    app.write(PASTE_START)
    app.drain(0.1)  # its start is read; then the kiosk stalls and the body comes
    stalled(app, b"cat\txu\r\nqi\t", PASTE_END, seconds=0.8)
    app.drain(1.0)
    with Journal.open(journal) as j:
        assert j.count() == 0  # nothing judged by the pasted TAB
    assert judge(app, b"\t", journal, 1) == ("CAT", "XU")  # the first line, TAB a separator
