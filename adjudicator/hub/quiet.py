"""The hub's log: one line per refused request, and a line said again within a minute only counted.

Whatever a peer sends, the log grows by at most one line per distinct line a minute (and at most
MAX_LINES distinct lines are remembered): a station that retries, or a flood, never fills a disk.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from datetime import datetime

EVERY = 60.0  # seconds within which the same line is counted, not written
MAX_LINES = 1000


class QuietLog:
    def __init__(self, write: Callable[[str], None] | None = None, every: float = EVERY,
                 clock: Callable[[], float] = time.monotonic):
        self.write = write or _stderr
        self.every, self.clock = every, clock
        self._seen: dict[str, list] = {}  # line -> [when written, times held back since]

    def note(self, line: str) -> None:
        now = self.clock()
        seen = self._seen.get(line)
        if seen is not None and now - seen[0] < self.every:
            seen[1] += 1
            return
        if len(self._seen) >= MAX_LINES:
            self._seen.clear()
        again = f" (and {seen[1]} more like it in the last minute)" if seen and seen[1] else ""
        self._seen[line] = [now, 0]
        self.write(f"{datetime.now().strftime('%H:%M:%S')} hub: {line}{again}")


def _stderr(line: str) -> None:
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
