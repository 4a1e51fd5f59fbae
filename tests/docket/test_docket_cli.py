"""`adjudicator printer test|status` on the fake printer: status in words, exit 7 on failure."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from escpos_decode import decode

from adjudicator.cli import main
from adjudicator.errors import EXIT_ENTRY, EXIT_IO, EXIT_PRINTER


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, list(args), catch_exceptions=False)

    return invoke


def test_printer_test_prints_a_test_slip_and_says_ready(run, fake_printer):
    result = run("printer", "test", fake_printer.path, "--columns", "32", "--write-timeout", "1")
    assert result.exit_code == 0, result.output
    assert f"Printer: {fake_printer.path}, 19200 baud 8N1, flow none" in result.output
    assert "Before the test slip: Printer ready." in result.output
    assert "After the test slip: Printer ready." in result.output
    out = decode(fake_printer.take(), 32)
    assert out.find("NOT A VERDICT") and out.cuts == 1


def test_printer_test_paper_out_exits_7_with_words(run, fake_printer):
    fake_printer.state = "paper out"
    result = run("printer", "test", fake_printer.path, "--write-timeout", "1")
    assert result.exit_code == EXIT_PRINTER
    assert "test slip not printed: Paper out. Reload paper." in result.output
    assert fake_printer.take() == b""


def test_printer_test_near_end_is_a_warning_not_a_failure(run, fake_printer):
    fake_printer.state = "near end"
    result = run("printer", "test", fake_printer.path, "--write-timeout", "1")
    assert result.exit_code == 0
    assert "paper running low. Have a new roll ready." in result.output


def test_printer_settings_come_from_the_config(run, fake_printer, tmp_path):
    config = tmp_path / "station.toml"
    config.write_text(f'[printer]\nurl = "{fake_printer.path}"\nbaudrate = 9600\n'
                      'flow = "xonxoff"\ncolumns = 32\nwrite_timeout = 1\n')
    result = run("printer", "test", "--config", str(config))
    assert result.exit_code == 0, result.output
    assert "9600 baud 8N1, flow xonxoff, write timeout 1 s, 32 columns" in result.output
    decode(fake_printer.take(), 32)  # 32 columns: nothing overflows


def test_printer_status_reports_without_printing(run, fake_printer):
    fake_printer.state = "cover open"
    result = run("printer", "status", fake_printer.path)
    assert result.exit_code == EXIT_PRINTER
    assert "Printer cover open. Close the printer cover." in result.output
    assert fake_printer.take() == b""


def test_no_url_anywhere_is_a_printer_error(run):
    result = run("printer", "test")
    assert result.exit_code == EXIT_PRINTER
    assert "no printer: give its URL" in result.output


def test_missing_device_says_so(run, tmp_path):
    result = run("printer", "test", str(tmp_path / "ttyUSB7"))
    assert result.exit_code == EXIT_PRINTER
    assert "cannot open" in result.output and "switched on" in result.output


def test_reprint_from_the_journal_by_number(run, fake_printer, tmp_path, make_lexicon):
    from adjudicator.journal import Journal
    from adjudicator.judging.verdict import adjudicate

    journal_path = str(tmp_path / "journal.db")
    with Journal.open(journal_path) as journal:
        seq = journal.record(adjudicate(make_lexicon(["QI"]), ("QI",)), station="Desk",
                             mode="runner", rule="5-per-turn", table="3")
    config = tmp_path / "runners.toml"
    config.write_text(f'event = "Spring Open"\njournal = "{journal_path}"\n'
                      f'[printer]\nurl = "{fake_printer.path}"\ncolumns = 42\nwrite_timeout = 1\n')

    fake_printer.state = "cover open"
    failed = run("printer", "reprint", str(seq), "--config", str(config))
    assert failed.exit_code == EXIT_PRINTER
    assert (f"Slip for challenge #{seq} not printed: printer cover open. Close the printer "
            "cover and run this command again.") in failed.output

    # Never printed before: the first slip that comes out is the original, not a REPRINT, and
    # the journal says printed (issue 11).
    fake_printer.state = "ok"
    result = run("printer", "reprint", str(seq), "--config", str(config))
    assert result.exit_code == 0, result.output
    assert f"Slip for challenge #{seq} printed." in result.output
    out = decode(fake_printer.take(), 42)
    assert not any("REPRINT" in line for line in out.text)
    assert out.find("Spring Open") and out.find("Table 3") and out.find("Its player scores 5 extra")
    with Journal.open(journal_path) as journal:
        assert journal.get(seq).print_status == "printed"

    # Printed once: now it is a reprint.
    result = run("printer", "reprint", str(seq), "--config", str(config))
    assert result.exit_code == 0, result.output
    assert f"Reprint for challenge #{seq} printed." in result.output
    out = decode(fake_printer.take(), 42)
    assert "REPRINT" in out.text
    with Journal.open(journal_path) as journal:
        assert journal.get(seq).print_status == "reprinted"


def test_reprint_of_an_unknown_challenge_is_a_usage_mistake(run, fake_printer, tmp_path):
    """A number the journal does not hold was mistyped: exit 2, as `judge --recheck-of 99`
    (README's table), not 5, the code of a broken chain or a verdict not recorded."""
    from adjudicator.journal import Journal

    Journal.open(str(tmp_path / "j.db")).close()  # a journal, without challenge 99
    result = run("printer", "reprint", "99", "--url", fake_printer.path,
                 "--journal", str(tmp_path / "j.db"))
    assert result.exit_code == EXIT_ENTRY, result.output
    assert "there is no challenge 99 in the journal" in result.output
    assert fake_printer.take() == b""


def test_reprint_from_a_journal_not_there_exits_4_and_creates_none(run, fake_printer, tmp_path):
    """A mistyped --journal is a file that cannot be read (exit 4, as `journal verify` says
    it): no empty journal is made at that path, nothing is sent to the printer."""
    result = run("printer", "reprint", "1", "--url", fake_printer.path,
                 "--journal", str(tmp_path / "typo.db"))
    assert result.exit_code == EXIT_IO, result.output
    assert "no journal at" in result.output
    assert not list(tmp_path.glob("typo.db*"))
    assert fake_printer.take() == b""
