"""Recording: one row per adjudication, every field, WAL + synchronous=FULL, print status."""

from __future__ import annotations

import sqlite3
import threading
from datetime import datetime, timedelta, timezone

import pytest
from journal_helpers import TEST_LEXICON, fill, raw, verdict

from adjudicator.errors import JournalError, JournalFileError
from adjudicator.journal import MODES, Journal, default_journal_path, verify
from adjudicator.judging.rules import ChallengeRule


def test_record_writes_every_field_and_returns_the_seq(journal, jpath, clock):
    seq = journal.record(verdict("cat", "xu"), station="Station 1", mode="station",
                         rule=ChallengeRule.WORD5, table="12", round="3",
                         secondary_agrees=True)
    assert seq == 1
    row = journal.get(1)
    assert row.seq == 1
    assert row.time_utc == "2026-11-22T14:00:00.000000+00:00"
    local = datetime.fromisoformat(row.time_local)
    assert local.utcoffset() is not None and local == clock.now
    assert (row.station, row.mode, row.table, row.round) == ("Station 1", "station", "12", "3")
    assert row.words == ("CAT", "XU") and row.acceptable is True and row.verdict == "ACCEPTABLE"
    assert (row.lexicon_name, row.fingerprint) == ("TINY", TEST_LEXICON.fingerprint)
    assert row.rule == "5-per-word"
    assert row.recheck_of is None and row.secondary_agrees is True
    assert (row.print_status, row.print_reason, row.flags) == ("", "", ())
    assert len(row.hash) == 64


