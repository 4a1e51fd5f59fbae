"""Stations waiting for the director: how many may wait, which goes when full, what the page shows.

A station whose key the director has not accepted speaks for nobody (issue 26): its rows, flags
and fingerprint count in no alarm, table, latest challenge or lexicon vote. The hub keeps its rows
(in the hub journal, at most identity.MAX_NEW_ROWS) and shows the station only here, in the
waiting panel, with where it came from, until the director accepts it (its rows then join the
board) or rejects it (refused from then on). Slots are bounded: MAX_WAITING keys in all, at most
MAX_PER_ADDRESS from one address; when full, the oldest waiting station that has sent nothing
for IDLE seconds makes room.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone

from adjudicator.text.lookalike import name_key
from adjudicator.text.visible import visible

MAX_WAITING = 64  # keys not accepted by the director yet, at most
MAX_PER_ADDRESS = 8  # of them from one address
IDLE = 60.0  # seconds without a request before a waiting station may make room for another
NAME_SHOWN = 60  # characters of a waiting station's name shown
LOOKS_LIKE = " (looks like another station's name)"  # after a name that reads as another's


def make_room(waiting: list, address: str, now: float) -> list | str:
    """The waiting keys (identity.StationKey) to drop so one more from ADDRESS may wait, or why
    it may not: the oldest of those that sent nothing for IDLE seconds goes first."""
    here = [k for k in waiting if k.address == address]
    if len(here) >= MAX_PER_ADDRESS:
        pool, full = here, (f"{MAX_PER_ADDRESS} new stations from {address} already wait for "
                            "the director")
    elif len(waiting) >= MAX_WAITING:
        pool, full = waiting, f"{MAX_WAITING} new stations already wait for the director"
    else:
        return []
    idle = [k for k in pool if now - k.seen > IDLE]
    if not idle:
        return full
    return [min(idle, key=lambda k: (k.joined, k.seen))]


@dataclass
class Waiter:
    """What the page shows of one waiting station (key: its key id)."""

    key_id: str
    name: str = ""
    address: str = ""
    joined: str = ""
    journal_id: str = ""
    rows: int = 0  # rows of it the hub journal holds
    acked: int = 0
    last_seq: int = 0  # its last row, as its heartbeat said
    heard: datetime | None = None
    wants: str = ""  # a name another key holds that it came with (Accept in its place)
    beat: Mapping | None = None  # its last heartbeat (the board takes it once it is accepted)


class Waiting:
    """The waiting panel: one entry per waiting key, however many journal ids it sends."""

    def __init__(self, wall: Callable[[], datetime] = lambda: datetime.now(timezone.utc)):
        self.wall = wall
        self.entries: dict[str, Waiter] = {}
        self.accepted_names: Callable[[], Iterable[str]] = tuple  # the server's: whose are whose

    def _entry(self, key) -> Waiter:
        entry = self.entries.get(key.key_id)
        if entry is None:
            entry = self.entries[key.key_id] = Waiter(key.key_id)
        entry.name = entry.name or key.name
        entry.address, entry.joined, entry.wants = key.address, key.joined, key.takes
        return entry

    def heartbeat(self, key, beat: Mapping) -> int:
        """KEY's heartbeat; the rows the hub holds of it (the answer's acked)."""
        entry = self._entry(key)
        if entry.journal_id and entry.journal_id != beat.get("journal_id"):
            entry.rows = entry.acked = 0  # not the journal its rows were stored under
        entry.journal_id = str(beat.get("journal_id") or "")
        entry.name = str(beat.get("station") or entry.name)
        entry.last_seq = int(beat.get("last_seq") or 0)
        entry.heard, entry.beat = self.wall(), beat
        return entry.acked

    def rows(self, key, journal_id: str, rows: Iterable[Mapping], acked: int | None,
             live: bool = True) -> None:
        entry = self._entry(key)
        entry.journal_id = journal_id
        for row in rows:
            entry.rows += 1
            entry.name = entry.name or str(row.get("station") or "")
            entry.acked = max(entry.acked, int(row.get("origin_seq") or 0))
        if acked is not None:
            entry.acked = max(entry.acked, acked)
        if live:
            entry.heard = self.wall()

    def acked(self, key_id: str) -> int:
        entry = self.entries.get(key_id)
        return entry.acked if entry else 0

    def forget(self, key_id: str) -> bool:
        return self.entries.pop(key_id, None) is not None

    def snapshot(self) -> list[dict]:
        """The panel, oldest first: names drawn with every invisible character as its picture,
        and the newcomer whose name looks like another's (lookalike.py) marked so (LOOKS_LIKE):
        one that reads like an accepted station's, or like one that waited before it; never the
        accepted station, nor the first of those waiting under names that read alike, nor one
        that asks for an accepted station's very name (its "wants": Accept in its place)."""
        entries = sorted(self.entries.values(), key=lambda e: e.joined)  # then as they came
        accepted = set(self.accepted_names())
        seen = {name_key(name[:NAME_SHOWN]) for name in accepted}
        marked = []
        for e in entries:  # (one waiting under an accepted name itself wants its place: said)
            read = name_key(e.name[:NAME_SHOWN])
            marked.append(LOOKS_LIKE if read in seen and e.name not in accepted else "")
            seen.add(read)
        return [{"key": e.key_id, "name": visible(e.name[:NAME_SHOWN]) + mark,
                 "address": visible(e.address[:60]), "joined": e.joined, "rows": e.rows,
                 "last_seq": e.last_seq, "wants": visible(e.wants[:NAME_SHOWN]),
                 "heard": e.heard.isoformat(timespec="seconds") if e.heard else None}
                for e, mark in zip(entries, marked)]
