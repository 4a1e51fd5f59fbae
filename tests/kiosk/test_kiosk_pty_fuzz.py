"""Any byte sequence a terminal can send leaves the kiosk running and judging (fuzzed on a pty).

Random byte sequences, each ONE write to a real pseudo-terminal running `adjudicator kiosk`:
invalid UTF-8, escape sequences cut anywhere, mouse reports in and out of range, window sizes
of zero and of 99,999 (in the input and on the terminal device), bracketed pastes of any size,
some never closed, focus reports. After every round the station is brought back to Ready as a person would
(close a paste, ESC, clear the entry) and "qi<TAB>" must be judged right: QI, ACCEPTABLE;
and the supervisor must never have had to restart it (no crash).

ADJUDICATOR_FUZZ_SEQUENCES sets how many sequences (default 600, to keep the test run short;
docs/station.md gives the figure of the full 10,000-sequence run). ADJUDICATOR_FUZZ_SEED
repeats a run; the seed is in every failure message.
"""

from __future__ import annotations

import os
import random
import select
import time

import pytest
from pty_driver import PtyApp, ready_station

from adjudicator.text.entry import MAX_ENTRY_CHARS
from adjudicator.journal import Journal

FULL = os.environ.get("ADJUDICATOR_FULL") == "1"  # every long test at its full count
SEQUENCES = int(os.environ.get("ADJUDICATOR_FUZZ_SEQUENCES", "10000" if FULL else "600"))
SEED = int(os.environ.get("ADJUDICATOR_FUZZ_SEED", str(random.randrange(2**32))))
ROUND = 250  # sequences between two checks that "qi<TAB>" is judged right

PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"
END, BS = b"\x1b[F", b"\x7f"
# Sequences a terminal sends, whole: cut anywhere by cut() below.
KNOWN = [b"\x1b[A", b"\x1b[D", b"\x1b[3~", b"\x1b[H", b"\x1b[F", b"\x1bOP", b"\x1b[15~",
         b"\x1b[1;5C", b"\x1b[97;5u", b"\x1b[I", b"\x1b[O", b"\x1b[?2048;1$y", b"\x1b[?2026;2$y",
         b"\x1b[12;40R", b"\x1b]11;rgb:0000/0000/0000\x1b\\", b"\x1bP>|xterm\x1b\\", PASTE_START,
         PASTE_END, b"\x1b[<0;10;10M", b"\x1b[M !!", b"\x1b[48;24;80;480;800t"]


def sgr_mouse(rng: random.Random) -> bytes:
    n = lambda: rng.choice([0, 1, -1, 5, 80, 255, 256, 65535, 99999, 2**31, 10**30])  # noqa: E731
    return f"\x1b[<{n()};{n()};{n()}{rng.choice('Mm')}".encode()


def x10_mouse(rng: random.Random) -> bytes:
    return b"\x1b[M" + bytes(rng.randrange(256) for _ in range(3))


def size_report(rng: random.Random) -> bytes:
    n = lambda: rng.choice([0, 1, 24, 80, 65535, 99999, 10**12])  # noqa: E731
    return f"\x1b[48;{n()};{n()};{n()};{n()}t".encode()


def cut(rng: random.Random) -> bytes:
    seq = rng.choice(KNOWN)
    return seq[: rng.randrange(1, len(seq) + 1)]


def invalid_utf8(rng: random.Random) -> bytes:
    return rng.choice([b"\xe9a", b"\xff", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xed\xa0\x80",
                       b"\xc0\xaf", b"\xf8\x88\x80\x80\x80", b"\x80\x80", b"z\xffa\xc3"])


def paste(rng: random.Random) -> bytes:
    size = rng.choice([0, 1, 10, MAX_ENTRY_CHARS, MAX_ENTRY_CHARS + 1, 4096, 100_000])
    body = bytes(rng.choice(b"qiza cat\t\r\n,\x1b\xe9\x00\x7f") for _ in range(size))
    return PASTE_START + body + (PASTE_END if rng.random() < 0.8 else b"")


def noise(rng: random.Random) -> bytes:
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 48)))


def keys(rng: random.Random) -> bytes:
    return bytes(rng.choice(b"qizacat \t\r\x7f,xyz") for _ in range(rng.randrange(1, 12)))


MAKERS = [sgr_mouse, x10_mouse, size_report, cut, invalid_utf8, paste, noise, keys]


def sequence(rng: random.Random) -> bytes:
    """One random thing a terminal might send: a few of the above run together."""
    return b"".join(rng.choice(MAKERS)(rng) for _ in range(rng.randrange(1, 4)))


def feed(app: PtyApp, data: bytes, keep: int = 4096) -> None:
    """Write DATA whole, reading the screen meanwhile (a full pty would block both sides)."""
    view = memoryview(data)
    while view:
        readable, writable, _ = select.select([app.master], [app.master], [], 1.0)
        if readable:
            try:
                app.screen += os.read(app.master, 65536)
            except OSError:
                pass
            del app.screen[:-keep]  # only the tail is looked at; the rest is not kept
        if writable:
            view = view[os.write(app.master, view[:4096]):]
        if app.proc.poll() is not None:
            return


def judge_qi(app: PtyApp, journal_path: str) -> tuple[tuple[str, ...], bool]:
    """Back to a clean Ready as a person would, then "qi<TAB>": the row it recorded."""
    app.resize(80, 24)
    feed(app, PASTE_END)  # a paste left open swallows keys until it is closed
    app.drain(0.4)  # an ESC left alone is read as ESC after a moment
    for _ in range(2):  # a modal (PIN box): ESC closes it
        feed(app, b"\x1b")
        app.drain(0.4)
    feed(app, b" ")  # the verdict: SPACE goes (on Ready it types a space, rubbed out below)
    app.drain(0.4)
    with Journal.open(journal_path) as journal:
        before = journal.count()
    mark = len(app.screen)
    feed(app, END + BS * (MAX_ENTRY_CHARS + 1) + b"qi\t")
    app.read_until(b"the play is", start=mark, timeout=60)
    with Journal.open(journal_path) as journal:
        assert journal.count() == before + 1
        row = journal.recent(1)[0]
    app.drain(0.3)
    feed(app, b" ")  # back to Ready
    app.drain(0.3)
    return row.words, row.acceptable


@pytest.fixture
def kiosk(tmp_path):
    yield from ready_station(tmp_path)


def test_random_terminal_bytes_never_end_the_kiosk_and_qi_is_still_judged(kiosk):
    app, journal = kiosk
    rng = random.Random(SEED)
    sent = 0
    started = time.monotonic()
    while sent < SEQUENCES:
        for _ in range(min(ROUND, SEQUENCES - sent)):
            if rng.random() < 0.01:  # the terminal device itself: zero, tiny or huge
                app.resize(rng.choice([0, 1, 80, 65535]), rng.choice([0, 1, 24, 65535]))
            feed(app, sequence(rng))
            sent += 1
            assert app.proc.poll() is None, f"seed {SEED}: the kiosk ended after {sent} sequences"
        assert judge_qi(app, journal) == (("QI",), True), f"seed {SEED}, after {sent} sequences"
    assert b"Traceback" not in app.screen
    with Journal.open(journal) as j:
        crashes = len(j.events())  # the supervisor notes every restart of a kiosk that died
    assert crashes == 0, f"seed {SEED}: the kiosk died {crashes} times and was restarted"
    print(f"\nfuzz: {sent} sequences, seed {SEED}, {time.monotonic() - started:.0f} s, "
          f"crashes {crashes}, kiosk still judging")
