"""A row committed with settle_later (a station that shows the verdict first, journal/settle.py):
durable at once, its head file and checkpoint at settle(), never beside a journal lost meanwhile."""

from __future__ import annotations

import os
import shutil
import sqlite3

from journal_helpers import verdict

from adjudicator.config.station import load_config
from adjudicator.journal import Journal, verify
from adjudicator.journal.anchor import head_path, read_head
from adjudicator.station.service import open_station


def record(j, word="qi"):
    return j.record(verdict(word), station="S", mode="station")


def rows_in_main_file(path) -> int:
    """Rows in the .db alone, as a copy of it without its -wal would hold them."""
    copy = path + ".alone"
    shutil.copyfile(path, copy)
    try:
        with sqlite3.connect(copy) as conn:
            return conn.execute("SELECT count(*) FROM challenges").fetchone()[0]
    finally:
        os.unlink(copy)


def test_a_row_settled_later_is_durable_at_once_and_anchored_at_settle(journal, jpath):
    record(journal)  # settled at once: the head file at row 1, the main file holds it
    journal.settle_later = True
    seq = record(journal, "za")
    assert seq == 2
    assert read_head(jpath).seq == 1  # not yet: it lags, as it may (never ahead)
    assert rows_in_main_file(jpath) == 1  # row 2 is in the -wal, committed
    assert journal.last_head().seq == 2  # known in memory at once (a file lost meanwhile)
    with sqlite3.connect(jpath) as other:  # another reader sees it: committed
        assert other.execute("SELECT max(seq) FROM challenges").fetchone()[0] == 2
    report = verify(jpath)
    assert report.intact and report.rows == 2
    journal.settle()
    assert read_head(jpath).seq == 2 and read_head(jpath).hash == seq.hash
    assert rows_in_main_file(jpath) == 2
    journal.settle()  # nothing pending: nothing changes
    assert read_head(jpath).seq == 2


def test_a_newer_row_supersedes_one_not_settled_and_close_settles(jpath, clock):
    j = Journal.open(jpath, clock=clock)
    j.settle_later = True
    record(j)
    record(j, "za")
    assert not os.path.exists(head_path(jpath))
    j.close()  # the last row's head file and checkpoint, before the connection goes
    assert read_head(jpath).seq == 2
    assert rows_in_main_file(jpath) == 2


def test_nothing_is_written_beside_a_journal_lost_before_it_settled(journal, jpath):
    journal.settle_later = True
    record(journal)
    os.replace(jpath, jpath + ".moved")  # the file at the path is no longer this journal
    journal.settle()
    assert not os.path.exists(head_path(jpath))
    assert journal.last_head().seq == 1  # what the file that continues it starts from


def test_a_station_that_shows_first_settles_when_told(tmp_path):
    (tmp_path / "tiny.txt").write_text("QI\nZA\n")
    config = tmp_path / "station.toml"
    config.write_text(f'station = "S"\nlexicon = "{tmp_path / "tiny.txt"}"\n'
                      f'journal = "{tmp_path / "j.db"}"\n')
    station = open_station(load_config(str(config)))
    try:
        path = station.config.journal
        assert station.submit("qi").seq == 1
        assert read_head(path).seq == 1  # a station by default: anchored before it returns
        station.settle_after_show = True
        assert station.submit("za").seq == 2
        assert read_head(path).seq == 1
        station.settle_journal()
        assert read_head(path).seq == 2
    finally:
        station.close()
