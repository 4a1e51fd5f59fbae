"""Export for the director (CSV/JSON, --since, flags); merging station journals into one."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner
from journal_helpers import Clock, fill, raw, verdict

from adjudicator.cli import main
from adjudicator.errors import EXIT_ENTRY, EXIT_IO, EXIT_NOT_RECORDED, JournalError
from adjudicator.journal import RECHECKS_DIFFER, SPLIT_LOOKUP, Journal, verify
from adjudicator.journal import export_journal
from adjudicator.journal.export import FIELDS
from adjudicator.journal.merge import merge


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture
def flagged(jpath, clock):
    """Three challenges: a plain one, a quick second one, and a recheck that differs."""
    with Journal.open(jpath, clock=clock) as j:
        j.record(verdict("cat", "xu"), station="S1", mode="station", table="7", round="2",
                 rule="5-per-word")
        clock.advance(30)
        j.record(verdict("qi", acceptable=False), station="S1", mode="station")
        clock.advance(300)
        j.record(verdict("qi"), station="S1", mode="station", recheck_of=2,
                 secondary_agrees=False)
        j.set_print_status(1, "failed", "paper out")
    return jpath


def test_csv_export_has_words_verdict_and_flags(flagged, runner):
    result = runner.invoke(main, ["journal", "export", flagged, "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert tuple(rows[0]) == FIELDS
    assert [r["words"] for r in rows] == ["CAT XU", "QI", "QI"]
    assert [r["verdict"] for r in rows] == ["ACCEPTABLE", "UNACCEPTABLE", "ACCEPTABLE"]
    assert [r["flags"] for r in rows] == ["", SPLIT_LOOKUP, RECHECKS_DIFFER]
    assert (rows[0]["table"], rows[0]["round"], rows[0]["rule"]) == ("7", "2", "5-per-word")
    assert (rows[0]["print_status"], rows[0]["print_reason"]) == ("failed", "paper out")
    assert (rows[2]["recheck_of"], rows[2]["secondary_agrees"]) == ("2", "no")


def test_json_export_since_a_seq_and_since_a_time(flagged, runner):
    result = runner.invoke(main, ["journal", "export", flagged, "--format", "json",
                                  "--since", "1"])
    assert [r["seq"] for r in json.loads(result.stdout)] == [2, 3]
    data = json.loads(export_journal(flagged, "json", "2026-11-22T14:05:00+00:00"))
    assert [(r["seq"], r["words"], r["flags"]) for r in data] == [(3, ["QI"], [RECHECKS_DIFFER])]


def test_export_to_a_file_and_from_the_default_path(flagged, runner, tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_JOURNAL", flagged)
    out = tmp_path / "out.csv"
    result = runner.invoke(main, ["journal", "export", "-o", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    assert out.read_text().count("\n") == 4


def test_export_refuses_a_bad_since_as_usage(flagged, runner):
    result = runner.invoke(main, ["journal", "export", flagged, "--since", "lunchtime"])
    assert result.exit_code == EXIT_ENTRY and "2026-11-22T14:00" in result.output


def test_export_of_a_broken_journal_still_writes_but_warns(flagged, runner):
    raw(flagged, "UPDATE challenges SET words='ZA' WHERE seq=2")
    result = runner.invoke(main, ["journal", "export", flagged])
    assert result.exit_code == EXIT_NOT_RECORDED
    assert "ZA" in result.stdout and "chain broken at row 2" in result.stderr


def station_journal(path, station, times, clock_start_offset=0.0):
    clock = Clock()
    clock.advance(clock_start_offset)
    with Journal.open(str(path), clock=clock) as j:
        for t in times:
            clock.advance(t)
            j.record(verdict("cat"), station=station, mode="station")
    return str(path)


def test_merge_orders_by_time_keeps_identity_and_has_its_own_chain(tmp_path, runner):
    a = station_journal(tmp_path / "a.db", "Station A", [100, 100, 100])  # +100 +200 +300
    b = station_journal(tmp_path / "b.db", "Station B", [150, 100])  # +150 +250
    with Journal.open(a) as j:
        j.set_print_status(2, "printed")
    out = str(tmp_path / "event.db")
    result = runner.invoke(main, ["journal", "merge", a, b, "-o", out])
    assert result.exit_code == 0, result.output
    assert "5 challenges merged" in result.stdout
    with Journal.open(out) as m:
        rows = list(m.rows())
    assert [(r.station, r.origin_seq) for r in rows] == [
        ("Station A", 1), ("Station B", 1), ("Station A", 2), ("Station B", 2),
        ("Station A", 3)]
    assert [r.seq for r in rows] == [1, 2, 3, 4, 5]
    assert rows[2].print_status == "printed"
    assert len({r.origin_journal for r in rows}) == 2
    assert verify(out).intact
    assert runner.invoke(main, ["journal", "verify", out]).exit_code == 0


def test_merge_refuses_a_broken_chain_naming_file_and_row(tmp_path, runner):
    a = station_journal(tmp_path / "a.db", "Station A", [100, 100, 100])
    b = station_journal(tmp_path / "b.db", "Station B", [150, 100])
    raw(b, "DELETE FROM challenges WHERE seq=1")
    out = tmp_path / "event.db"
    result = runner.invoke(main, ["journal", "merge", a, b, "-o", str(out)])
    assert result.exit_code == EXIT_NOT_RECORDED
    assert f"{b}: chain broken at row 1" in result.stderr
    assert not out.exists()


def test_merge_keeps_flags_renumbers_rechecks_and_skips_duplicates(tmp_path, flagged):
    other = station_journal(tmp_path / "b.db", "S2", [0], -10)  # 13:59:50, before S1
    out = str(tmp_path / "event.db")
    report = merge([flagged, other, flagged], out)
    assert (report.rows, report.duplicates) == (4, 3)
    with Journal.open(out) as m:
        rows = list(m.rows())
    assert [r.station for r in rows] == ["S2", "S1", "S1", "S1"]
    assert rows[2].flags == (SPLIT_LOOKUP,)
    assert (rows[3].recheck_of, rows[3].flags) == (3, (RECHECKS_DIFFER,))  # was 2 at S1
    assert (rows[1].print_status, rows[1].print_reason) == ("failed", "paper out")


def test_merged_journals_merge_again_without_duplicates(tmp_path):
    a = station_journal(tmp_path / "a.db", "A", [10, 10])
    b = station_journal(tmp_path / "b.db", "B", [15])
    first = str(tmp_path / "first.db")
    merge([a, b], first)
    with Journal.open(a) as j:  # station A goes on after the first merge
        j.record(verdict("xu"), station="A", mode="station")
    second = str(tmp_path / "second.db")
    report = merge([first, a], second)
    assert (report.rows, report.duplicates) == (4, 2)
    assert verify(second).intact


def test_merge_will_not_overwrite_without_force_nor_write_onto_an_input(tmp_path, runner):
    a = station_journal(tmp_path / "a.db", "A", [10])
    out = tmp_path / "event.db"
    out.write_text("precious")
    result = runner.invoke(main, ["journal", "merge", a, "-o", str(out)])
    assert result.exit_code == EXIT_IO and "--force" in result.stderr
    assert out.read_text() == "precious"
    assert runner.invoke(main, ["journal", "merge", a, "-o", str(out), "--force"]).exit_code == 0
    assert verify(str(out)).rows == 1
    with pytest.raises(JournalError, match="one of the journals being merged"):
        merge([a], a, force=True)


def test_an_open_journal_exports_itself_for_the_kiosk(flagged):
    with Journal.open(flagged) as j:
        text = j.export("csv", since="1")
        assert text.splitlines()[0].startswith("seq,") and len(text.splitlines()) == 3
        assert json.loads(j.export("json"))[1]["flags"] == [SPLIT_LOOKUP]
        with pytest.raises(JournalError, match="not one of"):
            j.export("xml")


def test_merge_into_an_impossible_place_is_a_plain_error(tmp_path, runner):
    a = station_journal(tmp_path / "a.db", "A", [10])
    (tmp_path / "blocker").write_text("x")
    result = runner.invoke(main, ["journal", "merge", a, "-o", str(tmp_path / "blocker" / "e.db")])
    # a file that cannot be written (README: exit 4), not a broken chain (5)
    assert result.exit_code == EXIT_IO and "blocker is not a folder" in result.stderr
