"""`adjudicator printer test|status`: check the docket printer and say what it reports, in words."""

from __future__ import annotations

import click

from adjudicator.config.station import load_config
from adjudicator.docket import (
    FLOWS, Connection, encode_test_slip, lpdev, open_printer, print_job,
)
from adjudicator.docket.status import ADVICE, NO_ANSWER, explain
from adjudicator.errors import ConfigError, PrinterError

_OPTIONS = [
    click.option("--config", "config_path", metavar="PATH",
                 help="Config file whose [printer] table gives the defaults (default: "
                 "$ADJUDICATOR_CONFIG, else the user config folder)."),
    click.option("--columns", type=int, help="Characters a line: 32 for 58 mm paper, 42 or 48 "
                 "for 80 mm."),
    click.option("--baudrate", type=int, help="Serial speed, e.g. 9600 or 19200 (8N1)."),
    click.option("--flow", type=click.Choice(FLOWS), help="Flow control: none, rtscts "
                 "(hardware) or xonxoff."),
    click.option("--write-timeout", type=float, metavar="SECONDS",
                 help="Give up a write after this long (never unbounded)."),
]


def _settings_options(func):
    for option in reversed(_OPTIONS):
        func = option(func)
    return func


def _printer_options(func):
    return click.argument("url", required=False)(_settings_options(func))


def _connection(url, config_path, columns, baudrate, flow, write_timeout, config=None
                ) -> Connection:
    config = config or load_config(config_path)  # ConfigError (exit 6) names the bad key
    if url:
        problem = url_problem(url)
        if problem:  # typed on the command line: a usage mistake (exit 2)
            raise click.BadParameter(problem, param_hint="URL")
    elif config.printer.url and url_problem(config.printer.url):
        raise ConfigError(f"{config.path}: key printer.url: {url_problem(config.printer.url)}")
    conn = Connection.of(config.printer, url=url or None, columns=columns, baudrate=baudrate,
                         flow=flow, write_timeout=write_timeout)
    if not conn.url:
        raise PrinterError(f"no printer: give its URL (e.g. {lpdev.example_urls()}) or set "
                           "printer.url in the config")
    return conn


def url_problem(url: str) -> str:
    """Why URL cannot name a printer (an unknown scheme such as bogus://), or "" when it can:
    a device path, or a scheme pyserial knows (socket://, rfc2217://, spy://, loop://...)."""
    import importlib.util
    import re

    found = re.match(r"([A-Za-z][A-Za-z0-9+.\-]*)://", url)
    if not found:
        return ""  # a device path: whether it is there is the printer's test
    scheme = found.group(1).lower()
    try:
        known = importlib.util.find_spec(f"serial.urlhandler.protocol_{scheme}") is not None
    except (ImportError, ValueError):
        known = False
    if known:
        return ""
    return (f"{url!r} is not a printer address: no such scheme {scheme}://; give a device "
            "path (/dev/ttyUSB0), socket://HOST:9100 for a network printer, or spy://DEVICE")


@click.group("printer")
def printer_group() -> None:
    """Check the docket printer that prints result slips (WESPA 3.11.2(a)(ix)).

    \b
    Examples:
      adjudicator printer test /dev/ttyUSB0 --baudrate 19200 --flow rtscts
      adjudicator printer status socket://192.168.1.50:9100
      adjudicator printer reprint 12
    """


@printer_group.command("test")
@_printer_options
def test_cmd(url, config_path, columns, baudrate, flow, write_timeout) -> None:
    """Print a test slip (marked NOT A VERDICT) and report the printer's status in words.

    URL is a device path (a serial port, or a USB printer: /dev/usb/lp0), HOST:9100 or
    socket://HOST:9100 for a network printer, or spy://DEVICE to trace
    the bytes; without it, printer.url from the config. Exit 0 when the slip printed and the
    printer reports no fault, 7 otherwise.

    \b
    Examples:
      adjudicator printer test /dev/ttyUSB0 --baudrate 19200 --flow rtscts --columns 48
      adjudicator printer test /dev/ttyUSB0 --baudrate 9600 --columns 32     # 58 mm
      adjudicator printer test socket://192.168.1.50:9100
      adjudicator printer test 192.168.1.50:9100
      adjudicator printer test /dev/usb/lp0    # a USB receipt printer
      adjudicator printer test          # the [printer] settings of the config
    """
    conn = _connection(url, config_path, columns, baudrate, flow, write_timeout)
    click.echo(f"Printer: {conn.describe()}")
    result = print_job(conn, encode_test_slip(conn.columns, conn.url, conn.describe()))
    if result.before is not None:
        click.echo(f"Before the test slip: {result.before.describe()}")
    if result.after is not None:
        click.echo(f"After the test slip: {result.after.describe()}")
    if not result.ok:
        if result.before is None:  # could not even open it: say why, then what to do
            raise PrinterError(f"test slip not printed: {result.detail}. "
                               f"{result.advice or ADVICE[NO_ANSWER]}.")
        raise PrinterError(f"test slip not printed: {explain(result.problems)}")
    click.echo("Test slip printed: check the ruler fills one line and both marks are solid.")


@printer_group.command("status")
@_printer_options
def status_cmd(url, config_path, columns, baudrate, flow, write_timeout) -> None:
    """Ask the printer its status (DLE EOT 1-4) without printing anything.

    \b
    Examples:
      adjudicator printer status /dev/ttyUSB0 --baudrate 19200 --flow rtscts
      adjudicator printer status
    """
    conn = _connection(url, config_path, columns, baudrate, flow, write_timeout)
    click.echo(f"Printer: {conn.describe()}")
    with open_printer(conn) as printer:  # PrinterError (exit 7) when it cannot be opened
        status = printer.status()
    click.echo(status.describe())
    if not status.ok:
        raise PrinterError(status.reason)


@printer_group.command("reprint")
@click.argument("seq", type=int)
@click.option("--url", help="The printer (default: printer.url from the config).")
@click.option("--journal", "journal_path", metavar="PATH",
              help="The journal to read (default: the config's journal).")
@_settings_options
def reprint_cmd(seq, url, journal_path, config_path, columns, baudrate, flow,
                write_timeout) -> None:
    """Reprint the slip of challenge SEQ from the journal, marked REPRINT (the director's pick).

    The outcome is noted in the journal: reprinted, or failed with the reason.

    \b
    Examples:
      adjudicator printer reprint 12
      adjudicator printer reprint 12 --config /etc/adjudicator/runners.toml
    """
    import os

    from adjudicator.errors import JournalFileError
    from adjudicator.journal import Journal
    from adjudicator.station.printdesk import reprint_and_wait

    config = load_config(config_path)
    conn = _connection(url, config_path, columns, baudrate, flow, write_timeout, config)
    path = journal_path or config.journal
    if not os.path.isfile(path):  # a mistyped path: said, and no empty journal made there
        raise JournalFileError(f"no journal at {path}")
    with Journal.open(path) as journal:
        if not 1 <= seq <= journal.count():  # rows are numbered 1..n: a mistyped number
            raise click.BadParameter(f"there is no challenge {seq} in the journal {path} "
                                     f"(it holds 1 to {journal.count()}): give the number its "
                                     "slip or verdict screen showed", param_hint="SEQ")
        result, message = reprint_and_wait(journal, seq, config.event, conn)
    if not result.ok:
        raise PrinterError(message)
    click.echo(message)


COMMANDS = [printer_group]
