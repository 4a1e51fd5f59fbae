"""The wire to the printer: open, ask status, send a job, all bounded.

A character device that is not a terminal (a USB printer, /dev/usb/lp0) goes through lpdev.py;
serial ports and URLs (socket://HOST:9100, spy://...) through pyserial's serial_for_url. A bare
HOST:PORT is a network printer (socket://HOST:PORT).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

import serial

from adjudicator.errors import ConfigError, PrinterError
from adjudicator.docket import lpdev
from adjudicator.docket.encoder import status_request
from adjudicator.docket.status import NO_ANSWER, NOT_TAKING_DATA, PrinterStatus

# What a port raises when the printer is pulled mid-job (tcflush on a hung-up tty: termios.error).
PORT_ERRORS: tuple[type[BaseException], ...]
if sys.platform == "win32":  # a COM port: pyserial's win32 calls raise SerialException, OSError
    PORT_ERRORS = (serial.SerialException, OSError)
else:
    import termios

    PORT_ERRORS = (serial.SerialException, OSError, termios.error)

FLOWS = ("none", "rtscts", "xonxoff")
STATUS_TIMEOUT = 1.0     # seconds to wait for each DLE EOT reply
DEFAULT_WRITE_TIMEOUT = 5.0
# HOST:PORT with nothing before it (192.168.1.50:9100, printer.local:9100, [fe80::1]:9100)
_HOST_PORT = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                        r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])"
                        r":[0-9]{1,5}")


def network_url(url: str) -> str:
    """URL, with a bare HOST:PORT taken as the network printer socket://HOST:PORT."""
    return f"socket://{url}" if _HOST_PORT.fullmatch(url) else url


@dataclass(frozen=True)
class Connection:
    """How to reach a printer; built from config's PrinterSettings or from command-line options."""

    url: str
    baudrate: int = 19200
    flow: str = "none"
    write_timeout: float = DEFAULT_WRITE_TIMEOUT
    columns: int = 48
    status_timeout: float = STATUS_TIMEOUT

    def __post_init__(self):
        if self.url != network_url(self.url):
            object.__setattr__(self, "url", network_url(self.url))
        if self.flow not in FLOWS:
            raise ConfigError(f"printer flow {self.flow!r} is not one of: {', '.join(FLOWS)}")
        if not self.write_timeout or self.write_timeout <= 0:
            # pyserial without write_timeout can block for ever on a stalled printer.
            raise ConfigError("printer write_timeout must be a positive number of seconds")
        if self.baudrate <= 0:
            raise ConfigError(f"printer baudrate must be positive, not {self.baudrate}")

    @classmethod
    def of(cls, target, **overrides) -> Connection:
        """A Connection from a URL string, a Connection, or anything shaped like PrinterSettings."""
        if isinstance(target, Connection) and not overrides:
            return target
        if isinstance(target, str):
            values = {"url": target}
        else:
            values = {name: getattr(target, name) for name in
                      ("url", "baudrate", "flow", "write_timeout", "columns", "status_timeout")
                      if getattr(target, name, None) is not None}
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def describe(self) -> str:
        if self.url.startswith("socket://"):
            return f"{self.url}, write timeout {self.write_timeout:g} s, {self.columns} columns"
        kind = lpdev.path_kind(self.url)
        if kind:  # a USB printer device, or nothing there: no serial settings to show
            return f"{self.url} ({kind}), write timeout {self.write_timeout:g} s, " \
                   f"{self.columns} columns"
        return (f"{self.url}, {self.baudrate} baud 8N1, flow {self.flow}, write timeout "
                f"{self.write_timeout:g} s, {self.columns} columns")


