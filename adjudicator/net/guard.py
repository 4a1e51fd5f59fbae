"""Connections that hold a slot without asking for anything: closed after a timeout, and the
oldest of them closed first when the server is at its connection cap, so a real client (a phone,
a station, the director) always gets in; and the file limit raised so the cap can be reached.
Shared by the phone server and the hub."""

from __future__ import annotations

import asyncio
import resource
from collections import OrderedDict

from aiohttp import web


def _asked(handler) -> bool:
    """True once the connection has sent one whole request (aiohttp counts them)."""
    return getattr(handler, "_request_count", 1) > 0


class ConnectionGuard:
    """Wraps SERVER's connection hooks: at most MAXIMUM TCP connections; one that has not sent a
    whole request within FIRST_REQUEST seconds (silent, or trickling its headers) is closed."""

    def __init__(self, server: web.Server, maximum: int, first_request: float, log):
        self.server, self.maximum, self.log = server, maximum, log
        self.first_request = first_request
        self.waiting: OrderedDict = OrderedDict()  # handler -> transport, oldest first
        self._made, self._lost = server.connection_made, server.connection_lost
        self._loop = asyncio.get_running_loop()
        server.connection_made = self.connection_made  # type: ignore[method-assign]
        server.connection_lost = self.connection_lost  # type: ignore[method-assign]

    def connection_made(self, handler, transport) -> None:
        self._made(handler, transport)
        if len(self.server.connections) > self.maximum and not self._evict_one_waiting():
            self.log("connection limit reached: a new connection was closed at once")
            transport.abort()
            return
        self.waiting[handler] = transport
        self._loop.call_later(self.first_request, self._too_slow, handler)

    def connection_lost(self, handler, exc) -> None:
        self.waiting.pop(handler, None)
        self._lost(handler, exc)

    def _too_slow(self, handler) -> None:
        transport = self.waiting.pop(handler, None)
        if transport is not None and not _asked(handler) and not transport.is_closing():
            self.log("a connection sent no request in time: closed")
            transport.abort()

    def _evict_one_waiting(self) -> bool:
        """Close the oldest connection still without a request; False when there is none."""
        while self.waiting:
            handler, transport = self.waiting.popitem(last=False)
            if _asked(handler) or transport.is_closing():
                continue  # it has asked since (or is going): no longer waiting
            self.log("connection limit reached: the oldest silent connection was closed")
            transport.abort()
            return True
        return False


def raise_file_limit(wanted: int) -> int:
    """Allow WANTED open files when the system lets us (clients are sockets); the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
