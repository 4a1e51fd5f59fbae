"""A server's stop signals (SIGINT, SIGTERM, SIGHUP; on Windows SIGINT and SIGBREAK) on its event
loop: the phone server and the hub both stop on them the same way, closing every connection
first."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Callable
from typing import Any

if sys.platform == "win32":  # Ctrl-C and Ctrl-Break (a closed console window kills the process)
    STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGBREAK)
else:
    STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def on_stop_signals(loop: asyncio.AbstractEventLoop,
                    stop: Callable[[int], object]) -> Callable[[], None]:
    """STOP(signal number) is called on any stop signal; the function returned takes the
    handlers off again. Only a loop in the main thread gets them (a test may serve from
    another): elsewhere nothing is done.

    A loop that cannot take signal handlers (every loop on Windows) gets them through
    signal.signal, each handing STOP to the loop; the handlers it had are put back after."""
    previous: dict[int, Any] = {}
    for sig in STOP_SIGNALS:
        try:
            loop.add_signal_handler(sig, stop, sig)
        except NotImplementedError:
            try:
                previous[sig] = signal.signal(
                    sig, lambda signum, _frame: loop.call_soon_threadsafe(stop, signum))
            except (RuntimeError, ValueError, OSError):
                pass
        except (RuntimeError, ValueError):
            pass

    def undo() -> None:
        for sig in STOP_SIGNALS:
            if sig in previous:
                try:
                    signal.signal(sig, previous[sig] or signal.SIG_DFL)  # None: not Python's
                except (RuntimeError, ValueError, OSError):
                    pass
                continue
            try:
                loop.remove_signal_handler(sig)
            except (NotImplementedError, RuntimeError, ValueError):
                pass

    return undo
