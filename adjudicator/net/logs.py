"""One line per event on a server's terminal (phone, hub): never a traceback, never a flood."""

from __future__ import annotations

import logging
import time
from typing import TextIO

BURST = 20  # lines per WINDOW seconds; beyond that one line says how many were left out
WINDOW = 10.0
REPEAT = 30.0  # seconds: the same line again within this is counted, not written
KEPT = 64  # different lines counted at once


class OneLineLog:
    """Timestamped one-line messages, at most BURST every WINDOW seconds; a line said again is
    written once, then once every REPEAT seconds with how many times it came (flush() says it
    when no other line comes)."""

    def __init__(self, out: TextIO, clock=time.monotonic):
        self.out = out
        self.clock = clock
        self._window_start = -WINDOW - 1
        self._lines = 0
        self._dropped = 0
        self._repeats: dict[str, list] = {}  # line -> [times again, since]

    def flush(self) -> None:
        """Say how often each counted line came again, for those counted REPEAT seconds."""
        now = self.clock()
        for line, (again, since) in list(self._repeats.items()):
            if now - since >= REPEAT:
                del self._repeats[line]
                if again:
                    self._write(f"(the same {again} more time{'s' if again != 1 else ''} "
                                f"in {now - since:.0f} s: {line})")

    def __call__(self, message: str) -> None:
        line = " ".join(str(message).split())[:300]
        self.flush()
        if line in self._repeats:
            self._repeats[line][0] += 1
            return
        if len(self._repeats) < KEPT:
            self._repeats[line] = [0, self.clock()]
        now = self.clock()
        if now - self._window_start > WINDOW:
            if self._dropped:
                self._write(f"({self._dropped} more lines like these were left out)")
            self._window_start, self._lines, self._dropped = now, 0, 0
        if self._lines >= BURST:
            self._dropped += 1
            return
        self._lines += 1
        self._write(line)

    def _write(self, line: str) -> None:
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
