"""Every export of the hub's journal says which rows came from a station the director never
accepted (issue 26, item 11): a column `accepted`, yes/no (true/false in JSON), read from the hub
journal's own key table; a station journal's export has no such column."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.hub.identity import StationKey
from adjudicator.hub.hub_journal import HubJournal
from adjudicator.journal import Journal, export_journal, outbox
from adjudicator.journal.export import FIELDS
from adjudicator.judging.verdict import adjudicate


def station(tmp_path, make_lexicon, name: str, n: int):
    lex = make_lexicon(["QI", "ZA"])
    with Journal.open(tmp_path / f"{name}.db") as journal:
        journal.forward()
        for i in range(n):
            journal.record(adjudicate(lex, ("QI",)), station=name, mode="station",
                           table=str(i + 1))
        return journal.journal_id(), outbox.pending(journal.conn, 0, 100)


@pytest.fixture
def hub_db(tmp_path, make_lexicon):
    """A hub journal with rows from Desk 1 (accepted) and from Ghost (waiting, never accepted)."""
    path = str(tmp_path / "hub.db")
    hub = HubJournal(path)
    for name, n, accepted in (("Desk 1", 2, True), ("Ghost", 3, False)):
        jid, rows = station(tmp_path, make_lexicon, name, n)
        key = StationKey(f"k-{name}", b"s" * 32, name, "127.0.0.1", "2026-11-22T14:00:00Z",
                         accepted=accepted, journal_id=jid)
        hub.accept(jid, rows, station=name, key=key)
        hub.keep_key(key)
    hub.close()
    return path


def test_csv_and_json_exports_mark_rows_from_a_station_never_accepted(hub_db):
    rows = list(csv.DictReader(io.StringIO(export_journal(hub_db, "csv"))))
    assert tuple(rows[0]) == FIELDS + ("accepted", "wrong_list", "hub_check", "hub_station")
    assert [(r["station"], r["accepted"]) for r in rows] == [
        ("Desk 1", "yes"), ("Desk 1", "yes"), ("Ghost", "no"), ("Ghost", "no"), ("Ghost", "no")]
    data = json.loads(export_journal(hub_db, "json"))
    assert [(r["station"], r["accepted"]) for r in data] == [
        ("Desk 1", True), ("Desk 1", True), ("Ghost", False), ("Ghost", False), ("Ghost", False)]
    since = json.loads(export_journal(hub_db, "json", 3))
    assert [r["accepted"] for r in since] == [False, False]


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_the_directors_export_command_marks_them_and_checks_the_chain(hub_db, fmt):
    done = CliRunner().invoke(main, ["journal", "export", hub_db, "--format", fmt])
    assert done.exit_code == 0, done.output
    if fmt == "json":
        marks = [r["accepted"] for r in json.loads(done.stdout)]
        assert marks == [True, True, False, False, False]
    else:
        marks = [r["accepted"] for r in csv.DictReader(io.StringIO(done.stdout))]
        assert marks == ["yes", "yes", "no", "no", "no"]


def test_a_station_forgotten_by_the_hub_counts_as_not_accepted(hub_db):
    """A key the hub no longer holds (a Reject that forgets it): its rows say no."""
    import sqlite3

    with sqlite3.connect(hub_db) as conn:
        conn.execute("DELETE FROM hub_keys WHERE station = 'Desk 1'")
    rows = list(csv.DictReader(io.StringIO(export_journal(hub_db, "csv"))))
    assert {r["accepted"] for r in rows} == {"no"}


def test_a_station_journal_has_no_accepted_column(tmp_path, make_lexicon):
    station(tmp_path, make_lexicon, "Desk 1", 1)
    text = export_journal(str(tmp_path / "Desk 1.db"), "csv")
    assert text.splitlines()[0] == ",".join(FIELDS)
    assert "accepted" not in json.loads(export_journal(str(tmp_path / "Desk 1.db"), "json"))[0]