def test_the_file_is_wal_and_our_connection_syncs_fully(journal, jpath):
    assert raw(jpath, "PRAGMA journal_mode")[0][0] == "wal"
    assert journal.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_the_row_holds_one_collective_verdict_and_no_per_word_result(journal, jpath):
    journal.record(verdict("cat", "qzx", acceptable=False), station="S", mode="station")
    columns = [r[1] for r in raw(jpath, "PRAGMA table_info(challenges)")]
    stored = dict(zip(columns, raw(jpath, "SELECT * FROM challenges")[0]))
    assert stored["words"] == "CAT QZX" and stored["acceptable"] == 0
    # Nothing else in the row mentions a word, so nothing can say which one failed.
    others = {k: v for k, v in stored.items() if k != "words"}
    assert not any(isinstance(v, str) and ("CAT" in v or "QZX" in v) for v in others.values())
    tables = {r[0] for r in raw(jpath, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"meta", "challenges", "print_log"}


@pytest.mark.parametrize("given, stored", [("station", "station"), ("smart-device", "smart device"),
                                           ("smart device", "smart device"), ("Runner", "runner"),
                                           ("director", "director")])
def test_modes(journal, given, stored):
    seq = journal.record(verdict("qi"), station="S", mode=given)
    assert journal.get(seq).mode == stored and stored in MODES


def test_unknown_mode_or_empty_station_is_refused_and_nothing_is_written(journal):
    with pytest.raises(JournalError, match="mode 'referee' is not one of"):
        journal.record(verdict("qi"), station="S", mode="referee")
    with pytest.raises(JournalError, match="station name"):
        journal.record(verdict("qi"), station="  ", mode="station")
    assert journal.count() == 0


def test_seq_continues_after_reopening_and_station_is_kept_in_meta(jpath, clock):
    with Journal.open(jpath, clock=clock) as j:
        fill(j, 2, clock=clock)
    with Journal.open(jpath, clock=clock) as j:
        assert fill(j, 2, clock=clock) == [3, 4]
    assert raw(jpath, "SELECT value FROM meta WHERE key='station'") == [("Station 1",)]
    assert verify(jpath).intact


def test_print_status_is_kept_outside_the_chain(journal, jpath, clock):
    fill(journal, 3, clock=clock)
    journal.set_print_status(2, "failed", "paper out")
    assert (journal.get(2).print_status, journal.get(2).print_reason) == ("failed", "paper out")
    journal.set_print_status(2, "reprinted")
    assert journal.get(2).print_status == "reprinted"
    assert journal.verify().intact and verify(jpath).intact
    assert raw(jpath, "SELECT seq, status FROM print_log ORDER BY id") == [
        (2, "failed"), (2, "reprinted")]  # the history stays: appended, never updated


def test_print_status_must_name_a_known_status_and_a_recorded_challenge(journal, clock):
    fill(journal, 1, clock=clock)
    with pytest.raises(JournalError, match="not one of"):
        journal.set_print_status(1, "lost")
    with pytest.raises(JournalError, match="no challenge 9"):
        journal.set_print_status(9, "printed")


def test_recent_is_newest_first_and_get_names_a_missing_row(journal, clock):
    fill(journal, 5, clock=clock)
    assert [r.seq for r in journal.recent(3)] == [5, 4, 3]
    assert journal.count() == 5
    with pytest.raises(JournalError, match="no challenge 6"):
        journal.get(6)


def test_counts_per_hour_use_local_hours(journal, clock):
    fill(journal, 3, clock=clock, gap=60)  # 14:01, 14:02, 14:03 UTC
    clock.advance(3600)
    fill(journal, 1, clock=clock)
    counts = journal.counts_per_hour()
    assert [n for _, n in counts] == [3, 1]
    first_local = clock.now.astimezone() - timedelta(seconds=3600 + 120)
    assert counts[0][0] == first_local.strftime("%Y-%m-%d %H:00")


def test_rows_since_a_seq_or_a_time(journal, clock):
    fill(journal, 4, clock=clock, gap=600)  # 14:10, 14:20, 14:30, 14:40 UTC
    assert [r.seq for r in journal.rows(2)] == [3, 4]
    assert [r.seq for r in journal.rows("2026-11-22T14:30+00:00")] == [3, 4]
    assert [r.seq for r in journal.rows("2026-11-22T14:25Z")] == [3, 4]
    with pytest.raises(JournalError, match="not a time"):
        list(journal.rows("after lunch"))


def test_default_path_is_the_env_var_else_the_user_data_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("ADJUDICATOR_JOURNAL", str(tmp_path / "elsewhere.db"))
    assert default_journal_path() == str(tmp_path / "elsewhere.db")
    with Journal.open() as j:
        assert j.path == str(tmp_path / "elsewhere.db")
    monkeypatch.delenv("ADJUDICATOR_JOURNAL")
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_data_dir", lambda app: str(tmp_path / "data" / app))
    assert default_journal_path() == str(tmp_path / "data" / "adjudicator" / "journal.db")


def test_open_refuses_a_missing_folder_but_makes_the_default_journals(tmp_path, monkeypatch):
    """A journal on a drive not mounted must not be made on the local disk (issue 21.7); only
    the default journal, in the user data folder, has its folder made."""
    with pytest.raises(JournalFileError, match="the folder .* is not there"):
        Journal.open(str(tmp_path / "a" / "b" / "j.db"))
    assert not (tmp_path / "a").exists()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("ADJUDICATOR_JOURNAL")
    with Journal.open() as j:
        assert j.count() == 0 and j.path.startswith(str(tmp_path / "data"))


def test_a_file_that_is_not_a_journal_is_refused(tmp_path):
    text = tmp_path / "notes.db"
    text.write_text("not a database at all, just some text " * 100)
    with pytest.raises(JournalError, match="not a journal"):
        Journal.open(str(text))
    other = tmp_path / "other.db"
    raw(str(other), "CREATE TABLE t (x)")
    with pytest.raises(JournalError, match="not an adjudicator journal"):
        Journal.open(str(other))
    with pytest.raises(JournalError, match="not an adjudicator journal"):
        verify(str(other))


def test_verify_never_creates_a_file(tmp_path):
    with pytest.raises(JournalError, match="no journal at"):
        verify(str(tmp_path / "missing.db"))
    assert not (tmp_path / "missing.db").exists()


def test_threads_can_record_at_once_and_the_chain_holds(jpath):
    errors = []

    def worker(name):
        try:
            with Journal.open(jpath) as j:
                for _ in range(10):
                    j.record(verdict("qi"), station=name, mode="station")
        except Exception as e:  # pragma: no cover - the assertion below shows it
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(f"S{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    report = verify(jpath)
    assert report.intact and report.rows == 40


def test_a_closed_journal_says_so(jpath):
    j = Journal.open(jpath)
    j.close()
    with pytest.raises(JournalError, match="closed"):
        j.record(verdict("qi"), station="S", mode="station")
    j.close()  # twice is harmless


def test_utc_time_is_utc_even_when_the_clock_gives_local_time(jpath):
    local = datetime(2026, 11, 22, 16, 0, tzinfo=timezone(timedelta(hours=2)))
    with Journal.open(jpath, clock=lambda: local) as j:
        j.record(verdict("qi"), station="S", mode="station")
        assert j.get(1).time_utc == "2026-11-22T14:00:00.000000+00:00"


def test_bad_arguments_are_a_journal_error_not_a_crash(journal):
    with pytest.raises(JournalError, match="cannot record"):
        journal.record(verdict("qi"), station="S", mode="station", recheck_of="first")
    with pytest.raises(JournalError, match="cannot record"):
        journal.record("QI", station="S", mode="station")
    assert journal.count() == 0


def test_a_journal_file_another_writer_has_just_created_is_opened_not_refused(jpath):
    """Two stations starting at once: the second finds the file with no table yet (the first
    is adding the schema). That is not a foreign file (was refused: 'not an adjudicator
    journal', a flaky failure of the threads test above)."""
    first = sqlite3.connect(jpath, isolation_level=None)
    first.execute("PRAGMA journal_mode=WAL")  # the file exists, with no table yet
    first.close()
    with Journal.open(jpath) as j:
        j.record(verdict("qi"), station="S2", mode="station")
    assert verify(jpath).intact
