"""TAB never judges letters still queued: "qi za<TAB>" in ONE write to a real pseudo-terminal.

Pilot waits between keys and cannot show this race (DESIGN.md): a priority TAB binding on the App
judged "qi<TAB>" as an empty entry. This runs the real `adjudicator kiosk` on a pty.
"""

from __future__ import annotations

import pytest
from pty_driver import PtyApp, child_env, kiosk_argv

from adjudicator.journal import Journal

# What the screen says when a TAB overtakes the letters before it (the entry looks empty or short).
ENTRY_ERRORS = (b"No words entered", b"has 1 letter")
BURSTS = [b"qi za\t", b"cat qi za\t", b"za\t", b"qi xyzzy\t", b"  cat,za  qi \t"]
EXPECTED = [("QI", "ZA"), ("CAT", "QI", "ZA"), ("ZA",), ("QI", "XYZZY"), ("CAT", "ZA", "QI")]


@pytest.fixture
def station(tmp_path):
    (tmp_path / "tiny.txt").write_text("QI\nZA\nCAT\n")
    journal = tmp_path / "journal.db"
    config = tmp_path / "station.toml"
    config.write_text(
        f'station = "Burst"\nlexicon = "{tmp_path / "tiny.txt"}"\njournal = "{journal}"\n'
        "[timers]\nverdict_hold = 0.1\nverdict_clear = 60\n"
    )
    app = PtyApp(kiosk_argv(str(config)), child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache")))
    yield app, str(journal)
    app.close()


def test_a_burst_ending_in_tab_judges_every_letter_typed_before_it(station):
    app, journal_path = station
    app.read_until(b"press TAB.")  # first paint of Ready
    for n, (burst, words) in enumerate(zip(BURSTS, EXPECTED), start=1):
        mark = len(app.screen)
        app.write(burst)
        app.read_until(b"the play is", start=mark, fail_on=ENTRY_ERRORS)
        with Journal.open(journal_path) as journal:
            row = journal.get(n)
        assert row.words == words, f"burst {burst!r} was judged as {row.words}"
        app.drain(0.3)  # past the 0.1 s hold
        mark = len(app.screen)
        app.write(b" ")  # SPACE: back to Ready
        app.read_until(f"station: {n}".encode(), start=mark)
    assert app.proc.poll() is None  # still running
