"""PrintQueue: never blocks, one job at a time, a clear notice on failure, reprint on recovery."""

from __future__ import annotations

import threading

import pytest
from escpos_decode import decode

from adjudicator.docket import PrintQueue, Slip
from adjudicator.station.printdesk import journal_on_done, reprint_from_journal, slip_from_row
from adjudicator.journal import Journal
from adjudicator.judging.rules import ChallengeRule, consequence
from adjudicator.judging.verdict import adjudicate

WAIT = 20  # generous upper bound for a test waiting on the worker; never an assertion on time


class Done:
    """Collects on_done calls; wait(n) blocks until n have arrived."""

    def __init__(self):
        self.calls: list[tuple[int, bool, str]] = []
        self.threads: set[str] = set()
        self._cond = threading.Condition()

    def __call__(self, seq, ok, message):
        with self._cond:
            self.calls.append((seq, ok, message))
            self.threads.add(threading.current_thread().name)
            self._cond.notify_all()

    def wait(self, n: int) -> list[tuple[int, bool, str]]:
        with self._cond:
            assert self._cond.wait_for(lambda: len(self.calls) >= n, WAIT), self.calls
            return list(self.calls)


def a_slip(number=12, **over) -> Slip:
    values = dict(event="Club Night", station="Station 1", number=number, time="14:03",
                  words=("QI", "ZA"), acceptable=True, consequence="The play stands.",
                  lexicon_name="CSW21", short_fingerprint="0123456789ab", table="7")
    values.update(over)
    return Slip(**values)


@pytest.fixture
def done():
    return Done()


def test_submit_returns_before_the_job_ends_and_reports_on_the_worker(fake_printer, connect, done):
    fake_printer.state = None  # switched off: the job can only end after its bounded wait
    queue = PrintQueue(connect(fake_printer, status_timeout=0.2), done)
    queue.submit(12, a_slip())
    assert done.calls == []  # the caller was not kept waiting for the printer
    [(seq, ok, message)] = done.wait(1)
    assert (seq, ok) == (12, False)
    assert message == ("Slip for challenge #12 not printed: printer not answering. Check it is "
                       "switched on and its cable is plugged in and press P to reprint.")
    assert done.threads == {"docket-printer"}
    queue.close()


def test_jobs_print_one_at_a_time_in_order(fake_printer, connect, done):
    queue = PrintQueue(connect(fake_printer), done)
    for n in (1, 2, 3):
        queue.submit(n, a_slip(number=n))
    assert [c[:2] for c in done.wait(3)] == [(1, True), (2, True), (3, True)]
    printed = decode(fake_printer.take(), 32)
    assert printed.cuts == 3
    assert [line.text for line in printed.lines if line.text.startswith("CHALLENGE #")] == [
        "CHALLENGE #1", "CHALLENGE #2", "CHALLENGE #3"]
    assert fake_printer.requests == [1, 2, 3, 4] * 6  # status before and after every job
    queue.close()


def test_paper_out_notice_then_reprint_after_recovery(fake_printer, connect, done):
    fake_printer.state = "paper out"
    queue = PrintQueue(connect(fake_printer), done)
    queue.submit(12, a_slip())
    assert done.wait(1)[0] == (
        12, False, "Slip for challenge #12 not printed: paper out. Reload paper and press P to "
        "reprint.")
    assert fake_printer.take() == b""
    fake_printer.state = "ok"  # paper reloaded
    queue.submit(12, a_slip(reprint=True))
    assert done.wait(2)[1] == (12, True, "Reprint for challenge #12 printed.")
    out = decode(fake_printer.take(), 32)
    assert "REPRINT" in out.text and "ACCEPTABLE" in out.text and out.find("CHALLENGE #12")
    queue.close()


@pytest.mark.parametrize("state, words", [
    ("cover open", "printer cover open. Close the printer cover and press P to reprint."),
    ("cutter error", "cutter jammed. Open the cover, clear the jammed paper and close the cover "
                     "and press P to reprint."),
])
def test_each_fault_has_its_own_notice(fake_printer, connect, done, state, words):
    fake_printer.state = state
    queue = PrintQueue(connect(fake_printer), done)
    queue.submit(5, a_slip(number=5))
    assert done.wait(1)[0] == (5, False, f"Slip for challenge #5 not printed: {words}")
    queue.close()


def test_near_end_prints_with_a_warning(fake_printer, connect, done):
    fake_printer.state = "near end"
    queue = PrintQueue(connect(fake_printer), done)
    queue.submit(3, a_slip(number=3))
    assert done.wait(1)[0] == (
        3, True, "Slip for challenge #3 printed. Paper running low: have a new roll ready.")
    queue.close()


