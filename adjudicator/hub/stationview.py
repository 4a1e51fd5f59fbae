"""One station as the hub knows it (StationView), and the N latest challenges (Newest)."""

from __future__ import annotations

from bisect import insort
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class StationView:
    """One station journal as the hub knows it (key: its journal id)."""

    journal_id: str
    name: str = ""
    mode: str = ""
    last_beat: float | None = None  # monotonic time it was last heard (heartbeat or rows)
    heard: datetime | None = None  # the same, as a time of day (what the page counts from)
    said_at: datetime | None = None  # when what it judges with was last said (beat or row)
    last_seq: int = 0  # the station's last row, as its heartbeat said
    acked: int = 0  # rows of it the hub holds without a gap
    lexicon: str = ""
    fingerprint: str = ""
    printer: str = ""
    skew: float = 0.0  # seconds the station's clock is ahead of the hub's
    refused: str = ""  # why the hub last refused its rows ("" once rows are taken again)
    sender: str = ""  # what the station's sender says of itself (restarted, refused...)
    key_id: str = ""  # the station's key (hub/identity.py)
    new: bool = False  # its key is not accepted by the director yet
    address: str = ""  # where its key first came from
    joined: str = ""  # when (ISO UTC)
    challenges: int = 0
    tables: Counter = field(default_factory=Counter)
    divisions: str = ""  # what its heartbeat says of the event (eventalarms.py, issue 27)
    locked: str = ""  # "yes": a director PIN is set, "no": none, "": not said
    event_version: int | None = None
    behind_since: float | None = None  # when it was first heard on an older event version
    lists: tuple = ()  # its lists by division, as its heartbeat said (eventalarms.Listed)


class Newest:
    """The N latest challenges in the order the hub received them (its journal's seq): a row
    dated in the future by a station's clock is never pinned on top (issue 26)."""

    def __init__(self, n: int):
        self.n = n
        self._items: list = []  # (time, arrival, entry), oldest first
        self._arrivals = 0

    def add(self, order: int, entry: dict) -> None:
        """ENTRY, received as the hub journal's row ORDER (rows without one: as they come)."""
        self._arrivals += 1
        insort(self._items, (order, self._arrivals, entry), key=lambda i: i[:2])
        if len(self._items) > self.n:
            del self._items[0]

    def __iter__(self):
        return (entry for _, _, entry in reversed(self._items))

    def __len__(self) -> int:
        return len(self._items)


def divisions_of(view: StationView) -> str:
    """The divisions a station serves, as it said them ("A, B"; "" when it named none)."""
    named = [e.division for e in view.lists if e.division]
    if not named:
        named = [n.strip() for n in view.divisions.split(",") if n.strip()]
    return ", ".join(named)[:60]
