"""Nothing typed or pasted is drawn as a control; an unknown sequence or an Alt chord types nothing.

Issue 21, through a real pseudo-terminal whose screen is read back with pyte (a terminal
emulator): on main a bracketed paste of "qi ESC[44m ESC[1m ESC[6;25H  YES: ACCEPTABLE" drew a
blue, bold "YES: ACCEPTABLE" at row 6 of the Ready screen; on the runner's desk a paste wrote
"FAKE NOTICE" over the header; "cat ESC x u" showed "catu" while the box held "cat␛xu", its
border shifted. A window-size report ESC[8;0;0t put "[8;0;0t" into the entry, and Alt+X typed x.
Every control class is pasted here (C0, DEL, C1, ESC sequences, bidi overrides and isolates,
zero-width characters, U+FEFF, line and paragraph separators, other Cf, private use): the box
shows it as its picture (adjudicator/text/visible.py), nothing else on the screen changes, and TAB
refuses the entry naming the character by its code, never judging it.
"""

from __future__ import annotations

import time

import pyte
import pytest
from pty_driver import PtyApp, child_env, kiosk_argv, ready_station, station_config

from adjudicator.journal import Journal
from adjudicator.text.visible import visible

PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"
END, BS = b"\x1b[F", b"\x7f"
LEFT, RIGHT = "\u258a", "\u258e"  # the entry box's side borders (tall box, kiosk.tcss)

# one of each class; the entry "cat<X>xu" is pasted for each
CONTROLS = {
    "C0 BEL": "\x07", "C0 BS": "\x08", "C0 ESC": "\x1b", "C0 FS": "\x1c", "C0 VT": "\x0b",
    "DEL": "\x7f", "C1 NEL": "\x85", "C1 CSI": "\x9b", "C1 OSC": "\x9d",
    "bidi RLO": "\u202e", "bidi LRE": "\u202a", "bidi RLI": "\u2067", "bidi PDI": "\u2069",
    "ZWSP": "\u200b", "ZWJ": "\u200d", "WORD JOINER": "\u2060", "BOM": "\ufeff",
    "LINE SEPARATOR": "\u2028", "PARAGRAPH SEPARATOR": "\u2029", "SOFT HYPHEN": "\u00ad",
    "LANGUAGE TAG": "\U000e0001", "PRIVATE USE": "\ue000",
}


def emulate(app: PtyApp, cols: int = 80, rows: int = 24) -> pyte.Screen:
    """The screen as a terminal would show it now, from every byte the kiosk wrote."""
    screen = pyte.Screen(cols, rows)
    pyte.ByteStream(screen).feed(bytes(app.screen))
    return screen


def settle(app: PtyApp, seconds: float = 0.8) -> pyte.Screen:
    app.drain(seconds)
    return emulate(app)


def box_row(screen: pyte.Screen) -> tuple[int, str]:
    """(row, line) of the entry box's text: the line between its two border rows."""
    for y, line in enumerate(screen.display):
        if LEFT in line and RIGHT in line and "\u2594" not in line and "\u2581" not in line:
            return y, line
    raise AssertionError("no entry box on screen:\n" + "\n".join(screen.display))


def box_text(line: str) -> str:
    return line.split(LEFT, 1)[1].rsplit(RIGHT, 1)[0].strip()


def colours(screen: pyte.Screen) -> set[str]:
    return {char.bg for row in screen.buffer.values() for char in row.values()}


def judged(journal: str) -> int:
    with Journal.open(journal) as j:
        return j.count()


def wait_for(app: PtyApp, text: str, timeout: float = 30.0) -> pyte.Screen:
    """Read until TEXT is on the emulated screen (it may wrap at no other place)."""
    deadline = time.monotonic() + timeout
    while True:
        screen = emulate(app)
        if any(text in line for line in screen.display):
            return screen
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} not on screen:\n" + "\n".join(screen.display))
        app.drain(0.2)


def settled(app: PtyApp, shows, settle_for: float = 0.3, timeout: float = 30.0) -> pyte.Screen:
    """The screen once SHOWS(screen) holds and nothing changed for SETTLE_FOR s; after TIMEOUT,
    the screen as it is (the test's own assertions say what is wrong). A fixed wait read a busy
    kiosk's screen from before a paste: the Ready layout, its header not yet hidden for the entry."""
    deadline = time.monotonic() + timeout
    screen = settle(app, settle_for)
    while time.monotonic() < deadline:
        again = settle(app, settle_for)
        if again.display == screen.display and shows(again):
            return again
        screen = again
    return screen


def in_box(text: str):
    """SHOWS for settled(): the entry box shows TEXT."""
    return lambda screen: any(LEFT in line and text in line for line in screen.display)


def pasted(app: PtyApp, text: str) -> pyte.Screen:
    """The screen once TEXT is pasted into an emptied box (and shown there, as pictures)."""
    app.write(END + BS * 60)
    app.write(PASTE_START + text.encode() + PASTE_END)
    return settled(app, in_box(visible(text).strip()))


@pytest.fixture
def kiosk(tmp_path):
    yield from ready_station(tmp_path)


