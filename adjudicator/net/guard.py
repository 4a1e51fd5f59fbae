"""Who keeps a connection when a server is full: one that sends nothing is closed after a
timeout; at the cap, connections without the token go first (idle ones, then silent ones, the
longest waiting first), one address holds a bounded number of them, and room is kept for the
ones with the token, so a real client (a phone, a station, the director) always gets in; and
the file limit raised so the cap can be reached. Shared by the phone server and the hub."""

from __future__ import annotations

import array
import asyncio
import sys
from collections.abc import Callable

if sys.platform != "win32":
    import fcntl
    import resource
    import termios

from aiohttp import web

# Eviction order at the cap (lowest first); a busy connection with the token is never evicted.
IDLE_WITHOUT, SILENT, IDLE_WITH, BUSY_WITHOUT = range(4)
GRACE = 1.0  # seconds a new connection has before its address's cap may close it unasked


def _asked(handler) -> bool:
    """True once the connection has sent one whole request (aiohttp counts them)."""
    return getattr(handler, "_request_count", 1) > 0


def _idle(handler) -> bool:
    """True while the connection waits for its next request (as aiohttp's own keep-alive
    check has it): not while a request is read, queued, handed over or answered."""
    waiter = getattr(handler, "_waiter", None)
    return (waiter is not None and not waiter.done()
            and not getattr(handler, "_messages", None))


def _unread(transport) -> bool:
    """True when bytes wait in the kernel for this connection: it has asked, the server (busy)
    has not read it yet; not a silent connection. Windows has no FIONREAD ioctl on a socket
    that Python exposes: there every connection that has not asked counts as silent."""
    if sys.platform == "win32":
        return False
    else:
        sock = transport.get_extra_info("socket")
        try:
            count = array.array("i", [0])
            fcntl.ioctl(sock.fileno(), termios.FIONREAD, count)
            return count[0] > 0
        except (AttributeError, OSError, ValueError):
            return False


class _Slot:
    __slots__ = ("transport", "address", "since", "trusted")

    def __init__(self, transport, address: str, since: float):
        self.transport, self.address, self.since = transport, address, since
        self.trusted = False  # it has sent a request with the token