def test_no_printer_configured(done):
    class Settings:
        url, baudrate, flow, write_timeout, paper, columns = "", 19200, "none", 5, "80mm", 48
    queue = PrintQueue(Settings(), done)
    queue.submit(1, a_slip(number=1))
    [(seq, ok, message)] = done.wait(1)
    assert not ok and "no printer configured" in message
    queue.close()


def test_full_queue_is_refused_through_on_done_not_by_blocking(fake_printer, connect, done):
    fake_printer.state = None
    queue = PrintQueue(connect(fake_printer, status_timeout=0.2), done, max_pending=1)
    for n in range(1, 5):
        queue.submit(n, a_slip(number=n))
    calls = done.wait(4)
    assert sorted(c[0] for c in calls) == [1, 2, 3, 4]
    assert any("print queue full" in c[2] for c in calls)
    assert not any(c[1] for c in calls)
    queue.close()


def test_a_failing_on_done_does_not_stop_the_worker(fake_printer, connect, done):
    seen = []

    def on_done(seq, ok, message):
        seen.append(seq)
        if seq == 1:
            raise RuntimeError("kiosk bug")
        done(seq, ok, message)

    queue = PrintQueue(connect(fake_printer), on_done)
    queue.submit(1, a_slip(number=1))
    queue.submit(2, a_slip(number=2))
    assert done.wait(1)[0][:2] == (2, True) and seen == [1, 2]
    queue.close()


def test_close_stops_the_worker(fake_printer, connect, done):
    queue = PrintQueue(connect(fake_printer), done)
    queue.close()
    assert not queue._thread.is_alive()
    with pytest.raises(RuntimeError):
        queue.submit(1, a_slip())


def test_journal_records_failed_then_reprinted(tmp_path, make_lexicon, fake_printer, connect,
                                               done):
    """Runner mode, end to end below the screen: record, print, paper out, reload, reprint."""
    lexicon = make_lexicon(["QI", "ZA"], name="TINY")
    journal = Journal.open(str(tmp_path / "journal.db"))
    seq = journal.record(adjudicate(lexicon, ("QI", "ZAX")), station="Runner desk", mode="runner",
                         rule="5-per-word", table="14", round="3")
    queue = PrintQueue(connect(fake_printer), journal_on_done(journal, done))

    fake_printer.state = "paper out"
    queue.submit(seq, slip_from_row(journal.get(seq), "Club Night"))
    assert done.wait(1)[0][1] is False
    row = journal.get(seq)
    assert row.print_status == "failed" and "paper out" in row.print_reason

    # Never printed: the first slip that comes out is the original, and the journal says
    # printed, not reprinted (issue 11).
    fake_printer.state = "ok"
    slip = reprint_from_journal(journal, seq, "Club Night", queue)
    assert not slip.reprint and slip.table == "14" and slip.words == ("QI", "ZAX")
    assert done.wait(2)[1][1] is True
    assert journal.get(seq).print_status == "printed"
    out = decode(fake_printer.take(), 32)
    assert "REPRINT" not in out.text and "UNACCEPTABLE" in out.text
    assert out.find("Table 14") and out.find("Round 3") and out.find("QI ZAX")

    # Printed once: another is a REPRINT, and the journal says reprinted.
    slip = reprint_from_journal(journal, seq, "Club Night", queue)
    assert slip.reprint
    assert done.wait(3)[2][1] is True
    assert journal.get(seq).print_status == "reprinted"
    out = decode(fake_printer.take(), 32)
    assert "REPRINT" in out.text and "UNACCEPTABLE" in out.text
    assert out.find("Table 14") and out.find("Round 3") and out.find("QI ZAX")
    assert out.find("The play comes off the board")
    assert out.find(f"CHALLENGE #{seq}") and out.find("Lexicon TINY")
    queue.close()
    journal.close()


def test_first_print_is_recorded_as_printed(tmp_path, make_lexicon, fake_printer, connect, done):
    lexicon = make_lexicon(["QI", "ZA"])
    journal = Journal.open(str(tmp_path / "journal.db"))
    seq = journal.record(adjudicate(lexicon, ("QI",)), station="S1", mode="runner",
                         rule="10-per-word")
    queue = PrintQueue(connect(fake_printer), journal_on_done(journal, done))
    queue.submit(seq, slip_from_row(journal.get(seq), "Club Night"))
    assert done.wait(1)[0][1] is True
    assert journal.get(seq).print_status == "printed"
    out = decode(fake_printer.take(), 32)
    wanted = consequence(ChallengeRule.WORD10, True, 1)  # the rule recorded with the row
    assert "(1 word x 10)" in wanted and wanted in " ".join(out.text)
    queue.close()
    journal.close()
