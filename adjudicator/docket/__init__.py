"""Docket printer: result slips for runner adjudication (WESPA 3.11.2(a)(ix)), encoder to wire."""

from adjudicator.docket.encoder import encode_slip, encode_test_slip, status_request
from adjudicator.docket.queue import PrintQueue, job_message
from adjudicator.docket.slip import Slip, printable
from adjudicator.docket.status import PrinterStatus
from adjudicator.docket.transport import FLOWS, Connection, JobResult, Printer, open_printer, print_job

__all__ = [
    "FLOWS", "Connection", "JobResult", "PrintQueue", "Printer", "PrinterStatus", "Slip",
    "encode_slip", "encode_test_slip", "job_message", "open_printer", "print_job", "printable",
    "status_request",
]
