"""`judge --journal` records before showing (single, batch); journal commands' help, exits."""

from __future__ import annotations

import socket

import pytest
from click.testing import CliRunner

from adjudicator.terminal import recording as journal_cli
from adjudicator.cli import main
from adjudicator.errors import EXIT_ENTRY, EXIT_IO, EXIT_NOT_RECORDED
from adjudicator.journal import Journal, verify


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args, input=None):
        return runner.invoke(main, list(args), input=input)

    return invoke


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text("QI\nZA\nCAT\nXU\n")
    return str(path)


UNRECOGNISED = "adjudicator: warning: UNRECOGNISED WORD LIST TINY"  # the tiny list (issue 29)


def errors_of(stderr: str) -> str:
    """STDERR without the warning that the tiny test list is unrecognised."""
    return "".join(ln for ln in stderr.splitlines(True) if not ln.startswith(UNRECOGNISED))


def rows(path):
    with Journal.open(path) as j:
        return list(j.rows())


def test_single_judge_records_as_runner_with_station_table_round(run, tiny, jpath):
    result = run("judge", "-l", tiny, "--journal", jpath, "--station", "Desk", "--table", "12",
                 "--round", "4", "qi", "za")
    assert (result.exit_code, result.stdout, errors_of(result.stderr)) == (0, "ACCEPTABLE\n", "")
    result = run("judge", "-l", tiny, "--journal", jpath, "--station", "Desk",
                 "--recheck-of", "1", "qi", "zzz")
    assert (result.exit_code, result.stdout) == (1, "UNACCEPTABLE\n")
    first, second = rows(jpath)
    assert (first.mode, first.station, first.table, first.round) == ("runner", "Desk", "12", "4")
    assert (first.words, first.acceptable, first.lexicon_name) == (("QI", "ZA"), True, "TINY")
    assert second.recheck_of == 1 and "rechecks differ: director to decide" in second.flags


def test_station_defaults_to_the_host_name(run, tiny, jpath):
    assert run("judge", "-l", tiny, "--journal", jpath, "cat").exit_code == 0
    assert rows(jpath)[0].station == socket.gethostname()


def test_without_journal_nothing_is_recorded(run, tiny, monkeypatch, tmp_path):
    assert run("judge", "-l", tiny, "cat").exit_code == 0
    assert not (tmp_path / "journal.db").exists()  # $ADJUDICATOR_JOURNAL is not used unasked


def test_single_judge_that_cannot_record_still_shows_the_verdict(run, tiny, tmp_path):
    (tmp_path / "foreign.db").write_text("another program's file")  # cannot be recorded in
    result = run("judge", "-l", tiny, "--journal", str(tmp_path / "foreign.db"), "qi")
    assert result.exit_code == EXIT_NOT_RECORDED
    assert result.stdout == "ACCEPTABLE\n"
    assert errors_of(result.stderr).startswith("adjudicator: NOT RECORDED: call the director (")
    assert errors_of(result.stderr).count("\n") == 1


def test_batch_records_every_judged_line_in_order(run, tiny, jpath, tmp_path):
    batch = tmp_path / "b.txt"
    batch.write_text("qi za\ncat5\nzzz\n\ncat xu\n" + "qi\n" * 600)
    result = run("judge", "-l", tiny, "--journal", jpath, "--batch", str(batch))
    lines = result.stdout.splitlines()
    assert result.exit_code == EXIT_ENTRY  # invalid lines, all recorded
    assert lines[:5] == ["ACCEPTABLE", lines[1], "UNACCEPTABLE", lines[3], "ACCEPTABLE"]
    assert lines[1].startswith("INVALID:") and lines[3].startswith("INVALID:")
    recorded = rows(jpath)
    assert len(recorded) == 603 == len(lines) - 2
    assert [r.words for r in recorded[:3]] == [("QI", "ZA"), ("ZZZ",), ("CAT", "XU")]
    assert all(r.mode == "runner" for r in recorded) and verify(jpath).intact


def test_batch_from_stdin_records_too(run, tiny, jpath):
    result = run("judge", "-l", tiny, "--journal", jpath, "--batch", "-", input="qi\nqzx\n")
    assert (result.exit_code, result.stdout) == (0, "ACCEPTABLE\nUNACCEPTABLE\n")
    assert [r.words for r in rows(jpath)] == [("QI",), ("QZX",)]


def test_batch_that_cannot_record_streams_verdicts_and_reports_each_line(run, tiny, tmp_path):
    (tmp_path / "foreign.db").write_text("another program's file")  # cannot be recorded in
    batch = tmp_path / "b.txt"
    batch.write_text("qi\nca5\nzzz\n")
    result = run("judge", "-l", tiny, "--journal", str(tmp_path / "foreign.db"),
                 "--batch", str(batch))
    assert result.exit_code == EXIT_NOT_RECORDED
    assert result.stdout.splitlines()[0::2] == ["ACCEPTABLE", "UNACCEPTABLE"]
    errors = errors_of(result.stderr).splitlines()
    assert [e.split(":")[1:3] for e in errors] == [[" NOT RECORDED", " call the director (line 1"],
                                                  [" NOT RECORDED", " call the director (line 3"]]


def test_no_verdict_line_is_written_before_its_row_is_committed(run, tiny, jpath, monkeypatch,
                                                                tmp_path):
    seen = []
    original = Journal.record_many

    def spy(self, items):
        import sys

        sys.stdout.flush()
        seen.append(sys.stdout.buffer.getvalue().count(b"\n"))  # CliRunner's captured bytes
        return original(self, items)

    monkeypatch.setattr(Journal, "record_many", spy)
    batch = tmp_path / "b.txt"
    batch.write_text("qi\n" * (journal_cli.BATCH_GROUP * 2 + 5))
    result = run("judge", "-l", tiny, "--journal", jpath, "--batch", str(batch))
    assert result.exit_code == 0
    group = journal_cli.BATCH_GROUP
    assert seen == [0, group, 2 * group]  # lines appear only after their group is committed


@pytest.mark.parametrize("args", [["journal"], ["journal", "verify"], ["journal", "export"],
                                  ["journal", "merge"], ["judge"]])
def test_help_texts_have_examples(run, args):
    result = run(*args, "--help")
    assert result.exit_code == 0 and "Example" in result.stdout
    assert "adjudicator " + " ".join(args) in result.stdout


def test_verify_of_the_default_journal(run, tiny, tmp_path):
    missing = run("journal", "verify")
    assert missing.exit_code == EXIT_IO and "no journal at" in missing.stderr  # issue 12
    default = str(tmp_path / "journal.db")  # $ADJUDICATOR_JOURNAL from tests/conftest.py
    run("judge", "-l", tiny, "--journal", default, "qi")
    ok = run("journal", "verify")
    assert ok.exit_code == 0 and "intact, 1 challenge," in ok.stdout


def test_journal_details_without_a_journal_are_a_usage_error(run, tiny):
    result = run("judge", "-l", tiny, "--round", "4", "qi")
    assert result.exit_code == EXIT_ENTRY and "need --journal" in result.output
    assert "ACCEPTABLE" not in result.stdout
