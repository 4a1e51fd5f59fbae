"""Read-only media and foreign files: verify, export and merge write nothing; a foreign SQLite file
is refused and left byte for byte as it was."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from journal_helpers import fill

from adjudicator.cli import main
from adjudicator.errors import JournalError
from adjudicator.journal import Journal, db, export_journal, verify
from adjudicator.journal.merge import merge


def snapshot(folder: Path) -> dict[str, str]:
    """Every file in FOLDER and the SHA-256 of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir())}


@pytest.fixture
def usb(tmp_path, clock):
    """A closed station journal (and its head file) on a stick mounted read-only."""
    folder = tmp_path / "usb"
    folder.mkdir()
    with Journal.open(str(folder / "station1.db"), clock=clock) as j:
        fill(j, 4, clock=clock)
    folder.chmod(0o555)  # root ignores this: the tests below check the bytes, not errors
    yield folder
    folder.chmod(0o755)


def test_verify_export_and_merge_write_nothing_beside_the_journal(usb, tmp_path):
    before = snapshot(usb)
    path = str(usb / "station1.db")
    assert verify(path).intact and verify(path).rows == 4
    assert export_journal(path, "csv").count("\n") == 5
    runner = CliRunner()
    for fmt in ("csv", "json"):
        assert runner.invoke(main, ["journal", "export", path, "--format", fmt]).exit_code == 0
    assert runner.invoke(main, ["journal", "verify", path]).exit_code == 0
    assert merge([path], str(tmp_path / "event.db")).rows == 4
    assert snapshot(usb) == before  # no -wal, no -shm, not a byte changed
    assert not any(name.endswith(("-wal", "-shm")) for name in os.listdir(usb))


def test_a_wal_on_read_only_media_is_not_read_and_verify_says_so(tmp_path, clock, monkeypatch):
    folder = tmp_path / "cd"
    folder.mkdir()
    path = str(folder / "station1.db")
    journal = Journal.open(path, clock=clock)
    fill(journal, 2, clock=clock)
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT 1 FROM challenges").fetchall()  # rows 3-4 stay in the -wal
    fill(journal, 2, clock=clock)
    real_access = os.access
    monkeypatch.setattr(db.os, "access", lambda p, mode: False if os.path.abspath(p) == str(
        folder) else real_access(p, mode))  # as on a CD: SQLite could not make its -shm
    before = snapshot(folder)
    report = verify(path)
    assert not report.intact and report.missing == 2
    assert "-wal is beside it but its folder is read-only" in report.describe()
    assert snapshot(folder) == before
    reader.close()
    journal.close()


def foreign(path: Path) -> bytes:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE scores (player TEXT, points INTEGER)")
    conn.execute("INSERT INTO scores VALUES ('Ann', 420)")
    conn.commit()
    conn.close()
    return path.read_bytes()


def test_a_foreign_sqlite_file_is_refused_and_left_byte_for_byte(tmp_path):
    path = tmp_path / "scores.db"
    original = foreign(path)
    with pytest.raises(JournalError, match="not an adjudicator journal"):
        Journal.open(str(path))
    assert path.read_bytes() == original  # the old code had switched it to WAL first
    assert sorted(os.listdir(tmp_path)) == ["scores.db"]


def test_judge_with_a_foreign_journal_shows_the_verdict_and_leaves_the_file(tmp_path):
    words = tmp_path / "tiny.txt"
    words.write_text("QI\nZA\n")
    path = tmp_path / "scores.db"
    original = foreign(path)
    result = CliRunner().invoke(main, ["judge", "-l", str(words), "--journal", str(path), "qi"])
    assert result.exit_code == 5 and result.stdout == "ACCEPTABLE\n"
    assert "not an adjudicator journal" in result.stderr
    assert path.read_bytes() == original


def test_a_text_file_given_as_the_journal_is_left_as_it_was(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("round 4: table 12 disputed\n")
    with pytest.raises(JournalError, match="not a journal"):
        Journal.open(str(path))
    assert path.read_text() == "round 4: table 12 disputed\n"
