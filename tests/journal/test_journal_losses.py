"""Every way of losing rows is seen by verify: a .db copied without its -wal, a crash with the -wal
deleted, a chain rewritten by a forger (slips); `journal backup` copies a live journal whole."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from click.testing import CliRunner
from journal_helpers import fill, raw, verdict

from adjudicator.cli import main
from adjudicator.docket.encoder import encode_slip
from adjudicator.journal import Journal, chain, verify
from adjudicator.journal.anchor import SHORT_HASH, head_path, read_head
from adjudicator.station.printdesk import slip_from_row


def copy_db_alone(src: str, dest: str) -> None:
    """What a director does with a file manager: the .db, not the -wal beside it."""
    shutil.copyfile(src, dest)


def test_a_db_copied_without_its_wal_still_holds_every_row(journal, jpath, clock, tmp_path):
    fill(journal, 5, clock=clock)  # the station is still running: its -wal is open
    copy = str(tmp_path / "copy.db")
    copy_db_alone(jpath, copy)
    report = verify(copy)
    assert report.intact and report.rows == 5  # on the old code: "intact", 0 rows


def held_back(jpath: str) -> sqlite3.Connection:
    """A reader holding an old snapshot: rows recorded now stay in the -wal for a while."""
    reader = sqlite3.connect(jpath, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM challenges").fetchall()
    return reader


def test_crash_with_the_wal_deleted_fails_verify_naming_the_missing_rows(journal, jpath, clock,
                                                                         tmp_path):
    fill(journal, 2, clock=clock)
    reader = held_back(jpath)
    try:
        fill(journal, 3, clock=clock)  # rows 3-5 committed to the -wal only
        folder = tmp_path / "after-crash"
        folder.mkdir()
        crashed = str(folder / "station1.db")  # the .db and its head file; the -wal is gone
        shutil.copyfile(jpath, crashed)
        shutil.copyfile(head_path(jpath), head_path(crashed))
    finally:
        reader.close()
    report = verify(crashed)
    assert not report.intact and report.missing == 3 and report.rows == 2
    assert "rows 3-5 missing (3 rows)" in report.describe()
    result = CliRunner().invoke(main, ["journal", "verify", crashed])
    assert result.exit_code == 5 and "rows 3-5 missing" in result.stderr


def test_the_head_file_follows_every_commit(journal, jpath, clock):
    seqs = fill(journal, 3, clock=clock)
    head = read_head(jpath)
    assert (head.seq, head.hash) == (3, journal.get(3).hash) and seqs[-1].hash == head.hash
    assert head.journal_id == journal.journal_id()


def test_a_copy_without_a_head_file_says_what_it_cannot_rule_out(journal, jpath, clock, tmp_path):
    fill(journal, 1, clock=clock)
    copy = str(tmp_path / "copy.db")
    copy_db_alone(jpath, copy)
    assert verify(copy).intact and "no head file" in verify(copy).describe()


def test_backup_of_a_live_journal_copies_every_row_and_its_head(journal, jpath, clock, tmp_path):
    fill(journal, 2, clock=clock)
    reader = held_back(jpath)
    try:
        fill(journal, 3, clock=clock)
        dest = str(tmp_path / "usb" / "backup.db")
        (tmp_path / "usb").mkdir()
        result = CliRunner().invoke(main, ["journal", "backup", "--journal", jpath, dest])
    finally:
        reader.close()
    assert result.exit_code == 0, result.output
    report = verify(dest)
    assert report.intact and report.rows == 5 and not report.notes
    assert not (tmp_path / "usb" / "backup.db-wal").exists()
    again = CliRunner().invoke(main, ["journal", "backup", "--journal", jpath, dest])
    assert again.exit_code != 0 and "already exists" in again.stderr


def forge(path: str, seq: int, words: str) -> None:
    """Edit row SEQ and recompute every later hash and the head: invisible to the chain."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute("UPDATE challenges SET words = ? WHERE seq = ?", (words, seq))
    rows = [dict(r) for r in conn.execute("SELECT * FROM challenges ORDER BY seq")]
    prev = rows[0]["prev_hash"]
    for row in rows:
        row["prev_hash"], row["hash"] = prev, chain.link(prev, row)
        prev = row["hash"]
        conn.execute("UPDATE challenges SET prev_hash = ?, hash = ? WHERE seq = ?",
                     (row["prev_hash"], row["hash"], row["seq"]))
    conn.execute("UPDATE meta SET value = ? WHERE key = 'head_hash'", (prev,))
    conn.close()


def test_a_forged_chain_passes_alone_but_not_against_the_slips(jpath, clock, tmp_path):
    with Journal.open(jpath, clock=clock) as j:
        fill(j, 6, clock=clock)
        slips = [slip_from_row(j.get(seq), "Open") for seq in (2, 5)]
    printed = [encode_slip(s, 42) for s in slips]
    assert all(f"Journal check: {s.number} {s.row_hash}".encode() in p
               for s, p in zip(slips, printed))
    typed = tmp_path / "slips.txt"
    typed.write_text("# typed from the slips\n" + "".join(
        f"{s.number} {s.row_hash}\n" for s in slips))
    forge(jpath, 3, "CAT ZA")
    (tmp_path / "station1.db.head").unlink()  # the forger replaces or deletes the head too
    assert verify(jpath).intact  # the chain alone cannot see it (docs/journal.md says so)
    result = CliRunner().invoke(main, ["journal", "verify", jpath, "--slips", str(typed)])
    assert result.exit_code == 5
    assert "chain broken at row 5" in result.stderr and "slip of challenge 5" in result.stderr


def test_slips_beyond_the_end_count_missing_rows(journal, jpath, clock, tmp_path):
    fill(journal, 2, clock=clock)
    typed = tmp_path / "slips.txt"
    typed.write_text(f"2 {journal.get(2).hash[:SHORT_HASH]}\n7 0123abcd\n")
    report = verify(jpath, {2: journal.get(2).hash[:8], 7: "0123abcd"})
    assert report.missing == 5 and "rows 3-7 missing (5 rows)" in report.reason


@pytest.mark.parametrize("line", ["12", "twelve 3fa9c01d", "12 xyz"])
def test_a_slips_file_with_a_bad_line_is_a_plain_error(jpath, journal, clock, tmp_path, line):
    fill(journal, 1, clock=clock)
    typed = tmp_path / "slips.txt"
    typed.write_text(line + "\n")
    result = CliRunner().invoke(main, ["journal", "verify", jpath, "--slips", str(typed)])
    assert result.exit_code == 2 and f"{typed}:1: " in result.stderr  # a typing mistake
    assert "Traceback" not in result.output


def test_station_outcome_and_slip_carry_the_short_row_hash(jpath, clock):
    with Journal.open(jpath, clock=clock) as j:
        seq = j.record(verdict("qi"), station="S", mode="station")
        assert seq == 1 and seq.short == j.get(1).hash[:SHORT_HASH]
        assert slip_from_row(j.get(1), "Open").row_hash == seq.short
    assert raw(jpath, "SELECT count(*) FROM challenges") == [(1,)]
