"""Disk full, read-only, locked: a plain JournalError, nothing half-written, chain intact."""

from __future__ import annotations

import os
import sqlite3

import pytest
from click.testing import CliRunner
from journal_helpers import fill, verdict

from adjudicator.cli import main
from adjudicator.errors import EXIT_NOT_RECORDED, JournalError, JournalFileError
from adjudicator.journal import Journal, db, verify


def record(j):
    return j.record(verdict("qi"), station="S", mode="station")


def assert_plain(message: str):
    assert "Traceback" not in message and "sqlite3." not in message


def test_disk_full_is_a_plain_journal_error_and_nothing_is_half_written(journal, jpath, clock):
    fill(journal, 2, clock=clock)
    pages = journal.conn.execute("PRAGMA page_count").fetchone()[0]
    journal.conn.execute(f"PRAGMA max_page_count={pages}")  # the disk is now "full"
    with pytest.raises(JournalError, match="is full") as caught:
        for _ in range(200):  # the first insert that needs a new page fails
            record(journal)
    assert_plain(str(caught.value))
    recorded = journal.count()
    journal.close()
    report = verify(jpath)
    assert report.intact and report.rows == recorded


def test_read_only_journal_file_is_a_plain_journal_error(jpath, monkeypatch, clock):
    with Journal.open(jpath, clock=clock) as j:
        fill(j, 1, clock=clock)
    real_connect = sqlite3.connect

    def read_only(path, *args, **kwargs):  # as if the file or its folder were read-only
        if str(path).startswith("file:"):  # already a read-only open
            return real_connect(path, *args, **kwargs)
        kwargs["uri"] = True
        return real_connect("file:" + os.path.abspath(path) + "?mode=ro", *args, **kwargs)

    monkeypatch.setattr(db.sqlite3, "connect", read_only)
    with Journal.open(jpath) as j:
        with pytest.raises(JournalError, match="cannot be written") as caught:
            record(j)
        with pytest.raises(JournalError, match="cannot be written"):
            j.set_print_status(1, "printed")
    assert_plain(str(caught.value))
    monkeypatch.undo()
    assert verify(jpath).rows == 1


def test_read_only_new_journal_cannot_even_be_created(tmp_path, monkeypatch):
    real_connect = sqlite3.connect
    monkeypatch.setattr(db.sqlite3, "connect", lambda p, *a, **k: real_connect(
        "file:" + os.path.abspath(p) + "?mode=ro", *a, **{**k, "uri": True}))
    with pytest.raises(JournalError) as caught:
        Journal.open(str(tmp_path / "new.db"))
    assert_plain(str(caught.value))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through chmod; covered above")
def test_chmod_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(JournalError, match="cannot"):
            Journal.open(str(folder / "j.db"))
    finally:
        folder.chmod(0o700)


def test_a_file_where_the_folder_should_be(tmp_path):
    (tmp_path / "blocker").write_text("x")
    with pytest.raises(JournalFileError, match="blocker is not a folder"):
        Journal.open(str(tmp_path / "blocker" / "j.db"))


def test_locked_by_another_writer_is_a_plain_journal_error(jpath, clock):
    with Journal.open(jpath, clock=clock) as j:
        fill(j, 1, clock=clock)
    other = sqlite3.connect(jpath, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with Journal.open(jpath, timeout=0.2) as j:
            with pytest.raises(JournalError, match="locked by another program") as caught:
                record(j)
            assert_plain(str(caught.value))
            assert j.count() == 1  # reading still works under a writer's lock (WAL)
    finally:
        other.execute("ROLLBACK")
        other.close()
    with Journal.open(jpath) as j:
        assert record(j) == 2  # and writing works again once the lock is gone


def test_locked_exclusively_at_open(jpath, clock):
    with Journal.open(jpath, clock=clock) as j:
        fill(j, 1, clock=clock)
    other = sqlite3.connect(jpath, isolation_level=None)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(JournalError, match="locked"):
            with Journal.open(jpath, timeout=0.2) as j:
                record(j)
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_cli_judge_shows_the_verdict_even_when_the_journal_is_locked(jpath, clock, monkeypatch):
    monkeypatch.setattr(db, "LOCK_PATIENCE", 0.3)  # a lock held for longer than the patience
    with Journal.open(jpath, clock=clock) as j:
        fill(j, 1, clock=clock)
    other = sqlite3.connect(jpath, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        result = CliRunner().invoke(main, ["judge", "--journal", jpath, "cat"])
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert result.exit_code == EXIT_NOT_RECORDED
    assert result.stdout == "ACCEPTABLE\n"
    said = [ln for ln in result.stderr.splitlines()  # ENABLE is named as no tournament list
            if not ln.startswith("adjudicator: warning: ENABLE: NOT A TOURNAMENT WORD LIST")]
    assert len(said) == 1 and said[0].startswith("adjudicator: NOT RECORDED: call the director (")
    assert "locked by another program" in said[0]


def test_a_head_file_update_on_a_full_disk_leaves_no_temporary_file(journal, jpath, monkeypatch):
    """Issue 36: each failed head-file update left a 0-byte `.head.PID.tmp` beside the journal.
    The row is recorded all the same (the head file only lags)."""
    from adjudicator.journal import anchor

    def full(_fd):
        raise OSError(28, "No space left on device")

    folder = os.path.dirname(os.path.abspath(jpath))
    monkeypatch.setattr(anchor.os, "fsync", full)
    for _ in range(3):
        record(journal)
    monkeypatch.undo()
    assert journal.count() == 3
    assert [name for name in os.listdir(folder) if name.endswith(".tmp")] == []


def test_a_station_tries_once_without_waiting_then_waits_its_own_time(jpath):
    """The kiosk's first try at a locked journal says so at once (JournalLockedError), so the
    screen can say "recording..." before the station's wait (issue 36)."""
    from adjudicator.errors import JournalLockedError

    with Journal.open(jpath, timeout=0.2) as journal:
        other = sqlite3.connect(jpath, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            with journal.waiting_at_most(0), pytest.raises(JournalLockedError):
                record(journal)
            assert journal.patience == 0.2  # its own wait again
            with pytest.raises(JournalLockedError, match="locked by another program"):
                record(journal)
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert record(journal) == 1
