"""600 KB of plain typing is consumed at once, and only what fits the entry is typed (issue 28, 5e).

Each character typed was one Textual key event, about 0.15 ms to dispatch and apply: 100 KB of
letters written to the kiosk's terminal took 11-24 s to be read, so 600 KB (a held key, a stuck
keyboard, a file sent to the station) stalled its input for one to two and a half minutes. A
run of printable characters read together is now one event (kiosk/typed.py), typed into the
entry as far as it fits with one length check, the rest refused with the usual message.
"""

from __future__ import annotations

import fcntl
import os
import select
import time

import pytest
from pty_driver import PtyApp, ready_station

from adjudicator.text.entry import MAX_ENTRY_CHARS
from adjudicator.journal import Journal

ENTRY_ERRORS = (b"No words entered", b"has 1 letter", b"is not a letter", b"Traceback")
BACKSPACE = b"\x7f"
# Seconds waited for the verdict after the typing: about 50 times what the kiosk now takes on a
# loaded machine (0.6 s, bench/test_kiosk_bench.py), well under the 66-150 s it used to take.
STALL = 30


@pytest.fixture
def kiosk(tmp_path):
    yield from ready_station(tmp_path)


def feed(app: PtyApp, data: bytes, timeout: float = STALL) -> None:
    """DATA written as fast as the kiosk reads it, its screen read meanwhile (so that neither
    side blocks on a full terminal buffer); fails when the kiosk has not read it all within
    TIMEOUT seconds."""
    deadline = time.monotonic() + timeout
    flags = fcntl.fcntl(app.master, fcntl.F_GETFL)
    fcntl.fcntl(app.master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    try:
        view = memoryview(data)
        while view:
            assert time.monotonic() < deadline, f"{len(view):,} bytes never read by the kiosk"
            readable, writable, _ = select.select([app.master], [app.master], [], 1)
            if readable:
                try:
                    app.screen += os.read(app.master, 65536)
                except (BlockingIOError, OSError):
                    pass
            if writable:
                try:
                    view = view[os.write(app.master, view[:65536]):]
                except BlockingIOError:
                    pass
    finally:
        fcntl.fcntl(app.master, fcntl.F_SETFL, flags)


def test_600_kb_of_typing_is_consumed_and_only_the_entry_s_fill_is_typed(kiosk):
    app, journal = kiosk
    mark = len(app.screen)
    feed(app, (b"abcdefghijklmnopqrstuvwxyz" * (600 * 1024 // 26 + 1))[:600 * 1024])
    app.read_until(b"Not taken", start=mark, timeout=STALL)
    # the entry is full: emptied key by key, then the words, and TAB judges only them
    feed(app, BACKSPACE * MAX_ENTRY_CHARS + b"qi za\t")
    app.read_until(b"the play is", start=mark, fail_on=ENTRY_ERRORS, timeout=STALL)
    with Journal.open(journal) as j:
        assert j.count() == 1  # nothing of the typing was judged
        assert j.get(1).words == ("QI", "ZA")
    assert app.proc.poll() is None


def test_letters_editing_keys_and_tab_in_one_write_keep_their_order(kiosk):
    app, journal = kiosk
    mark = len(app.screen)
    overfull = b"q" * (MAX_ENTRY_CHARS + 40)  # one run: what fits is typed, the rest refused
    app.write(b"zax" + BACKSPACE * 3 + b"qi\x1b[D\x1b[C za\t")
    app.read_until(b"the play is", start=mark, fail_on=ENTRY_ERRORS, timeout=60)
    app.drain(0.3)  # past the verdict's 0.1 s hold (a key read within it is ignored)
    mark = len(app.screen)
    app.write(b" ")  # SPACE: back to Ready
    app.read_until(b"press TAB.", start=mark, timeout=60)
    mark = len(app.screen)
    app.write(overfull + BACKSPACE * MAX_ENTRY_CHARS + b"za\t")
    app.read_until(b"the play is", start=mark, fail_on=ENTRY_ERRORS, timeout=60)
    with Journal.open(journal) as j:
        assert [j.get(n).words for n in (1, 2)] == [("QI", "ZA"), ("ZA",)]
