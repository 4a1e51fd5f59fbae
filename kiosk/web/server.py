"""textual-serve's server, locked: a token on every request, one smart-device kiosk per tab."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlencode, urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.server import Server, to_int

from adjudicator.errors import AdjudicatorError
from adjudicator.net.announce import base_url, print_url, token_url
from .sessions import KioskSession, SessionLabels, kiosk_argv
from adjudicator.net.token import TokenStore

COOKIE = "adjudicator_token"
TEMPLATES = Path(__file__).with_name("templates")
FORBIDDEN = ("403 Forbidden: this word judge needs the current link.\n"
             "Ask the tournament director for the QR code.\n")
SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",  # the token never travels to another site
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


class KioskServer(Server):
    """Serves `adjudicator kiosk --mode smart-device` to browsers that hold the current token."""

    def __init__(self, *, config_path: str | None, tokens: TokenStore, host: str = "127.0.0.1",
                 port: int = 8000, max_sessions: int = 48, out: TextIO | None = None):
        super().__init__("adjudicator kiosk", host=host, port=port, title="Word judge",
                         templates_path=TEMPLATES)
        self.config_path = config_path
        self.tokens = tokens
        self.max_sessions = max_sessions
        self.out = out or sys.stdout
        self.labels = SessionLabels()
        self.sessions: set[KioskSession] = set()
        self.bound_port: int | None = None
        self.base = ""

    # -- the web application ------------------------------------------------------------------

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(str(self.templates_path)),
                             autoescape=True)
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.static("/static", self.statics_path, show_index=False, name="static"),
        ])
        app.on_shutdown.append(self.on_shutdown)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler) -> web.StreamResponse:
        """Every page, websocket and static file needs the token (query or cookie); else 403."""
        from_query = request.query.get("token")
        if not self.tokens.check(from_query or request.cookies.get(COOKIE)) or not _same_origin(
                request):
            return web.Response(status=403, text=FORBIDDEN, headers=SECURITY_HEADERS)
        if from_query is not None and request.path == "/" and request.method == "GET":
            # Keep the token in a cookie (static files and the websocket carry it) and out of
            # the address bar, the history and anything a player might photograph.
            rest = [(k, v) for k, v in request.query.items() if k != "token"]
            location = "/" + ("?" + urlencode(rest) if rest else "")
            response = web.Response(status=303, headers={**SECURITY_HEADERS, "Location": location})
            response.set_cookie(COOKIE, from_query, httponly=True, samesite="Lax", path="/")
            return response
        response = await handler(request)
        for key, value in SECURITY_HEADERS.items():
            if key != "Cache-Control" or request.path == "/":
                response.headers.setdefault(key, value)
        return response

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """The page: URLs relative to the host the phone used; the font size picked in the page
        from the screen's width unless ?fontsize= is given."""
        scheme = "wss" if request.secure else "ws"
        fixed = request.query.get("fontsize")
        return {
            "font_size": max(8, min(to_int(fixed, 16), 48)) if fixed else 16,
            "font_size_fixed": bool(fixed),
            "app_websocket_url": f"{scheme}://{request.host}/ws",
            "config": {"static": {"url": "/static/"}},
            "application": {"name": self.title},
        }

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        """One tab, one kiosk process; the process ends when the tab closes."""
        if len(self.sessions) >= self.max_sessions:
            return web.Response(status=503, text="Too many devices connected; close a tab.\n")
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        label = self.labels.next()
        session: KioskSession | None = None
        try:
            await websocket.prepare(request)
            session = KioskSession(
                kiosk_argv(self.config_path, label), label,
                write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                close=websocket.close, download_manager=self.download_manager,
            )
            self.sessions.add(session)
            await session.start(width, height)
            # A kiosk that ends by itself (or fails to start) ends the page's session too.
            session._task.add_done_callback(lambda _t: asyncio.ensure_future(websocket.close()))
            self._log(f"session {label} opened (process {session.pid})")
            await self._process_messages(websocket, session)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # one tab's failure never takes the server down
            self._log(f"session {label} failed: {error.__class__.__name__}: {error}")
        finally:
            if session is not None:
                await session.stop()
                self.sessions.discard(session)
                forced = f" (did not quit: sent {session.forced})" if session.forced else ""
                self._log(f"session {label} closed{forced}")
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        await asyncio.gather(*(s.stop() for s in list(self.sessions)), return_exceptions=True)

    # -- running ------------------------------------------------------------------------------

    def serve(self, debug: bool = False) -> None:
        """Serve until Ctrl+C or SIGTERM; every kiosk process is ended on the way out."""
        asyncio.run(self.run())

    async def run(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        app = await self._make_app()
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=5.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError as e:
            await runner.cleanup()
            raise AdjudicatorError(f"cannot listen on {self.host}:{self.port}: "
                                   f"{e.strerror or e}") from e
        self.bound_port = runner.addresses[0][1]
        self.base = base_url(self.host, self.bound_port)
        self.tokens.record_base(self.base)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):
                pass
        self._announce(self.tokens.current(), "Smart-device word judge: open this on a phone "
                       "or tablet, or scan the code:")
        if self.host in ("127.0.0.1", "localhost", "::1"):
            self.out.write("(Only this computer can connect. For the venue network start with "
                           "--host 0.0.0.0)\n")
        self.out.write("Press Ctrl+C to stop.\n")
        self.out.flush()
        watcher = asyncio.create_task(self._watch_token(stop))
        try:
            await stop.wait()
        finally:
            watcher.cancel()
            await runner.cleanup()
            await self.on_shutdown(app)

    async def _watch_token(self, stop: asyncio.Event) -> None:
        """Show the new URL and code here as soon as `serve --rotate-token` rewrites the file."""
        last = self.tokens.current()
        while not stop.is_set():
            await asyncio.sleep(1.0)
            now = self.tokens.current()
            if now != last:
                last = now
                self._announce(now, "Token rotated: old links no longer open the judge. New link:")

    def _announce(self, token: str | None, heading: str) -> None:
        if token is None:
            self.out.write(f"No token in {self.tokens.path}: every request is refused. "
                           "Run `adjudicator serve --rotate-token` to make one.\n")
            self.out.flush()
            return
        print_url(token_url(self.base, token), self.out, heading=heading)

    def _log(self, message: str) -> None:
        self.out.write(f"{time.strftime('%H:%M:%S')} {message}\n")
        self.out.flush()


def _same_origin(request: web.Request) -> bool:
    """A browser's Origin header, when sent, must name this server (no cross-site websocket)."""
    origin = request.headers.get("Origin")
    if not origin or origin == "null":
        return origin is None
    return urlsplit(origin).netloc == request.host
