"""Contention: a lock held longer than SQLite's own wait is waited out, never a dropped group; a
journal that could not be opened is opened again before the next record."""

from __future__ import annotations

import sqlite3
import threading
import time

from click.testing import CliRunner
from journal_helpers import fill, verdict

from adjudicator.cli import main
from adjudicator.config.station import Config
from adjudicator.journal import Journal, verify
from adjudicator.station.service import open_station


def hold_lock(path: str, seconds: float) -> threading.Thread:
    """Another program (a director's SQLite browser) holding the journal locked for a while."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN EXCLUSIVE")

    def release():
        time.sleep(seconds)
        other.execute("ROLLBACK")
        other.close()

    thread = threading.Thread(target=release)
    thread.start()
    return thread


def test_a_batch_waits_out_a_lock_longer_than_sqlites_own_wait(jpath, clock, tmp_path):
    with Journal.open(jpath, clock=clock) as j:
        fill(j, 1, clock=clock)
    words = tmp_path / "tiny.txt"
    words.write_text("QI\nZA\nCAT\n")
    batch = tmp_path / "plays.txt"
    batch.write_text("".join("qi za\n" if i % 3 else "cat zzz\n" for i in range(600)))
    thread = hold_lock(jpath, 2.6)  # longer than the 2 s that used to drop 256-row groups
    try:
        result = CliRunner().invoke(main, ["judge", "-l", str(words), "--journal", jpath,
                                           "--batch", str(batch)])
    finally:
        thread.join()
    assert "NOT RECORDED" not in result.stderr
    assert result.stdout.count("CCEPTABLE\n") == 600
    report = verify(jpath)
    assert report.intact and report.rows == 601


def test_a_single_record_waits_for_the_lock_then_records(jpath, clock):
    with Journal.open(jpath, clock=clock) as j:
        fill(j, 1, clock=clock)
        thread = hold_lock(jpath, 2.3)
        try:
            seq = j.record(verdict("qi"), station="S", mode="station")
        finally:
            thread.join()
        assert seq == 2 and j.count() == 2


def test_a_journal_that_could_not_be_opened_is_opened_again_for_the_next_group(tmp_path,
                                                                              make_lexicon):
    blocker = tmp_path / "usb"
    blocker.write_text("not yet mounted")  # a file where the journal's folder should be
    config = Config(station="Desk", mode="runner", journal=str(blocker / "j.db"))
    station = open_station(config, make_lexicon(["QI", "ZA"]))
    first = station.judge_group([("QI",), ("ZA",)])
    assert [o.seq for o in first] == [None, None] and "usb is not a folder" in first[0].problem
    blocker.unlink()  # the stick is mounted: a folder there
    blocker.mkdir()
    second = station.judge_group([("QI",), ("QI", "ZA")])
    assert [o.seq for o in second] == [1, 2] and not second[0].problem
    assert station.judge(("ZA",)).seq == 3
    station.close()
    assert verify(str(blocker / "j.db")).rows == 3
