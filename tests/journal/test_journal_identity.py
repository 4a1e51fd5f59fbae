"""The journal id and station name are under the chain; merge deduplicates by that chained identity."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner
from journal_helpers import Clock, fill, raw

from adjudicator.cli import main
from adjudicator.journal import ChainBroken, Journal, verify
from adjudicator.journal.chain import LEGACY_NOTE
from adjudicator.journal.merge import merge


def journal_of(path, station: str, n: int = 3, clock: Clock | None = None) -> str:
    with Journal.open(path, clock=clock or Clock()) as j:
        fill(j, n, station=station, clock=clock)
    return str(path)


@pytest.mark.parametrize("key, value", [("journal_id", "f" * 32), ("station", "Station 9")])
def test_editing_the_journal_id_or_station_breaks_row_one(tmp_path, key, value):
    path = journal_of(tmp_path / "s1.db", "Station 1")
    assert verify(path).intact
    raw(path, "UPDATE meta SET value = ? WHERE key = ?", (value, key))
    report = verify(path)
    assert report.broken_row == 1 and "journal id" in report.reason


def test_journals_copied_from_one_empty_file_get_their_own_ids_and_merge_whole(tmp_path):
    template = tmp_path / "template.db"
    Journal.open(template).close()
    for name in ("a.db", "b.db"):
        shutil.copy(template, tmp_path / name)
    a = journal_of(tmp_path / "a.db", "Station A")
    b = journal_of(tmp_path / "b.db", "Station B")
    ids = [dict(raw(p, "SELECT key, value FROM meta"))["journal_id"] for p in (a, b)]
    assert ids[0] != ids[1]
    report = merge([a, b], str(tmp_path / "event.db"))
    assert (report.rows, report.duplicates) == (6, 0)
    stations = raw(str(tmp_path / "event.db"), "SELECT station FROM challenges")
    assert sorted(s for (s,) in stations) == ["Station A"] * 3 + ["Station B"] * 3


def test_a_copy_with_an_edited_id_is_refused_not_merged_twice(tmp_path):
    a = journal_of(tmp_path / "a.db", "Station A")
    copy = str(tmp_path / "copy.db")
    shutil.copy(a, copy)
    raw(copy, "UPDATE meta SET value = ? WHERE key = 'journal_id'", ("e" * 32,))
    with pytest.raises(ChainBroken) as e:
        merge([a, copy], str(tmp_path / "event.db"))
    assert e.value.path == copy and e.value.row == 1
    report = merge([a, a], str(tmp_path / "event.db"))  # the same journal twice: kept once
    assert (report.rows, report.duplicates) == (3, 3)


def test_a_merged_journal_chains_its_own_id_and_merges_again_by_origin(tmp_path):
    a = journal_of(tmp_path / "a.db", "Station A")
    b = journal_of(tmp_path / "b.db", "Station B")
    first = str(tmp_path / "first.db")
    merge([a, b], first)
    assert dict(raw(first, "SELECT key, value FROM meta"))["station"] == "(merged)"
    raw(first, "UPDATE meta SET value = 'Station A' WHERE key = 'station'")
    assert verify(first).broken_row == 1
    raw(first, "UPDATE meta SET value = '(merged)' WHERE key = 'station'")
    report = merge([first, a, b], str(tmp_path / "again.db"))
    assert (report.rows, report.duplicates) == (6, 6)


def test_an_older_journal_without_chained_id_verifies_and_merges_with_a_note(tmp_path):
    old = str(tmp_path / "old.db")
    Journal.open(old).close()
    raw(old, "DELETE FROM meta WHERE key = 'chain'")  # as journals were before chained ids
    journal_of(old, "Station O")
    report = verify(old)
    assert report.intact and LEGACY_NOTE in report.describe()
    result = CliRunner().invoke(main, ["journal", "merge", old, "-o",
                                       str(tmp_path / "event.db")])
    assert result.exit_code == 0, result.output
    assert "older adjudicator" in result.stdout and "Station O, 3 challenges" in result.stdout
