"""The phone server: one aiohttp process, the token on every request, one websocket per page,
the station service behind it (adjudicator serve)."""

from __future__ import annotations

import asyncio
import secrets
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import TextIO
from urllib.parse import urlencode, urlsplit

from aiohttp import WSCloseCode, WSMsgType, web

from adjudicator.net.token import TokenStore
from adjudicator.phone.limits import Admission, Limits
from adjudicator.net.logs import OneLineLog
from adjudicator.phone.page import Page
from adjudicator.phone.play import act, runner
from adjudicator.phone.seats import Devices
from adjudicator.phone.wire import BadFrame, hello, parse_frame, state_payload

COOKIE = "adjudicator_token"
DEVICE_COOKIE = "adjudicator_device"
NOT_A_WEBSOCKET = "426: this address is the phone page's live connection; open / instead.\n"
SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",  # the token never travels to another site
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
# Close codes the page understands (phone.js): replaced by a newer page, idle, refused.
REPLACED, IDLE, REFUSED = 4000, 4001, 4003


class PhoneApp:
    """The web application: routes, the token guard, and each phone page's websocket."""

    def __init__(self, station_for, *, tokens: TokenStore, timers, limits: Limits | None = None,
                 out: TextIO | None = None, clock=None):
        """STATION_FOR(label) -> the Station that judges and records for one device."""
        import time

        self.tokens = tokens
        self.timers = timers
        self.limits = limits or Limits()
        self.log = OneLineLog(out or sys.stdout)
        self.clock = clock or time.monotonic
        self.page = Page()
        self.devices = Devices(station_for, maximum=max(64, self.limits.max_phones * 4))
        self.admission = Admission(self.limits)
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="journal")
        self.judge_in = runner(self.executor)
        self.sockets: set[web.WebSocketResponse] = set()
        self.on_close: list = []
        self.setup: list[str] = []  # the event, the lists, the journal, the hub (said at start)

    def make_app(self, routes=()) -> web.Application:
        """The aiohttp application: the page at /, its websocket at /ws, and ROUTES (another
        surface's, such as the director's hub) behind the same token guard."""
        app = web.Application(middlewares=[self._guard], client_max_size=4096)
        app.add_routes([web.get("/", self.handle_page), web.get("/ws", self.handle_websocket),
                        web.get("/favicon.ico", self.handle_icon), *routes])
        app.on_shutdown.append(self._close_pages)
        return app

    # -- the token ----------------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request, handler) -> web.StreamResponse:
        """Everything needs the token (query or cookie); an empty or wrong ?token= is a 403,
        never a way to drop the cookie. A good ?token= moves into a cookie, out of sight."""
        if "token" in request.query:
            from_query = request.query.get("token", "")
            if not self.tokens.check(from_query) or request.path != "/":
                return self._forbidden()
            rest = [(k, v) for k, v in request.query.items() if k != "token"]
            location = "/" + ("?" + urlencode(rest) if rest else "")
            response = web.Response(status=303, headers={**SECURITY_HEADERS, "Location": location})
            response.set_cookie(COOKIE, from_query, httponly=True, samesite="Lax", path="/")
            return response
        if not self.tokens.check(request.cookies.get(COOKIE)) or not _same_origin(request):
            return self._forbidden()
        try:
            response = await handler(request)
        except web.HTTPException as e:
            response = web.Response(status=e.status, text=f"{e.status}: {e.reason}\n")
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    # -- the page -----------------------------------------------------------------------------

    async def handle_page(self, request: web.Request) -> web.StreamResponse:
        device_id = request.cookies.get(DEVICE_COOKIE, "")
        known = device_id if 8 <= len(device_id) <= 64 and device_id.isascii() else ""
        device = self.devices.get(known) if known else None
        reason = self.admission.refuse(_address(request), len(device.sockets) if device else 0)
        if reason:
            return web.Response(status=503, body=self.page.refusals[reason],
                                content_type="text/html", charset="utf-8",
                                headers={"Content-Security-Policy": self.page.notice_csp})
        response = web.Response(body=self.page.body, content_type="text/html", charset="utf-8",
                                headers={"Content-Security-Policy": self.page.csp})
        if not known:
            response.set_cookie(DEVICE_COOKIE, secrets.token_urlsafe(12), httponly=True,
                                samesite="Lax", path="/", max_age=7 * 24 * 3600)
        return response

    async def handle_icon(self, request: web.Request) -> web.StreamResponse:
        """The page names its icon inline; a browser that asks for /favicon.ico anyway (a
        bookmark, a home-screen shortcut) gets the same one, not a 404."""
        return web.Response(body=self.page.icon, content_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=86400"})

    def _forbidden(self) -> web.Response:
        """No token or a wrong one (403): a page of its own saying what to do, never the token."""
        return web.Response(status=403, body=self.page.forbidden, content_type="text/html",
                            charset="utf-8",
                            headers={**SECURITY_HEADERS,
                                     "Content-Security-Policy": self.page.notice_csp})

    # -- a phone's live connection ------------------------------------------------------------

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=self.limits.heartbeat,
                                   max_msg_size=self.limits.max_frame)
        if not ws.can_prepare(request).ok:
            return web.Response(status=426, text=NOT_A_WEBSOCKET, headers={"Upgrade": "websocket"})
        device_id = request.cookies.get(DEVICE_COOKIE, "")
        if not (8 <= len(device_id) <= 64 and device_id.isascii()):
            return web.Response(status=400, text="400: open the page first.\n")
        address = _address(request)
        device = self.devices.get(device_id)
        await ws.prepare(request)
        reason = self.admission.refuse(address, len(device.sockets))
        if reason:
            await self._send(ws, {"t": "notice", "title": "Not now", "text": reason})
            await ws.close(code=REFUSED, message=b"refused")
            return ws
        self.admission.opened(address)
        self.sockets.add(ws)
        device.sockets.append(ws)
        while len(device.sockets) > self.limits.per_device:  # a reload: the newest page wins
            old = device.sockets.pop(0)
            asyncio.ensure_future(old.close(code=REPLACED, message=b"opened again"))
        try:
            await self._reseat(device, request.query)
            await self._send(ws, hello(device))
            await self._send(ws, state_payload(device, device.here))
            await self._serve_page(ws, device)
        except (ConnectionError, asyncio.TimeoutError, RuntimeError) as e:
            self.log(f"{device.label}: connection dropped ({type(e).__name__})")
        finally:
            self.sockets.discard(ws)
            if ws in device.sockets:
                device.sockets.remove(ws)
            self.admission.closed(address)
            if not ws.closed:
                await ws.close()
        return ws

    async def _reseat(self, device, query) -> None:
        """A page that names its table (/ws?table=12&round=3) for a device this server does not
        seat (it restarted, and forgot every phone) sits there again, checked as a typed table."""
        if device.current is not None or "table" not in query:
            return
        frame = {"t": "table", "table": query.get("table", ""), "round": query.get("round", "")}
        problem = await act(frame, device, timers=self.timers, clock=self.clock,
                            judge_in=self.judge_in)
        if problem:
            self.log(f"{device.label}: table from a reconnecting page: {problem}")

    async def _serve_page(self, ws: web.WebSocketResponse, device) -> None:
        while True:
            try:
                msg = await ws.receive(timeout=self.limits.page_idle)
            except asyncio.TimeoutError:
                await ws.close(code=IDLE, message=b"idle")
                return
            if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            if msg.type is WSMsgType.ERROR:
                self.log(f"{device.label}: bad frame ({ws.exception()})")
                return
            try:
                frame = parse_frame(msg.data)
            except BadFrame as e:
                self.log(f"{device.label}: bad frame ({e})")
                continue
            if frame["t"] == "judge":  # heard: a wait from here on is the station's, not the link's
                await self._send(ws, {"t": "judging"})
            try:
                problem = await act(frame, device, timers=self.timers, clock=self.clock,
                                    judge_in=self.judge_in)
            except Exception as e:  # noqa: BLE001 - one line, and the page carries on
                problem = f"{frame['t']} failed: {type(e).__name__}: {e}"
            if problem:
                self.log(f"{device.label}: {problem}")
            if frame["t"] == "typed" and not problem:
                continue  # the phone already shows what it typed
            payload = state_payload(device, device.here)
            for page in list(device.sockets):
                await self._send(page, payload)
            if frame["t"] in ("judge", "recheck") and device.here is not None:
                await self._recount(device, device.here.table)

    async def _recount(self, device, table: str) -> None:
        """Every other phone at TABLE is told its fresh challenge count (two phones at one table
        each said its own count from its last state, so the second's was stale)."""
        for other in self.devices.at_table(table, but=device):
            count = {"t": "count", "table": table, "count": other.station.table_count(table)}
            for page in list(other.sockets):
                await self._send(page, count)

    async def _send(self, ws: web.WebSocketResponse, payload: dict) -> None:
        """Send, or close a phone that does not read (a slow connection never holds the rest)."""
        if ws.closed:
            return
        try:
            await asyncio.wait_for(ws.send_json(payload), self.limits.send_timeout)
        except asyncio.TimeoutError:
            self.log("a phone stopped reading: closed")
            await ws.close(code=WSCloseCode.POLICY_VIOLATION)
        except (ConnectionError, RuntimeError):
            pass

    async def _close_pages(self, _app=None) -> None:
        await asyncio.gather(*(ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")
                               for ws in list(self.sockets)), return_exceptions=True)

    def close(self) -> None:
        """After the server stopped: the last records written, then ON_CLOSE (the journal)."""
        self.executor.shutdown(wait=True)
        for close in self.on_close:
            close()


def _address(request: web.Request) -> str:
    return request.remote or "?"


def _same_origin(request: web.Request) -> bool:
    """A browser's Origin header, when sent, must name this server (no cross-site websocket)."""
    origin = request.headers.get("Origin")
    if not origin or origin == "null":
        return origin is None
    return urlsplit(origin).netloc == request.host