class Printer:
    """An open connection: status requests and raw writes, each with a bounded wait."""

    def __init__(self, port, connection: Connection):
        self.port = port
        self.connection = connection

    def status(self, extra_wait: float = 0.0) -> PrinterStatus:
        """Ask DLE EOT 1, 2, 3, 4; no reply to 1 means the printer is not there.

        A printer that answers 1 but not a later n (some 58 mm models know only 1-2) is judged on
        what it did answer. `extra_wait` covers a job still travelling down a slow serial line.
        """
        replies: dict[int, bytes] = {}
        try:
            self.port.reset_input_buffer()
            for n in (1, 2, 3, 4):
                self.port.write(status_request(n))
                self.port.timeout = self.connection.status_timeout + (extra_wait if n == 1 else 0)
                reply = self.port.read(1)
                if not reply:
                    if n == 1:
                        return PrinterStatus.silent()
                    continue
                replies[n] = reply
        except serial.SerialTimeoutException:
            return PrinterStatus.blocked()
        except PORT_ERRORS:
            return PrinterStatus.silent()
        return PrinterStatus.from_replies(replies)

    def send(self, data: bytes) -> None:
        """Write the job; PrinterError naming the problem when the printer stalls or vanishes."""
        try:
            written = self.port.write(data)
        except serial.SerialTimeoutException as e:
            raise PrinterError(NOT_TAKING_DATA) from e
        except PORT_ERRORS as e:
            raise PrinterError(NO_ANSWER) from e
        if written is not None and written != len(data):
            raise PrinterError(NOT_TAKING_DATA)

    def transmit_time(self, size: int) -> float:
        """Seconds `size` bytes need on the line (10 bits a byte at 8N1); 0 on a network printer."""
        if self.connection.url.startswith("socket://"):
            return 0.0
        return size * 10 / self.connection.baudrate

    def close(self) -> None:
        try:
            self.port.close()
        except PORT_ERRORS:
            pass

    def __enter__(self) -> Printer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_printer(target, **overrides) -> Printer | lpdev.LpPrinter:
    """Open a printer by URL (device path, socket://host:9100, host:9100, spy://...) or
    PrinterSettings: a USB printer device (a character device, not a tty) through lpdev.py.

    Raises PrinterError with words for a person ("printer not answering: ...").
    """
    conn = Connection.of(target, **overrides)
    if not conn.url:
        raise PrinterError("no printer configured (printer.url is empty)")
    fd = lpdev.open_device(conn.url)  # DeviceError (a PrinterError) in words
    if fd is not None:
        return lpdev.LpPrinter(fd, conn)
    try:
        port = serial.serial_for_url(
            conn.url,
            baudrate=conn.baudrate,
            bytesize=serial.EIGHTBITS,
            parity=serial.PARITY_NONE,
            stopbits=serial.STOPBITS_ONE,
            rtscts=conn.flow == "rtscts",
            xonxoff=conn.flow == "xonxoff",
            timeout=conn.status_timeout,
            write_timeout=conn.write_timeout,
        )
    except (*PORT_ERRORS, ValueError) as e:
        raise PrinterError(f"{NO_ANSWER}: cannot open {conn.url}: {e}") from e
    if conn.flow == "xonxoff":
        # Opening flushes input, which can swallow the XON a printer sent after its last XOFF and
        # leave output stopped for ever. Switching XON/XOFF off and on restarts output (Linux
        # n_tty); DLE EOT is answered even with a full buffer, so the status still tells the truth.
        try:
            port.xonxoff = False
            port.xonxoff = True
        except (*PORT_ERRORS, ValueError):
            pass
    return Printer(port, conn)


@dataclass(frozen=True)
class JobResult:
    """What happened to one job: printed or not, and why, in words."""

    ok: bool
    problems: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    before: PrinterStatus | None = None
    after: PrinterStatus | None = None
    detail: str = field(default="", compare=False)
    advice: str = field(default="", compare=False)  # what to do, when the detail knows better

    @property
    def reason(self) -> str:
        return ", ".join(self.problems)


def _warnings(*statuses: PrinterStatus | None) -> tuple[str, ...]:
    seen: list[str] = []
    for status in statuses:
        for item in (status.warnings if status else ()):
            if item not in seen:
                seen.append(item)
    return tuple(seen)


def print_job(target, data: bytes) -> JobResult:
    """Open, ask status, send `data`, ask status again, close. Never raises for printer trouble.

    A job counts as printed only when the printer answers after it with no fault: a printer pulled
    mid-job often lets the writes "succeed", and only the status request after the job tells.
    """
    try:
        printer = open_printer(target)
    except PrinterError as e:
        return JobResult(False, (NO_ANSWER,), detail=getattr(e, "what", str(e)),
                         advice=getattr(e, "advice", ""))
    with printer:
        before = printer.status()
        if not before.ok:
            return JobResult(False, before.problems, _warnings(before), before)
        try:
            printer.send(data)
        except PrinterError as e:
            return JobResult(False, (str(e),), _warnings(before), before, detail=repr(e.__cause__))
        after = printer.status(extra_wait=printer.transmit_time(len(data)))
        if not after.ok:
            return JobResult(False, after.problems, _warnings(before, after), before, after)
        return JobResult(True, (), _warnings(before, after), before, after)
