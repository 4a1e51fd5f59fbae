"""The hub: one aiohttp process taking every station's rows and heartbeats, serving the director.

Stations POST to /api/rows and /api/heartbeat with the station token (Authorization: Bearer);
the director opens /?key=DIRECTOR_TOKEN, whose page follows /events (server-sent events). The
two tokens never open each other's doors: a station token shows no page, a director's link
sends no rows. Every journal write runs on one worker thread, in arrival order.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from importlib import resources

from aiohttp import web

from ..errors import AdjudicatorError
from ..net.logs import OneLineLog
from .board import Board
from .ledger import HubJournal, Refused
from .stream import TOO_MANY, Feed

TSH_EVERY = 1.0  # seconds between looks at tsh's file
MAX_BODY = 8 * 1024 * 1024
FORBIDDEN = ("This page is for the tournament director: open the address `adjudicator hub` "
             "printed, with its key.\n")
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}


def _same(given: str | None, expected: str) -> bool:
    return bool(given) and hmac.compare_digest(given.encode("utf-8", "replace"),
                                               expected.encode("ascii"))


class Hub:
    """The hub's state and its aiohttp application (make_app); run() serves it."""

    def __init__(self, journal_path: str, board: Board | None = None, tsh: str = ""):
        self.log = OneLineLog(sys.stderr)  # run.py's, when served
        self.ledger = HubJournal(journal_path)
        self.station_token, self.director_token = self.ledger.tokens()
        self.tsh = None
        if tsh:
            from .tsh import TshNames

            self.tsh = TshNames(tsh)
        self.board = board or Board(names=self.tsh and self.tsh.at,
                                    names_warning=self.tsh and self.tsh.warning)
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="hub-journal")
        self.feed = Feed(self.board.snapshot)
        self._tasks: list[asyncio.Task] = []
        self._restore()

    def _restore(self) -> None:
        """The board after a restart: every row held, each station's acknowledged sequence."""
        self.board.restore(self.ledger.all_rows(), self.ledger.acked())

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        self.ledger.close()

    def _notify(self) -> None:
        self.feed.changed()

    # -- stations --------------------------------------------------------------------------

    async def _station(self, request: web.Request) -> None:
        auth = request.headers.get("Authorization", "")
        if not _same(auth.removeprefix("Bearer ").strip(), self.station_token):
            try:  # the director is told, so a station with a mistyped line is not just missing
                said = await request.json()
                name = str(said.get("station") or "")[:60] if isinstance(said, dict) else ""
            except (ValueError, UnicodeDecodeError):
                name = ""
            self.board.wrong_token(request.remote or "?", name)
            self._notify()
            raise web.HTTPForbidden(text=json.dumps({"error": "wrong hub_token: paste the "
                                    "line `adjudicator hub` printed"}),
                                    content_type="application/json")

    async def _body(self, request: web.Request) -> dict:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            body = None
        if not isinstance(body, dict) or not isinstance(body.get("journal_id"), str):
            raise web.HTTPBadRequest(text=json.dumps({"error": "not a station's message"}),
                                     content_type="application/json")
        return body

    async def rows(self, request: web.Request) -> web.Response:
        await self._station(request)
        body = await self._body(request)
        rows = body.get("rows")
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise web.HTTPBadRequest(text=json.dumps({"error": "rows must be a list"}),
                                     content_type="application/json")
        loop = asyncio.get_running_loop()
        try:
            acked, added = await loop.run_in_executor(
                self._writer, self.ledger.accept, body["journal_id"], rows,
                str(body.get("station") or ""))
        except Refused as e:
            self.board.refuse(body["journal_id"], str(body.get("station") or ""), str(e))
            self._notify()
            return web.json_response({"error": str(e)}, status=422)
        except AdjudicatorError as e:
            return web.json_response({"error": str(e)}, status=503)
        self.board.add_rows(body["journal_id"], added, acked)
        self._notify()
        return web.json_response({"acked": acked})

    async def heartbeat(self, request: web.Request) -> web.Response:
        await self._station(request)
        body = await self._body(request)
        try:
            self.board.heartbeat(body["journal_id"], body)
        except (TypeError, ValueError):
            return web.json_response({"error": "not a station's heartbeat"}, status=400)
        self._notify()
        return web.json_response({"acked": self.board.station(body["journal_id"]).acked})

    # -- the director ------------------------------------------------------------------------

    def _director(self, request: web.Request) -> None:
        if not _same(request.query.get("key"), self.director_token):
            raise web.HTTPForbidden(text=FORBIDDEN, headers=HEADERS)

    async def page(self, request: web.Request) -> web.Response:
        self._director(request)
        html = resources.files(__package__).joinpath("director.html").read_text("utf-8")
        return web.Response(text=html, content_type="text/html", headers={
            **HEADERS, "Content-Security-Policy": "default-src 'self'; "
            "script-src 'unsafe-inline'; style-src 'unsafe-inline'"})

    async def state(self, request: web.Request) -> web.Response:
        self._director(request)
        return web.json_response(self.board.snapshot(), headers=HEADERS)

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The board for the page (server-sent events): whole once, then what changed (stream.py);
        refused with 503 and words the page shows when too many pages follow already."""
        self._director(request)
        stream = self.feed.open()
        if stream is None:
            self.log(f"a director's page was refused: {self.feed.max_streams} live views open")
            refused = web.Response(status=503, text=TOO_MANY.format(n=self.feed.max_streams),
                                   headers={**HEADERS, "Retry-After": "10"})
            refused.force_close()  # its connection is not kept: it would hold a slot
            return refused
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream"})
        try:
            await response.prepare(request)
            await self.feed.send(stream, response.write)
        finally:
            self.feed.close(stream)
        return response

    async def _watch_tsh(self) -> None:
        """tsh's file read again when it changes (off the event loop): names, or its warning."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(TSH_EVERY)
            if await loop.run_in_executor(None, self.tsh.refresh):
                self.board.version += 1
                self._notify()

    async def _start(self, _app: web.Application) -> None:
        self._tasks = [asyncio.create_task(self.feed.run())]
        if self.tsh:
            self._tasks.append(asyncio.create_task(self._watch_tsh()))

    async def _stop(self, _app: web.Application) -> None:
        for task in self._tasks:
            task.cancel()

    def make_app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        app.on_startup.append(self._start)
        app.on_cleanup.append(self._stop)
        app.router.add_post("/api/rows", self.rows)
        app.router.add_post("/api/heartbeat", self.heartbeat)
        app.router.add_get("/", self.page)
        app.router.add_get("/state", self.state)
        app.router.add_get("/events", self.events)
        app.router.add_get("/favicon.ico", _no_icon)
        return app


async def _no_icon(_request: web.Request) -> web.Response:
    return web.Response(status=204)
