"""Docket printer: result slips for runner adjudication (WESPA 3.11.2(a)(ix)), encoder to wire."""

from .encoder import encode_slip, encode_test_slip, status_request
from .queue import PrintQueue, job_message
from .slip import (
    Slip, journal_on_done, journal_print_status, printable, reprint_from_journal, slip_from_row,
)
from .status import PrinterStatus
from .transport import FLOWS, Connection, JobResult, Printer, open_printer, print_job

__all__ = [
    "FLOWS", "Connection", "JobResult", "PrintQueue", "Printer", "PrinterStatus", "Slip",
    "encode_slip", "encode_test_slip", "job_message", "journal_on_done", "journal_print_status",
    "open_printer",
    "print_job", "printable", "reprint_from_journal", "slip_from_row", "status_request",
]
