"""The hub's routes written as functions of the hub, bound to it for aiohttp's router."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from adjudicator import wire

Hub = Any  # server.Hub (which imports the modules of routes)
Handler = Callable[[Hub, web.Request], Awaitable[web.StreamResponse]]


def bound(hub: Hub, handler: Handler) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """HANDLER(hub, request) as aiohttp calls a route's handler: with the request alone."""
    async def handle(request: web.Request) -> web.StreamResponse:
        return await handler(hub, request)
    return handle


async def director_said(hub: Hub, request: web.Request, limit: int) -> dict[str, Any]:
    """What a director's POST says (its JSON object, at most LIMIT bytes read), once the hub
    knows the request is the director's (else it is refused first); {} when it says no object."""
    hub._director(request)
    try:
        said = wire.decode(await request.content.read(limit))
    except wire.WireError:
        return {}
    return said if isinstance(said, dict) else {}
