"""The director's page and its own files (same origin, nothing inline), and an alarm marked handled.

GET /?key=K: director.html; GET /director.css, /director.js...: the page's style and scripts,
the same for every director (they hold no secret: the key is in the page's address only, and
every answer they fetch asks for it). The page's Content-Security-Policy lets it load nothing but
these files and talk to nothing but its hub. POST /api/handled?key=K {"group": G, "handled":
true|false}: the director marks an alarm group handled, or takes the mark back (handled.py).
"""

from __future__ import annotations

import asyncio
from importlib import resources

from aiohttp import web

from adjudicator.hub.handled import MAX_GROUP
from adjudicator.hub.routing import Hub, director_said
from adjudicator.hub.station_routes import HEADERS

FILES = {"director.css": "text/css", "director.js": "text/javascript",
         "director-alarms.js": "text/javascript", "director-actions.js": "text/javascript",
         "director-event.js": "text/javascript"}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
       "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def _read(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text("utf-8")


async def page(hub: Hub, request: web.Request) -> web.Response:
    hub._director(request)
    return web.Response(text=_read("director.html"), content_type="text/html",
                        headers={**HEADERS, "Content-Security-Policy": CSP})


async def page_file(hub: Hub, request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in FILES:
        raise web.HTTPNotFound(headers=HEADERS)
    kind = FILES[name]
    return web.Response(text=_read(name), content_type=kind, charset="utf-8",
                        headers={**HEADERS, "Content-Security-Policy": CSP})


async def handled(hub: Hub, request: web.Request) -> web.Response:
    """The director marks an alarm group handled ({"group": G, "handled": true}) or takes the
    mark back (false): kept in the hub journal; 404 when the board shows no such group."""
    said = await director_said(hub, request, 2048)
    group, mark = said.get("group"), said.get("handled", True)
    if type(group) is not str or type(mark) is not bool or len(group) > MAX_GROUP:  # noqa: E721
        return web.json_response({"error": "say the alarm group and whether it is handled"},
                                 status=400, headers=HEADERS)
    board = hub.board
    alarms = board.snapshot()["alarms"]
    if any(a.get("group") == group and a.get("waiting") for a in alarms):
        return web.json_response({"error": "stations waiting are accepted or rejected, not "
                                  "marked handled"}, status=409, headers=HEADERS)
    count = board.handled.mark(group, alarms) if mark else None
    if mark and count is None:
        return web.json_response({"error": "no such alarm now"}, status=404, headers=HEADERS)
    if not mark and not board.handled.unmark(group):
        return web.json_response({"handled": False, "already": True}, headers=HEADERS)
    await asyncio.get_running_loop().run_in_executor(hub._writer, hub.ledger.mark_handled,
                                                     group, count)
    board.version += 1
    hub._notify()
    return web.json_response({"handled": mark}, headers=HEADERS)


def add_routes(app: web.Application, hub: Hub) -> None:
    def bound(handler):
        async def handle(request: web.Request) -> web.StreamResponse:
            return await handler(hub, request)
        return handle
    app.router.add_get("/", bound(page))
    app.router.add_get(r"/{name:director[a-z-]*\.(?:css|js)}", bound(page_file))
    app.router.add_post("/api/handled", bound(handled))
