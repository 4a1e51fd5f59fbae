"""USB printer-class devices (/dev/usb/lp0, usblp): a character device that is not a tty is
opened as one, not through pyserial (issue 28, item 2). Against fake_lp's device: the printer
answers, stays silent, stalls, is unidirectional, or the device fails with each errno."""

from __future__ import annotations

import errno
import os
import stat
import time

import pytest
from escpos_decode import decode
from fake_lp import PATH, FakeLpDevice
from test_docket_transport import a_slip

from adjudicator.docket import Connection, encode_slip, lpdev, open_printer, print_job
from adjudicator.docket import status as st
from adjudicator.errors import PrinterError


def quick(**over) -> Connection:
    values = dict(url=PATH, write_timeout=0.5, columns=32, status_timeout=0.8)
    values.update(over)
    return Connection(**values)


def test_a_slip_goes_to_the_device_with_status_before_and_after(device):
    fake = device("ok", unread=b"\x12\x12stale")  # an old reply waiting: read and dropped
    data = encode_slip(a_slip(), 32)
    with open_printer(quick()) as printer:
        assert isinstance(printer, lpdev.LpPrinter)
    result = print_job(quick(), data)
    assert result.ok, result
    assert fake.printer.take() == data
    assert fake.printer.requests == [1, 2, 3, 4, 1, 2, 3, 4]
    assert "QI ZA" in decode(data).text
    assert fake.closed == fake.opened  # every fd it opened, closed


@pytest.mark.parametrize("state, problems", [
    ("paper out", (st.PAPER_OUT,)), ("cover open", (st.COVER_OPEN,)),
    ("cutter error", (st.CUTTER_ERROR,)), ("offline", (st.OFFLINE,)),
])
def test_dle_eot_answers_in_words(device, state, problems):
    fake = device(state)
    result = print_job(quick(), b"never printed\n")
    assert not result.ok and result.problems == problems
    assert fake.printer.take() == b""


def test_a_silent_printer_is_not_answering(device):
    fake = device(None)
    result = print_job(quick(status_timeout=0.2), b"x\n")
    assert result.problems == (st.NO_ANSWER,) and fake.printer.take() == b""


def test_a_printer_that_stops_taking_data_ends_the_write_at_its_timeout(device):
    fake = device("ok", stall_after=100)
    result = print_job(quick(write_timeout=0.3), encode_slip(a_slip(), 32))
    assert not result.ok and result.problems == (st.NOT_TAKING_DATA,)
    assert fake.written == 100


def test_unplugged_mid_job_is_not_answering(device):
    fake = device("ok")
    fake.printer.vanish_after = 50
    result = print_job(quick(), encode_slip(a_slip(), 32))
    assert not result.ok and result.problems == (st.NO_ANSWER,)


@pytest.mark.parametrize("port, problems", [
    ("ok", ()), ("paper out", (st.PAPER_OUT,)), ("offline", (st.OFFLINE,)),
    ("cutter error", (st.PRINTER_FAULT,)),  # the port says only "error"
])
def test_a_unidirectional_printer_is_asked_through_lpgetstatus(device, port, problems):
    fake = device(port, unidirectional=True)
    data = encode_slip(a_slip(), 32)
    result = print_job(quick(), data)
    assert result.problems == problems and result.ok is (not problems)
    assert fake.printer.requests == []  # no DLE EOT: it could never answer
    assert received(fake, len(data) if not problems else 0) == (data if not problems else b"")


def received(fake: FakeLpDevice, size: int) -> bytes:
    """What the printer has read, once SIZE bytes are there (its thread reads after the write
    returned: with no status request after the job, nothing waits for it)."""
    got = b""
    for _ in range(200):
        got += fake.printer.take()
        if len(got) >= size:
            break
        time.sleep(0.02)
    return got


def test_port_status_bits_in_words():
    assert st.PrinterStatus.from_port_status(0x18).ok  # selected, no error
    assert st.PrinterStatus.from_port_status(0x38).problems == (st.PAPER_OUT,)
    assert st.PrinterStatus.from_port_status(0x08).problems == (st.OFFLINE,)
    assert st.PrinterStatus.from_port_status(0x10).problems == (st.PRINTER_FAULT,)


@pytest.mark.parametrize("code, says, advice", [
    (errno.EBUSY, "another program holds it (a print service such as CUPS)", "lpadmin -x"),
    (errno.ENODEV, "the printer is unplugged or switched off", "USB cable is plugged in"),
    (errno.ENXIO, "the printer is unplugged or switched off", "USB cable is plugged in"),
    (errno.EACCES, "this user may not use it", "lp group"),
    (errno.EPERM, "this user may not use it", "not dialout"),
])
def test_each_errno_at_open_is_said_in_words(device, code, says, advice):
    device("ok", open_errno=code)
    with pytest.raises(PrinterError) as e:
        open_printer(quick())
    assert f"cannot open {PATH}: {says}" in str(e.value) and advice in str(e.value)
    assert e.value.exit_code == 7
    result = print_job(quick(), b"x\n")
    assert result.problems == (st.NO_ANSWER,) and advice in result.advice
    assert "Errno" not in str(e.value) and "ioctl" not in str(e.value)


