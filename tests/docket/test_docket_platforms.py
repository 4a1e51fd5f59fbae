"""Printer ports on macOS and Windows, checked on Linux (issue 35): the USB printer-class
device (/dev/usb/lp0) is Linux's alone; elsewhere a path to one is refused in one line naming
what to use there (a serial port through pyserial: COM3, /dev/cu.*; a network printer), exit 7.
The platform is lpdev.PLATFORM, set here; the device is fake_lp's."""

from __future__ import annotations

import pytest
from fake_lp import PATH, FakeLpDevice

from adjudicator.docket import Connection, lpdev, open_printer, print_job
from adjudicator.errors import EXIT_PRINTER, PrinterError


MAC_PATH = "/dev/cu.printer"  # where a device that is no tty would be on a Mac


class Renamed:
    """FAKE's device at another path (MAC_PATH)."""

    def __init__(self, fake: FakeLpDevice):
        self.fake = fake

    def stat(self, path):
        return self.fake.stat(PATH if path == MAC_PATH else path)

    def open(self, path):
        return self.fake.open(PATH if path == MAC_PATH else path)

    def __getattr__(self, name):
        return getattr(self.fake, name)


@pytest.fixture
def cli():
    from click.testing import CliRunner

    from adjudicator.cli import main

    return lambda *args: CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_on_macos_a_printer_device_is_refused_naming_its_serial_port(device):
    fake = device("ok")
    with pytest.raises(PrinterError) as refused:
        lpdev.open_device(MAC_PATH, Renamed(fake), platform="darwin")
    assert str(refused.value) == (
        f"printer not answering: {MAC_PATH} is a printer device, which only Linux prints to. Give "
        "the printer's serial port (/dev/cu.usbserial-...: ls /dev/cu.*) or a network printer, "
        "socket://HOST:9100.")
    assert fake.opened and fake.opened == fake.closed  # looked at, closed again
    assert fake.printer.take() == b""  # nothing sent


def test_on_macos_linuxs_usb_printer_path_is_refused_by_name():
    with pytest.raises(PrinterError) as refused:  # not there: no /dev/usb/ on a Mac
        lpdev.open_device("/dev/usb/lp0", platform="darwin")
    assert "only Linux prints to" in str(refused.value)


def test_on_macos_a_serial_port_is_pyserials(device):
    fake = device("ok", tty=True)  # /dev/cu.usbserial-10 is a tty
    assert lpdev.open_device(MAC_PATH, Renamed(fake), platform="darwin") is None
    assert fake.opened == fake.closed


def test_on_linux_the_same_device_is_opened(device):
    fake = device("ok")
    fd = lpdev.open_device(PATH, platform="linux")
    assert fd is not None and fd in fake.opened and fd not in fake.closed
    fake.close(fd)


@pytest.mark.parametrize("url", ["/dev/usb/lp0", "\\dev\\usb\\lp0", "/dev/ttyUSB0"])
def test_on_windows_a_linux_device_path_is_refused_naming_com_ports(device, url):
    fake = device("ok")
    with pytest.raises(PrinterError) as refused:
        lpdev.open_device(url, platform="win32")
    message = str(refused.value)
    assert message.startswith(f"printer not answering: {url} is a Linux printer device path")
    assert "COM3" in message and "socket://HOST:9100" in message and "\n" not in message
    assert not fake.opened  # nothing looked at: no such paths on Windows


@pytest.mark.parametrize("url", ["COM3", "\\\\.\\COM10", "socket://10.0.0.9:9100"])
def test_on_windows_a_com_port_or_a_url_is_pyserials(device, url):
    fake = device("ok")
    assert lpdev.open_device(url, platform="win32") is None
    assert not fake.opened


def test_printer_test_on_windows_refuses_the_usb_device_with_exit_7(cli, device, monkeypatch):
    device("ok")
    monkeypatch.setattr(lpdev, "PLATFORM", "win32")
    done = cli("printer", "test", "/dev/usb/lp0")
    assert done.exit_code == EXIT_PRINTER
    assert "Traceback" not in done.output and "baud" not in done.output
    assert "Printer: /dev/usb/lp0 (a printer device: Linux only)" in done.output
    assert "/dev/usb/lp0 is a Linux printer device path, not one Windows has. Give the " \
           "printer's COM port (COM3" in done.output
    status = cli("printer", "status", "/dev/usb/lp0")
    assert status.exit_code == EXIT_PRINTER
    [line] = [x for x in status.output.splitlines() if x.startswith("adjudicator:")]
    assert "COM3" in line


def test_printer_status_on_macos_refuses_the_usb_device_with_exit_7(cli, device, monkeypatch):
    monkeypatch.setattr(lpdev, "OPS", Renamed(device("ok")))
    monkeypatch.setattr(lpdev, "PLATFORM", "darwin")
    status = cli("printer", "status", MAC_PATH)
    assert status.exit_code == EXIT_PRINTER
    [line] = [x for x in status.output.splitlines() if x.startswith("adjudicator:")]
    assert "only Linux prints to" in line and "/dev/cu." in line
    result = print_job(Connection(MAC_PATH), b"slip")  # the print desk: not printed, in words
    assert not result.ok and "only Linux prints to" in result.detail


def test_no_printer_given_names_this_platforms_ports(cli, monkeypatch, tmp_path):
    config = tmp_path / "s.toml"
    config.write_text("")
    for platform, example in (("win32", "COM3 or socket://"), ("darwin", "/dev/cu.usbserial"),
                              ("linux", "/dev/usb/lp0, /dev/ttyUSB0")):
        monkeypatch.setattr(lpdev, "PLATFORM", platform)
        done = cli("printer", "status", "--config", str(config))
        assert done.exit_code == EXIT_PRINTER
        assert f"no printer: give its URL (e.g. {example}" in done.output


def test_a_network_printer_is_opened_alike_everywhere(monkeypatch):
    for platform in ("win32", "darwin", "linux"):
        monkeypatch.setattr(lpdev, "PLATFORM", platform)
        with pytest.raises(PrinterError) as refused:  # nothing listens there
            open_printer("socket://127.0.0.1:9")
        assert "cannot open socket://127.0.0.1:9" in str(refused.value)
