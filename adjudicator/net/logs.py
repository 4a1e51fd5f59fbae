"""One line per event on the terminal that shows the QR code: never a traceback, never a flood."""

from __future__ import annotations

import logging
import time
from typing import TextIO

BURST = 20  # lines per WINDOW seconds; beyond that one line says how many were left out
WINDOW = 10.0


class OneLineLog:
    """Timestamped one-line messages, at most BURST every WINDOW seconds."""

    def __init__(self, out: TextIO):
        self.out = out
        self._window_start = 0.0
        self._lines = 0
        self._dropped = 0

    def __call__(self, message: str) -> None:
        now = time.monotonic()
        if now - self._window_start > WINDOW:
            if self._dropped:
                self._write(f"({self._dropped} more lines like these were left out)")
            self._window_start, self._lines, self._dropped = now, 0, 0
        if self._lines >= BURST:
            self._dropped += 1
            return
        self._lines += 1
        self._write(message)

    def _write(self, message: str) -> None:
        line = " ".join(str(message).split())[:300]
        try:
            self.out.write(f"{time.strftime('%H:%M:%S')} {line}\n")
            self.out.flush()
        except (OSError, ValueError):
            pass  # the terminal went away: the server keeps serving


class _Handler(logging.Handler):
    def __init__(self, log: OneLineLog):
        super().__init__(logging.WARNING)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        why = ""
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            why = f": {type(error).__name__}: {error}"
        self.log(f"{record.getMessage()}{why}")


def route_library_logs(log: OneLineLog) -> None:
    """aiohttp's and asyncio's complaints (bad requests, lost connections) as one line each."""
    for name in ("aiohttp", "asyncio"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [_Handler(log)]
        logger.propagate = False
        logger.setLevel(logging.WARNING)


def loop_exception_handler(log: OneLineLog):
    def handle(_loop, context: dict) -> None:
        error = context.get("exception")
        why = f": {type(error).__name__}: {error}" if error else ""
        log(f"{context.get('message', 'error')}{why}")

    return handle