def test_the_transport_is_chosen_by_what_the_path_is_not_its_name(device, tmp_path):
    device("ok", tty=True)  # a tty at a printer-like name: a serial port, pyserial's
    assert not lpdev.is_printer_device(PATH)
    named_like_serial = tmp_path / "ttyUSB0"
    os.symlink("/dev/null", named_like_serial)  # a character device, no tty: a printer device
    assert lpdev.is_printer_device(str(named_like_serial))
    said = Connection(str(named_like_serial)).describe()
    assert "8N1" not in said and "not a serial port" in said
    result = print_job(Connection(str(named_like_serial), status_timeout=0.1), b"x\n")
    assert result.problems == (st.NO_ANSWER,)  # /dev/null never answers: no pyserial error
    assert "configure port" not in result.detail


@pytest.mark.parametrize("kind, word", [(stat.S_IFREG, "a file"), (stat.S_IFDIR, "a folder"),
                                        (stat.S_IFIFO, "a pipe")])
def test_a_path_that_can_be_no_printer_says_what_it_is(device, kind, word):
    device("ok", kind=kind)
    result = print_job(quick(), b"x\n")
    assert result.detail == f"printer not answering: {PATH} is {word}, not a printer"
    assert "socket://HOST:9100" in result.advice


def test_a_real_regular_file_is_refused_without_pyserial(tmp_path):
    path = tmp_path / "lp0"
    path.write_bytes(b"")
    with pytest.raises(PrinterError, match="is a file, not a printer"):
        open_printer(str(path))
    assert path.read_bytes() == b""


# -- the command line -------------------------------------------------------------------------

class NetworkPrinter:
    """fake_printer's printer behind a TCP port on 127.0.0.1 (one connection at a time)."""

    def __init__(self, state="ok"):
        import socket
        import threading

        self.state, self.data, self.printers = state, b"", []
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        from fake_printer import FakePrinter

        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.printers.append(FakePrinter(self.state, fds=(conn.detach(),
                                                              os.open(os.devnull, os.O_RDONLY))))

    def take(self) -> bytes:
        return b"".join(p.take() for p in self.printers)

    def close(self):
        self.sock.close()
        for p in self.printers:
            p.close()


@pytest.fixture
def cli():
    from click.testing import CliRunner

    from adjudicator.cli import main

    return lambda *args: CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_printer_test_takes_a_bare_host_and_port_as_a_network_printer(cli):
    printer = NetworkPrinter()
    try:
        done = cli("printer", "test", f"127.0.0.1:{printer.port}", "--columns", "32")
        assert done.exit_code == 0, done.output
        assert f"Printer: socket://127.0.0.1:{printer.port}, write timeout" in done.output
        assert "No such file" not in done.output
        for _ in range(100):  # its thread reads what the status after the slip waited for
            got = printer.take()
            if got:
                break
            time.sleep(0.02)
        assert "NOT A VERDICT" in decode(got, 32).text
    finally:
        printer.close()


def test_printer_test_on_a_usb_printer_device(cli, device):
    fake = device("ok")
    done = cli("printer", "test", PATH, "--columns", "32", "--write-timeout", "1")
    assert done.exit_code == 0, done.output
    assert f"Printer: {PATH} (a printer device, not a serial port" in done.output
    assert "baud 8N1" not in done.output and "Could not configure" not in done.output
    assert "Before the test slip: Printer ready." in done.output
    assert "NOT A VERDICT" in decode(fake.printer.take(), 32).text


@pytest.mark.parametrize("code, says", [
    (errno.EBUSY, "another program holds it (a print service such as CUPS). Stop that program"),
    (errno.EACCES, "this user may not use it. Add the user to the lp group"),
    (errno.ENODEV, "the printer is unplugged or switched off. Check it is switched on"),
])
def test_printer_commands_say_the_devices_errno_in_one_line(cli, device, code, says):
    device("ok", open_errno=code)
    done = cli("printer", "test", PATH)
    assert done.exit_code == 7
    assert f"test slip not printed: printer not answering: cannot open {PATH}: {says}" \
        in done.output
    assert done.output.count("Check it is switched on") <= 1
    status = cli("printer", "status", PATH)
    assert status.exit_code == 7
    [line] = [x for x in status.output.splitlines() if x.startswith("adjudicator:")]
    assert says in line


def test_a_usb_printer_not_there_is_said_without_serial_settings(cli, tmp_path):
    missing = str(tmp_path / "usb" / "lp0")  # unplugged: the node is gone
    done = cli("printer", "test", missing)
    assert done.exit_code == 7
    assert f"Printer: {missing} (no such device), write timeout" in done.output
    assert "baud" not in done.output and "Errno" not in done.output
    assert f"cannot open {missing}: there is no such device. Check it is switched on" \
        in done.output
