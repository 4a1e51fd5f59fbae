"""The director's page and API answer on the hub's own machine only, unless the director chose more.

The hub listens twice (run.py): TLS on its address for stations, and plain HTTP on 127.0.0.1
(the director's browser, with no certificate warning; nothing there crosses the hall's network).
On the TLS listener the director's routes answer a request from the hub's own machine (the peer's
address is the very address it reached) and, with `adjudicator hub --director-from-anywhere`,
anyone holding the director's key: over the same TLS, never in clear. Stations' routes answer on
both listeners.
"""

from __future__ import annotations

import ipaddress

from aiohttp import web

# the director's routes (the page, its state and feed, Accept/Reject/Rename, the Event panel,
# an alarm marked handled); the page's own files (director*.css, director*.js) hold no secret
DIRECTOR_PATHS = frozenset({"/", "/state", "/events", "/api/accept", "/api/reject",
                            "/api/rename", "/api/event", "/api/handled"})


def _address(info) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(str(info[0]).split("%", 1)[0])
    except (TypeError, ValueError, IndexError):
        return None
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:a.b.c.d on a dual-stack socket
    return mapped or address


def from_this_machine(request: web.BaseRequest) -> bool:
    """True when REQUEST came over loopback in clear (the 127.0.0.1 listener: only this machine
    reaches it) or from the very address it reached (the hub's own machine, over TLS)."""
    transport = request.transport
    if transport is None:
        return False
    if transport.get_extra_info("sslcontext") is None:
        local = _address(transport.get_extra_info("sockname") or ())
        return local is not None and local.is_loopback
    peer = _address(transport.get_extra_info("peername") or ())
    local = _address(transport.get_extra_info("sockname") or ())
    return peer is not None and peer == local


def director_gate(hub, from_anywhere: bool):
    """Middleware: the director's routes refused (403, one line) to another machine unless
    FROM_ANYWHERE (then only over TLS: the plain listener is on loopback alone)."""
    @web.middleware
    async def gate(request: web.Request, handler):
        if request.path in DIRECTOR_PATHS and not from_this_machine(request) and not (
                from_anywhere and request.transport is not None
                and request.transport.get_extra_info("sslcontext") is not None):
            hub.log(f"refused the director's {request.path} from {request.remote or '?'}: "
                    "another machine (adjudicator hub --director-from-anywhere serves it)")
            raise web.HTTPForbidden(
                text="the director's page answers on the hub's own machine only (the address "
                     "`adjudicator hub` printed for it); started with --director-from-anywhere "
                     "it answers other machines over TLS\n",
                headers={"Cache-Control": "no-store"})
        return await handler(request)
    return gate
