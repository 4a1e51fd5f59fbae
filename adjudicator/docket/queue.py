"""PrintQueue: slips printed one at a time on a worker thread; the caller never waits for paper."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from adjudicator.errors import AdjudicatorError
from adjudicator.docket.encoder import encode_slip
from adjudicator.docket.slip import Slip
from adjudicator.docket.status import ADVICE, NO_PRINTER, QUEUE_FULL
from adjudicator.docket.transport import Connection, JobResult, print_job

log = logging.getLogger(__name__)

OnDone = Callable[[int, bool, str], None]
MAX_PENDING = 20
_STOP = object()


def job_message(seq: int, result: JobResult, reprint: bool = False,
                reprint_hint: str = "press P to reprint") -> str:
    """What the adjudicator reads, e.g. 'Slip for challenge #12 not printed: paper out. Reload
    paper and press P to reprint.'"""
    what = f"Reprint for challenge #{seq}" if reprint else f"Slip for challenge #{seq}"
    if result.ok:
        text = f"{what} printed."
        for warning in result.warnings:
            text += f" {warning[:1].upper()}{warning[1:]}: {ADVICE[warning].lower()}."
        return text
    advice = result.advice or (ADVICE.get(result.problems[0], "") if result.problems else "")
    hint = reprint_hint
    fix = f"{advice} and {hint}." if advice else f"{hint[:1].upper()}{hint[1:]}."
    return f"{what} not printed: {result.reason or 'unknown problem'}. {fix}"


class PrintQueue:
    """One worker thread, one job at a time; every job ends in exactly one on_done call.

    on_done(seq, ok, message) runs ON THE WORKER THREAD: a Textual app must hop back with
    app.call_from_thread. The Journal is thread-safe: journal_on_done records each outcome.
    """

    def __init__(self, settings, on_done: OnDone, *, reprint_hint: str = "press P to reprint",
                 max_pending: int = MAX_PENDING):
        self.connection = Connection.of(settings) if getattr(settings, "url", settings) else None
        self.on_done = on_done
        self.reprint_hint = reprint_hint
        self.max_pending = max_pending
        self._jobs: queue.Queue = queue.Queue()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="docket-printer", daemon=True)
        self._thread.start()

    def submit(self, seq: int, slip: Slip) -> None:
        """Queue a slip and return at once; a full or closed queue is reported through on_done."""
        if self._closed:
            raise RuntimeError("PrintQueue.submit after close()")
        full = self._jobs.qsize() >= self.max_pending
        self._jobs.put((seq, slip, full))

    def pending(self) -> int:
        return self._jobs.qsize()

    def close(self, wait: float = 2.0) -> None:
        """Stop after the jobs already queued; waits at most `wait` seconds (a daemon thread)."""
        if not self._closed:
            self._closed = True
            self._jobs.put(_STOP)
        self._thread.join(wait)

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is _STOP:
                return
            seq, slip, rejected = item
            try:
                result = self._print(slip, rejected)
            except Exception as e:  # never let one job kill the worker
                log.exception("printing slip %s", seq)
                result = JobResult(False, (f"printer software error: {e}",))
            self._report(seq, result, slip.reprint)

    def _print(self, slip: Slip, rejected: bool) -> JobResult:
        if rejected:
            return JobResult(False, (QUEUE_FULL,))
        if self.connection is None:
            return JobResult(False, (NO_PRINTER,))
        try:
            data = encode_slip(slip, self.connection.columns)
        except AdjudicatorError as e:
            return JobResult(False, (str(e),))
        return print_job(self.connection, data)

    def _report(self, seq: int, result: JobResult, reprint: bool) -> None:
        message = job_message(seq, result, reprint, self.reprint_hint)
        try:
            self.on_done(seq, result.ok, message)
        except Exception:
            log.exception("on_done for slip %s", seq)
