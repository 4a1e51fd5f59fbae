"""How many phones, pages per device and per address; how long a silent connection may stay."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

FULL = "This event's phone limit is reached: ask the director."
TOO_MANY_HERE = ("This device (or its network address) has too many judge pages open: close one, "
                 "or ask the director.")


@dataclass(frozen=True)
class Limits:
    """The server's caps and timeouts (seconds)."""

    max_phones: int = 300  # open phone pages (websockets) at once
    per_device: int = 2  # pages one device (cookie) may hold; a newer one replaces the oldest
    per_address: int = 8  # pages one network address may hold (0: no cap), so one token holder
    #                      cannot take every slot by discarding cookies
    idle_timeout: float = 10.0  # an HTTP connection with no complete request is closed
    heartbeat: float = 20.0  # a page that does not answer pings is closed
    page_idle: float = 900.0  # a page with no frame from the phone this long is closed
    send_timeout: float = 5.0  # a phone that does not read its frames is closed
    max_frame: int = 2048  # bytes in one frame from a phone

    @property
    def max_connections(self) -> int:
        """TCP connections at once (the rest are closed at once, so file descriptors last)."""
        return self.max_phones * 2 + 64


class Admission:
    """Counts open pages per device and address; says whether one more may open."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.total = 0
        self.by_address: Counter = Counter()

    def refuse(self, address: str, device_sockets: int) -> str:
        """'' when a page may open; otherwise what the phone is told. A device replacing one of
        its own pages (a reload) is never refused for the event's cap."""
        if self.limits.per_address and self.by_address[address] >= self.limits.per_address \
                and not device_sockets:
            return TOO_MANY_HERE
        if self.total >= self.limits.max_phones and not device_sockets:
            return FULL
        return ""

    def opened(self, address: str) -> None:
        self.total += 1
        self.by_address[address] += 1

    def closed(self, address: str) -> None:
        self.total -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