def test_a_paste_of_escape_sequences_draws_no_fake_verdict(kiosk):
    app, journal = kiosk
    before = settle(app)
    payload = "qi \x1b[44m\x1b[1m\x1b[6;25H  YES: ACCEPTABLE  "
    shown = pasted(app, visible(payload)).display  # the pictures themselves, pasted: no control
    screen = pasted(app, payload)
    assert screen.display == shown  # the same screen: nothing drawn anywhere else
    assert "blue" not in colours(screen) and colours(screen) <= colours(before) | {"default"}
    for y, line in enumerate(screen.display):  # the words only where the entry is echoed
        if "ACCEPTABLE" in line:
            assert "\u241b" in line, f"row {y} draws the pasted words: {line!r}"
    y, line = box_row(screen)
    assert box_text(line) == visible(payload).strip()
    assert line.rindex(RIGHT) == box_row(before)[1].rindex(RIGHT)  # the border did not move
    app.write(b"\t")
    wait_for(app, "U+001B (ESCAPE) is not a letter")
    assert judged(journal) == 0  # malformed: never judged


# the classes in four groups, each at its own kiosk, so a parallel run spreads them
GROUPS = [list(CONTROLS)[i::4] for i in range(4)]


@pytest.mark.parametrize("names", GROUPS, ids=[f"group{i}" for i in range(len(GROUPS))])
def test_every_control_class_pasted_is_shown_as_a_picture_and_refused_by_its_code(kiosk, names):
    app, journal = kiosk
    before = settle(app)
    border = box_row(before)[1].rindex(RIGHT)
    for name in names:
        ch = CONTROLS[name]
        shown = pasted(app, f"cat{visible(ch)}xu").display
        screen = pasted(app, f"cat{ch}xu")
        assert screen.display == shown, f"{name}: drawn as something else"
        y, line = box_row(screen)
        assert box_text(line) == f"cat{visible(ch)}xu", f"{name}: the box shows {line!r}"
        assert line.rindex(RIGHT) == border, f"{name}: the box's border moved: {line!r}"
        assert colours(screen) <= colours(before) | {"default"}, name
        assert any(f"CAT{visible(ch)}XU" in row for row in screen.display), name  # big letters
        app.write(b"\t")
        wait_for(app, f"U+{ord(ch):04X}")  # the refusal names it by its code
    assert judged(journal) == 0


def test_typed_controls_type_nothing_and_unknown_sequences_and_alt_chords_are_swallowed(kiosk):
    app, journal = kiosk
    app.write(b"q")
    app.write("\u202e\u200b\x85".encode() + b"\x07i")  # typed (not pasted): never typed
    app.write(b" \x1b[8;0;0t")  # a window-size report: typed as "[8;0;0t" on main
    app.write(b"\x1b[3;")
    app.drain(0.2)
    app.write(b"cz")  # the rest of the sequence 200 ms later: "[3;c" on main
    app.write(b"\x1bx")  # Alt+X
    app.drain(0.2)
    app.write(b"\x1bq")  # Alt+Q
    app.drain(0.2)
    app.write(b"a\x1b]11;rgb:0000/0000/0000\x1b\\")  # an OSC colour answer
    screen = settled(app, in_box("qi za"))
    assert box_text(box_row(screen)[1]) == "qi za"
    mark = len(app.screen)
    app.write(b"\t")
    app.read_until(b"the play is", start=mark, timeout=60)
    with Journal.open(journal) as j:
        row = j.recent(1)[0]
    assert (row.words, row.acceptable) == (("QI", "ZA"), True)


@pytest.fixture
def runner_desk(tmp_path):
    config, journal = station_config(tmp_path, mode="runner")
    app = PtyApp(kiosk_argv(config), child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache")))
    try:
        app.read_until(b"RUNNER MODE")
        yield app, journal
    finally:
        app.close()


def test_the_runners_desk_draws_no_pasted_notice_and_takes_no_alt_chord(runner_desk):
    app, journal = runner_desk
    before = settle(app, 1.5)
    app.write(b"\x1bp\x1b[8;0;0t7\r\x1bl3\r")  # Alt+P, a size report, 7; Alt+L, 3: no command
    payload = "\x1b[1;1H\x1b[41m\x1b[1m FAKE NOTICE \x1b[2;1H\u202eqi"
    app.write(PASTE_START + payload.encode() + PASTE_END)
    screen = settled(app, lambda screen: any("FAKE NOTICE" in line for line in screen.display))
    assert screen.display[0] == before.display[0]  # the header, untouched
    assert "red" not in colours(screen) or "red" in colours(before)
    for line in screen.display:
        if "FAKE NOTICE" in line:
            assert "\u241b" in line, f"the notice is drawn: {line!r}"
    lines = [line for line in screen.display if "FAKE NOTICE" in line]
    assert any(visible(payload) in line for line in lines), lines
    app.write(b"\t")
    wait_for(app, "U+001B (ESCAPE) is not a letter")
    assert judged(journal) == 0
    app.write(END + BS * 60 + b"qi\t")  # the same slip, typed right: judged, table 7 round 3
    wait_for(app, "Table 7 · Round 3")
    with Journal.open(journal) as j:
        row = j.recent(1)[0]
    assert (row.words, row.table, row.round) == (("QI",), "7", "3")
