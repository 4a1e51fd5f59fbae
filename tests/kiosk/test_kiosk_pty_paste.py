"""A paste of any size is refused whole with a message; memory stays flat; the station judges on.

On today's main nothing capped the entry: a 12 KB paste made each key take 2-5 s and a 100 KB
paste froze the kiosk at 2.1 GB. The entry now holds at most adjudicator.text.entry.MAX_ENTRY_CHARS
(what one play can form); this pastes through a real pseudo-terminal, as a terminal does
(bracketed paste), and reads the kiosk's memory from /proc.
"""

from __future__ import annotations

import os

import pytest
from pty_driver import PtyApp, child_env, kiosk_argv, process_tree, station_config

from adjudicator.text.entry import MAX_ENTRY_CHARS
from adjudicator.journal import Journal

PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"
ENTRY_ERRORS = (b"No words entered", b"has 1 letter", b"is not a letter", b"Traceback")
FLAT = 40 * 2**20  # bytes of resident memory a refused paste may add (the old kiosk: 2 GB)


def resident_bytes(pid: int) -> int:
    total = 0
    for p in process_tree(pid):
        try:
            with open(f"/proc/{p}/status") as f:
                total += next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS"))
        except (OSError, StopIteration):
            pass
    return total


@pytest.fixture
def kiosk(tmp_path):
    if not os.path.exists("/proc/self/status"):
        pytest.skip("reads memory from /proc (Linux)")
    config, journal = station_config(tmp_path)
    app = PtyApp(kiosk_argv(config), child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache")))
    try:
        app.read_until(b"press TAB.")
        app.drain(1.5)  # past the start-up work (fonts, verdict screen) before memory is read
        yield app, journal
    finally:
        app.close()  # also when the kiosk never came up


def last_words(journal_path: str) -> tuple[str, ...]:
    with Journal.open(journal_path) as journal:
        return journal.recent(1)[0].words


@pytest.mark.parametrize("size", [12 * 1024, 100 * 1024])
def test_a_huge_paste_is_refused_whole_and_the_kiosk_stays_flat_and_judging(kiosk, size):
    app, journal = kiosk
    before = resident_bytes(app.proc.pid)
    mark = len(app.screen)
    app.write(b"za ")
    app.write(PASTE_START + (b"qi " * (size // 3 + 1))[:size] + PASTE_END)
    app.read_until(b"Not taken", start=mark, timeout=60)
    app.write(b"qi\t")  # typed after the paste: the entry holds exactly what was taken
    app.read_until(b"the play is", start=mark, fail_on=ENTRY_ERRORS, timeout=60)
    assert last_words(journal) == ("ZA", "QI")
    assert resident_bytes(app.proc.pid) - before < FLAT
    assert app.proc.poll() is None


def test_typing_stops_at_the_cap_with_a_message(kiosk):
    app, journal = kiosk
    full = (b"abcdefghijklmno, " * 8)[:MAX_ENTRY_CHARS]
    mark = len(app.screen)
    app.write(full)
    app.drain(0.5)
    app.write(b"z")  # one more: refused, said on screen
    app.read_until(b"Not taken", start=mark, timeout=60)
    app.write(b"\t")
    app.read_until(b"the play is", start=mark, fail_on=ENTRY_ERRORS, timeout=60)
    assert last_words(journal) == ("ABCDEFGHIJKLMNO",) * 8
