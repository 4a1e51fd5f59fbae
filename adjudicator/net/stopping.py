"""A server's stop signals (SIGINT, SIGTERM, SIGHUP) on its event loop: the phone server and
the hub both stop on them the same way, closing every connection first."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def on_stop_signals(loop: asyncio.AbstractEventLoop,
                    stop: Callable[[int], object]) -> Callable[[], None]:
    """STOP(signal number) is called on any stop signal; the function returned takes the
    handlers off again. Only a loop in the main thread gets them (a test may serve from
    another): elsewhere nothing is done."""
    for sig in STOP_SIGNALS:
        try:
            loop.add_signal_handler(sig, stop, sig)
        except (NotImplementedError, RuntimeError, ValueError):
            pass

    def undo() -> None:
        for sig in STOP_SIGNALS:
            try:
                loop.remove_signal_handler(sig)
            except (NotImplementedError, RuntimeError, ValueError):
                pass

    return undo
