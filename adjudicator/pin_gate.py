"""PinGate: checks the director's PIN against the stored hash; 5 wrong tries lock it for 60 s."""

from __future__ import annotations

import time
from collections.abc import Callable

from adjudicator.pin import is_set, verify_pin

MAX_TRIES = 5
LOCKOUT_SECONDS = 60.0
NO_PIN = "No director PIN is set. Set one with: adjudicator set-pin"


class PinGate:
    """Remembers wrong tries across openings of the PIN box (closing it resets nothing)."""

    def __init__(self, stored_hash: Callable[[], str], clock: Callable[[], float] = time.monotonic):
        self._stored = stored_hash
        self._clock = clock
        self.wrong = 0
        self.locked_until = 0.0

    @property
    def configured(self) -> bool:
        return is_set(self._stored())

    def seconds_locked(self) -> int:
        """Whole seconds of lockout left (0 when open)."""
        left = self.locked_until - self._clock()
        return int(left + 0.999) if left > 0 else 0

    def check(self, pin: str) -> str:
        """'ok', 'wrong', 'locked' or 'unset'."""
        if not self.configured:
            return "unset"
        if self.seconds_locked():
            return "locked"
        if verify_pin(pin, self._stored()):
            self.wrong = 0
            return "ok"
        self.wrong += 1
        if self.wrong >= MAX_TRIES:
            self.wrong = 0
            self.locked_until = self._clock() + LOCKOUT_SECONDS
            return "locked"
        return "wrong"
