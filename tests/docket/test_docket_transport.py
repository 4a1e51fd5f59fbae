"""Jobs against a fake printer on a pty in every state: status in words, bounded waits."""

from __future__ import annotations

import pytest
from escpos_decode import decode
from fake_printer import STATES, FakePrinter

from adjudicator.docket import Connection, PrinterStatus, Slip, encode_slip, open_printer, print_job
from adjudicator.docket import status as st
from adjudicator.errors import ConfigError, PrinterError


def a_slip(**over) -> Slip:
    values = dict(event="Club Night", station="Station 1", number=12, time="14:03",
                  words=("QI", "ZA"), acceptable=False,
                  consequence="The play comes off the board: its player loses the turn.",
                  lexicon_name="CSW21", short_fingerprint="0123456789ab", table="7")
    values.update(over)
    return Slip(**values)


# -- status bytes -> words (Epson DLE EOT 1-4, fixed bits 0x12) --------------------------------

@pytest.mark.parametrize("state, problems, warnings", [
    ("ok", (), ()),
    ("near end", (), (st.PAPER_LOW,)),
    ("paper out", (st.PAPER_OUT,), ()),
    ("cover open", (st.COVER_OPEN,), ()),
    ("cutter error", (st.CUTTER_ERROR,), ()),
    ("offline", (st.OFFLINE,), ()),
    ("garbled", (st.GARBLED,), ()),
])
def test_status_bytes_in_words(state, problems, warnings):
    status = PrinterStatus.from_replies(dict(zip((1, 2, 3, 4), STATES[state])))
    assert status.problems == problems and status.warnings == warnings
    assert status.ok is (not problems)


def test_status_messages_say_what_to_do():
    paper_out = PrinterStatus.from_replies({1: 0x1A, 2: 0x32, 3: 0x12, 4: 0x7E})
    assert paper_out.message() == "Paper out. Reload paper."
    assert paper_out.reason == "paper out"
    assert PrinterStatus.silent().message().startswith(
        "Printer not answering. Check it is switched on")
    low = PrinterStatus.from_replies({1: 0x12, 2: 0x12, 3: 0x12, 4: 0x1E})
    assert low.describe() == "Printer ready, but paper running low. Have a new roll ready."
    assert PrinterStatus.blocked().problems == (st.NOT_TAKING_DATA,)


def test_a_printer_that_only_knows_dle_eot_1_is_judged_on_that():
    assert PrinterStatus.from_replies({1: b"\x12"}).ok
    assert PrinterStatus.from_replies({1: b"\x1a"}).problems == (st.OFFLINE,)


# -- whole jobs over the pty ----------------------------------------------------------------------

def test_ok_prints_the_slip_and_asks_status_before_and_after(fake_printer, connect):
    data = encode_slip(a_slip(), 32)
    result = print_job(connect(fake_printer), data)
    assert result.ok and result.problems == () and result.warnings == ()
    assert fake_printer.take() == data
    assert fake_printer.requests == [1, 2, 3, 4, 1, 2, 3, 4]
    out = decode(data, 32)
    assert out.find("CHALLENGE #12") and "UNACCEPTABLE" in out.text


def test_near_end_warns_and_keeps_printing(fake_printer, connect):
    fake_printer.state = "near end"
    result = print_job(connect(fake_printer), encode_slip(a_slip(), 32))
    assert result.ok and result.warnings == (st.PAPER_LOW,)
    assert b"CHALLENGE #12" in fake_printer.take()


@pytest.mark.parametrize("state, problem", [
    ("paper out", st.PAPER_OUT), ("cover open", st.COVER_OPEN),
    ("cutter error", st.CUTTER_ERROR), ("offline", st.OFFLINE), ("garbled", st.GARBLED),
])
def test_fault_before_the_job_sends_nothing(fake_printer, connect, state, problem):
    fake_printer.state = state
    result = print_job(connect(fake_printer), encode_slip(a_slip(), 32))
    assert not result.ok and result.problems == (problem,)
    assert fake_printer.take() == b""  # the slip was not sent into a printer that cannot print


