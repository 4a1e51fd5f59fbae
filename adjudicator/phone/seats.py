"""Each device's place at each table (protocol state, entry, last verdict), kept on the server so
a page reload shows the same thing: it cannot hide a verdict or start a split look-up afresh."""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from adjudicator.station.protocol import Protocol
from adjudicator.station.service import Outcome, Station
from adjudicator.event.tables import check_table

MAX_TEXT = 400  # characters of typed entry kept (entry.py refuses longer plays anyway)
TABLES_PER_DEVICE = 8  # a device that hops between tables keeps its last few


def device_label(device_id: str) -> str:
    """The journal's name for a device: derived from, but never revealing, its cookie."""
    return "phone-" + hashlib.sha256(device_id.encode()).hexdigest()[:6]


def clean_table(text: object, what: str = "table") -> str:
    """A table or round as typed ('12', 'A3'), as the station records it (adjudicator/event/tables.py);
    TableError, saying what a table is, when it is not one."""
    return check_table(text, what)


@dataclass
class TableState:
    """One device at one table: where it is in the protocol and what it shows."""

    table: str
    round: str
    protocol: Protocol
    text: str = ""
    error: str = ""
    outcome: Outcome | None = None


@dataclass
class Device:
    """A phone (one cookie): its own station (journal name), tables and open pages."""

    id: str
    label: str
    station: Station
    current: str | None = None
    refused: str = ""  # why the table it last chose is not one (shown on the table chooser)
    tables: OrderedDict = field(default_factory=OrderedDict)
    sockets: list = field(default_factory=list)
    seen: float = field(default_factory=time.monotonic)

    def choose(self, table: str, round: str, timers, clock) -> TableState:
        """Sit at TABLE (its state kept if this device was there before)."""
        state = self.tables.pop(table, None) or TableState(table, round, Protocol(timers, clock))
        if round:
            state.round = round
        self.tables[table] = state
        while len(self.tables) > TABLES_PER_DEVICE:
            self.tables.popitem(last=False)
        self.current = table
        return state

    @property
    def here(self) -> TableState | None:
        return self.tables.get(self.current) if self.current is not None else None


class Devices:
    """Every device seen, newest last; the oldest without an open page is forgotten beyond MAX."""

    def __init__(self, make_station: Callable[[str], Station], maximum: int):
        self._make = make_station
        self.maximum = maximum
        self._devices: OrderedDict[str, Device] = OrderedDict()

    def get(self, device_id: str) -> Device:
        device = self._devices.pop(device_id, None)
        if device is None:
            label = device_label(device_id)
            device = Device(device_id, label, self._make(label))
        device.seen = time.monotonic()
        self._devices[device_id] = device
        if len(self._devices) > self.maximum:
            for key, old in list(self._devices.items()):
                if len(self._devices) <= self.maximum:
                    break
                if not old.sockets:
                    del self._devices[key]
        return device

    def __len__(self) -> int:
        return len(self._devices)

    def at_table(self, table: str, but: Device) -> list[Device]:
        """The other devices seated at TABLE with a page open: each shows its challenge count."""
        return [d for d in self._devices.values()
                if d is not but and d.current == table and d.sockets]
