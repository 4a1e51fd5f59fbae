"""Losing rows for real (a recording child, kill -9, copies by hand): no loss goes unseen."""

from __future__ import annotations

from loss_scenarios import copy_db_alone_while_live, crash_then_wal_deleted


def test_crash_then_deleted_wal_loses_no_row_unseen(tmp_path):
    tally = crash_then_wal_deleted(str(tmp_path), rounds=8, seed=13)
    assert tally.shown > 0 and tally.undetected == 0, tally
    assert tally.lost == 0, tally  # each commit is checkpointed into the .db at once


def test_a_db_copied_alone_from_a_live_station_holds_every_shown_row(tmp_path):
    tally = copy_db_alone_while_live(str(tmp_path), rounds=8, seed=13)
    assert tally.shown > 0 and (tally.lost, tally.undetected) == (0, 0), tally


def test_a_copy_while_a_reader_holds_rows_back_names_them_missing(tmp_path):
    tally = copy_db_alone_while_live(str(tmp_path), rounds=5, seed=13, reader=True)
    assert tally.lost > 0 and tally.undetected == 0 and tally.detected == 5, tally
    assert all("missing" in reason for reason in tally.reasons), tally.reasons
