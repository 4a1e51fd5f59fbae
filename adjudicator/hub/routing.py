"""The hub's routes written as functions of the hub, bound to it for aiohttp's router."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

Hub = Any  # server.Hub (which imports the modules of routes)
Handler = Callable[[Hub, web.Request], Awaitable[web.StreamResponse]]


def bound(hub: Hub, handler: Handler) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """HANDLER(hub, request) as aiohttp calls a route's handler: with the request alone."""
    async def handle(request: web.Request) -> web.StreamResponse:
        return await handler(hub, request)
    return handle
