"""PinGate: checks the director's PIN against the stored hash; 5 wrong tries lock it for 60 s.

With a state file (adjudicator/station/state.py) the wrong tries and the lockout are kept on
disk, so a kiosk that dies and is restarted is still locked: restarting never opens the gate.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from adjudicator.event.pin import is_set, verify_pin
from adjudicator.station.state import load_state, save_state

MAX_TRIES = 5
LOCKOUT_SECONDS = 60.0
NO_PIN = "No director PIN is set. Set one with: adjudicator set-pin"


class PinGate:
    """Remembers wrong tries across openings of the PIN box (closing it resets nothing)."""

    def __init__(self, stored_hash: Callable[[], str], clock: Callable[[], float] = time.monotonic,
                 *, state_file: str | None = None, wall_clock: Callable[[], float] = time.time):
        self._stored = stored_hash
        self._clock = clock
        self._wall = wall_clock
        self._state_file = state_file
        saved = load_state(state_file).get("pin_gate", {})
        wrong, until = saved.get("wrong", 0), saved.get("locked_until_wall", 0.0)
        self.wrong = wrong if isinstance(wrong, int) and 0 <= wrong < MAX_TRIES else 0
        left = until - wall_clock() if isinstance(until, int | float) else 0.0
        # never longer than one lockout, whatever the wall clock did meanwhile
        self.locked_until = clock() + min(left, LOCKOUT_SECONDS) if left > 0 else 0.0

    def _save(self) -> None:
        left = self.locked_until - self._clock()
        save_state(self._state_file, pin_gate={
            "wrong": self.wrong, "locked_until_wall": self._wall() + left if left > 0 else 0.0})

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
            if self.wrong:
                self.wrong = 0
                self._save()
            return "ok"
        self.wrong += 1
        if self.wrong >= MAX_TRIES:
            self.wrong = 0
            self.locked_until = self._clock() + LOCKOUT_SECONDS
            self._save()
            return "locked"
        self._save()
        return "wrong"