class ConnectionGuard:
    """Wraps SERVER's connection hooks: at most MAXIMUM TCP connections; one that has not sent a
    whole request within FIRST_REQUEST seconds (silent, or trickling its headers) is closed.

    TRUSTED(request) -> bool tells a request with the token (None: the server does not tell,
    every connection is treated alike). Given it, the guard's `middleware` (add it to the
    application) marks a connection that sent one as trusted and closes every other connection
    once answered (no keep-alive without the token); at most MAXIMUM - RESERVE connections are
    without the token, and at most PER_ADDRESS from one address (0: no such cap) idle or silent.
    SERVER may be None and given later with attach() (the application's middlewares are fixed
    before its server exists)."""

    def __init__(self, server: web.Server | None, maximum: int, first_request: float, log, *,
                 trusted: Callable[[web.BaseRequest], bool] | None = None,
                 per_address: int = 0, reserve: int = 0):
        self.maximum, self.log, self.first_request = maximum, log, first_request
        self.trusted, self.per_address = trusted, per_address
        self.reserve = min(reserve, maximum - 1)
        self.slots: dict = {}  # handler -> _Slot, oldest first
        self.without: dict = {}  # handler -> None: connections without the token yet
        self.by_address: dict[str, dict] = {}  # address -> {handler: None}, without the token
        self.server = None
        self._loop = asyncio.get_running_loop()
        if server is not None:
            self.attach(server)

    def attach(self, server: web.Server) -> None:
        self.server = server
        self._made, self._lost = server.connection_made, server.connection_lost
        server.connection_made = self.connection_made  # type: ignore[method-assign]
        server.connection_lost = self.connection_lost  # type: ignore[method-assign]

    # -- connections ---------------------------------------------------------------------------

    def connection_made(self, handler, transport) -> None:
        self._made(handler, transport)
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, (tuple, list)) and peer else "?"
        self.slots[handler] = _Slot(transport, address, self._loop.time())
        self.without[handler] = None
        self.by_address.setdefault(address, {})[handler] = None
        if self.per_address:
            self._address_cap(address, handler)
        if self.reserve and len(self.without) > self.maximum - self.reserve:
            self._evict(self.without, handler, "connections without the token fill their "
                        "share: the longest idle or silent one was closed", upto=SILENT)
        if len(self.server.connections) > self.maximum and not self._evict(
                self.slots, handler, "connection limit reached: the longest idle or silent "
                "connection was closed"):
            self.log("connection limit reached: a new connection was closed at once")
            self._forget(handler)
            transport.abort()
            return
        self._loop.call_later(self.first_request, self._too_slow, handler)

    def connection_lost(self, handler, exc) -> None:
        self._forget(handler)
        self._lost(handler, exc)

    def _forget(self, handler) -> None:
        slot = self.slots.pop(handler, None)
        self.without.pop(handler, None)
        if slot is not None:
            mine = self.by_address.get(slot.address)
            if mine is not None:
                mine.pop(handler, None)
                if not mine:
                    del self.by_address[slot.address]

    def _trust(self, handler, slot: _Slot) -> None:
        slot.trusted = True
        self.without.pop(handler, None)
        mine = self.by_address.get(slot.address)
        if mine is not None:
            mine.pop(handler, None)
            if not mine:
                del self.by_address[slot.address]

    def _too_slow(self, handler) -> None:
        slot = self.slots.get(handler)
        if slot is not None and not _asked(handler) and not slot.transport.is_closing():
            self.log("a connection sent no request in time: closed")
            self._close(handler, slot)

    def _close(self, handler, slot: _Slot) -> None:
        self._forget(handler)
        slot.transport.abort()

    # -- who goes first --------------------------------------------------------------------------

    def _rank(self, handler, slot: _Slot) -> int | None:
        if slot.transport.is_closing():
            return None
        if not _asked(handler):
            return BUSY_WITHOUT if _unread(slot.transport) else SILENT
        if _idle(handler):
            return IDLE_WITH if slot.trusted else IDLE_WITHOUT
        return None if slot.trusted else BUSY_WITHOUT

    def _evict(self, among, new, why: str, upto: int = BUSY_WITHOUT) -> bool:
        """Close the first of AMONG (handlers) in eviction order, never NEW nor one ranked
        after UPTO; False if none."""
        best, best_key = None, None
        for handler in among:
            slot = self.slots.get(handler)
            if handler is new or slot is None:
                continue
            rank = self._rank(handler, slot)
            if rank is not None and rank <= upto and (best_key is None
                                                      or (rank, slot.since) < best_key):
                best, best_key = handler, (rank, slot.since)
        if best is None:
            return False
        self.log(why)
        self._close(best, self.slots[best])
        return True

    def _address_cap(self, address: str, new) -> None:
        """At most PER_ADDRESS idle or silent connections without the token from ADDRESS: the
        longest idle, then the oldest silent (given GRACE seconds to ask) closed."""
        mine = self.by_address.get(address) or {}
        if len(mine) <= self.per_address:
            return
        now = self._loop.time()
        ranked = []
        for handler in mine:
            slot = self.slots.get(handler)
            if handler is new or slot is None:
                continue
            rank = self._rank(handler, slot)
            if rank == IDLE_WITHOUT or (rank == SILENT and now - slot.since >= GRACE):
                ranked.append((rank, slot.since, id(handler), handler))
        over = len(mine) - self.per_address
        if over > 0 and ranked:
            self.log(f"{address} holds more than {self.per_address} connections without the "
                     "token: its longest idle or silent ones were closed")
        for *_key, handler in sorted(ranked)[:over]:
            self._close(handler, self.slots[handler])

    # -- requests --------------------------------------------------------------------------------

    @web.middleware
    async def middleware(self, request: web.Request, handler):
        """Marks a connection that sent the token; closes one without it once answered."""
        if self.trusted is None:
            return await handler(request)
        trusted = self.trusted(request)
        slot = self.slots.get(request.protocol)
        if trusted and slot is not None and not slot.trusted:
            self._trust(request.protocol, slot)
        try:
            response = await handler(request)
        except web.HTTPException as e:
            if not trusted:
                e.force_close()
            raise
        finally:
            if slot is not None:
                slot.since = self._loop.time()
        if not trusted:
            response.force_close()
        return response


def raise_file_limit(wanted: int) -> int:
    """Allow WANTED open files when the system lets us (clients are sockets); the soft limit now.
    Windows has no such limit on sockets (its event loop waits on completion ports, not
    select): WANTED."""
    if sys.platform == "win32":
        return wanted
    else:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            except (ValueError, OSError):
                pass
        return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