def test_paper_running_out_mid_job_is_caught_by_the_status_after(fake_printer, connect):
    fake_printer.state_after = (100, "paper out")
    result = print_job(connect(fake_printer), encode_slip(a_slip(), 32))
    assert not result.ok and result.problems == (st.PAPER_OUT,)
    assert result.before.ok and not result.after.ok


def test_switched_off_printer_is_no_answer_within_the_bound(fake_printer, connect):
    fake_printer.state = None
    result = print_job(connect(fake_printer, status_timeout=0.2), encode_slip(a_slip(), 32))
    assert not result.ok and result.problems == (st.NO_ANSWER,)
    assert fake_printer.requests == [1]  # one unanswered request is enough to know


def test_printer_vanishing_mid_job_is_not_counted_as_printed(fake_printer, connect):
    fake_printer.vanish_after = 50
    result = print_job(connect(fake_printer), encode_slip(a_slip(), 32))
    assert not result.ok and result.problems == (st.NO_ANSWER,)


def test_printer_that_stops_reading_mid_job_times_out_instead_of_hanging(fake_printer, connect):
    """No flow control: the line's buffer fills and the write must give up after write_timeout."""
    fake_printer.stall_after = 1000
    long_job = encode_slip(a_slip(), 32) * 200  # more than the pty's buffer holds
    result = print_job(connect(fake_printer), long_job)
    assert not result.ok and result.problems == (st.NOT_TAKING_DATA,)
    assert len(fake_printer.take()) < len(long_job)


def test_printer_that_reads_nothing_is_not_answering(fake_printer, connect):
    fake_printer.stop_reading(xoff=False)
    result = print_job(connect(fake_printer, status_timeout=0.2), encode_slip(a_slip(), 32))
    assert not result.ok and result.problems == (st.NO_ANSWER,)


def test_xoff_mid_job_with_xonxoff_flow_times_out_then_recovers(fake_printer, connect):
    conn = connect(fake_printer, flow="xonxoff")
    fake_printer.xoff_after = 40
    result = print_job(conn, encode_slip(a_slip(), 32))
    assert not result.ok and result.problems == (st.NOT_TAKING_DATA,)
    fake_printer.resume()
    fake_printer.take()
    again = print_job(conn, encode_slip(a_slip(reprint=True), 32))
    assert again.ok, again
    assert "REPRINT" in decode(fake_printer.take()).text


def test_rtscts_setting_opens_the_port(fake_printer, connect):
    assert print_job(connect(fake_printer, flow="rtscts", baudrate=9600),
                     encode_slip(a_slip(), 32)).ok


def test_missing_device_is_no_answer_not_a_crash(tmp_path):
    result = print_job(Connection(str(tmp_path / "ttyUSB9"), write_timeout=0.5), b"x\n")
    assert not result.ok and result.problems == (st.NO_ANSWER,)
    with pytest.raises(PrinterError) as e:
        open_printer(str(tmp_path / "ttyUSB9"))
    assert "printer not answering" in str(e.value) and e.value.exit_code == 7


def test_settings_are_checked():
    with pytest.raises(ConfigError):
        Connection("/dev/ttyUSB0", flow="dtr")
    with pytest.raises(ConfigError):
        Connection("/dev/ttyUSB0", write_timeout=0)
    with pytest.raises(PrinterError):
        open_printer("")


def test_connection_from_printer_settings_like_object():
    class Settings:
        url, baudrate, flow, write_timeout, paper, columns = "socket://10.0.0.5:9100", 9600, \
            "rtscts", 3, "58mm", 32
    conn = Connection.of(Settings())
    assert (conn.url, conn.baudrate, conn.flow, conn.write_timeout, conn.columns) == (
        "socket://10.0.0.5:9100", 9600, "rtscts", 3, 32)


def test_spy_url_traces_and_still_prints(fake_printer, connect):
    result = print_job(connect(fake_printer, url=f"spy://{fake_printer.path}?file=/dev/null"),
                       encode_slip(a_slip(), 32))
    assert result.ok and b"CHALLENGE #12" in fake_printer.take()


def test_fake_printer_closes_cleanly():
    printer = FakePrinter()
    printer.close()
    assert printer.gone
