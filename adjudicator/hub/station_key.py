"""StationKey: one station's key as the hub knows it, and the states hub_keys keeps for it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

ACCEPTED, WAITING, REJECTED, DROPPED = 1, 0, -1, -2  # a key's state as hub_keys keeps it


@dataclass
class StationKey:
    """One station's key as the hub knows it."""

    key_id: str
    secret: bytes
    name: str  # the station name it first came with
    address: str
    joined: str  # ISO UTC time of its first contact
    accepted: bool = False
    journal_id: str = ""  # the one station journal it sends (bound at its first stored row)
    stored: bool = False  # in the hub journal (it has sent a valid row, or was accepted)
    seen: float = field(default_factory=time.monotonic)
    claimed: tuple[str, str] = ("", "")  # (journal id, name) held in memory since first contact
    takes: str = ""  # a name another key holds that this one came with (the director decides)
    state: int = WAITING  # ACCEPTED, WAITING, REJECTED or DROPPED (as hub_keys keeps it)
    former: frozenset[str] = frozenset()  # names it held before the director renamed it
    renamed_seq: int = 0  # its journal's last row when the director last renamed it
    renamed_at: float = float("-inf")  # when (monotonic; before this run: long ago)
