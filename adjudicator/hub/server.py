"""The hub: one aiohttp process taking every station's rows and heartbeats, serving the director.

Stations POST to /api/rows and /api/heartbeat with the station token (Authorization: Bearer);
the director opens /?key=DIRECTOR_TOKEN, whose page follows /events (server-sent events). The
two tokens never open each other's doors: a station token shows no page, a director's link
sends no rows. Every journal write runs on one worker thread, in arrival order.
"""

from __future__ import annotations

import asyncio
import hmac
import sys
from urllib.parse import unquote
from concurrent.futures import ThreadPoolExecutor
from importlib import resources

from aiohttp import web

from .. import wire
from ..errors import AdjudicatorError
from ..net.logs import OneLineLog
from .board import Board
from .identity import MAX_NEW_ROWS, Identities, Refusal
from .ledger import Claimed, HubJournal, Refused
from .stream import TOO_MANY, Feed

TSH_EVERY = 1.0  # seconds between looks at tsh's file
MAX_BODY = 2 * 1024 * 1024  # a batch of wire.MAX_BATCH rows fits; without the token: none read
FORBIDDEN = ("This page is for the tournament director: open the address `adjudicator hub` "
             "printed, with its key.\n")
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else "?" for c in text)


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
        self.identities = Identities(*self.ledger.keys())
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="hub-journal")
        self.feed = Feed(self.board.snapshot)
        self._tasks: list[asyncio.Task] = []
        self._restore()

    def _restore(self) -> None:
        """The board after a restart: every row held, each station's acknowledged sequence."""
        keys = {k.journal_id: k for k in self.identities.keys.values() if k.journal_id}
        self.board.restore(self.ledger.all_rows(), self.ledger.acked(), keys)

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        self.ledger.close()

    def _notify(self) -> None:
        self.feed.changed()

    # -- stations --------------------------------------------------------------------------

    def _refused(self, request: web.Request, status: int, why: str, alarm: str = "",
                 name: str = "", key: str = "", **extra) -> web.Response:
        """A station's request refused: one log line (repeats counted), the alarm on the page,
        the reason in the answer (the station shows it)."""
        address = request.remote or "?"
        if extra.get("register"):  # the hub asks a station for its key: no one's fault
            return web.json_response({"error": why, **extra}, status=status)
        self.log(f"refused {request.path} from {address}"
                       + (f" ({name})" if name else "") + f": {why}")
        if alarm:
            self.board.intruder(address, name, alarm, key)
            self._notify()
        return web.json_response({"error": why, **extra}, status=status)

    def holds_a_token(self, request: web.BaseRequest) -> bool:
        """The station token or the director's key (run.py's connection guard keeps room for
        these, and closes any other connection once answered)."""
        auth = request.headers.get("Authorization", "")
        return (_same(auth.removeprefix("Bearer ").strip(), self.station_token)
                or _same(request.query.get("key"), self.director_token))

    def _station(self, request: web.Request) -> web.Response | None:
        """A refusal for a request without the station token (its body is never read)."""
        auth = request.headers.get("Authorization", "")
        if _same(auth.removeprefix("Bearer ").strip(), self.station_token):
            if (request.content_length or 0) > MAX_BODY:
                return self._refused(request, 413, "a message longer than a station sends")
            return None
        name = _printable(unquote(request.headers.get(wire.NAME, "")))[:60]
        self.board.wrong_token(request.remote or "?", name)
        self._notify()
        self.log(f"wrong hub_token from {request.remote or '?'}")
        return web.json_response({"error": "wrong hub_token: paste the line `adjudicator hub` "
                                  "printed"}, status=403)

    async def _message(self, request: web.Request, check):
        """(body, its station key) once the token, the JSON, every field (wire.py) and the
        signature hold; else the refusal to answer with."""
        refused = self._station(request)
        if refused is not None:
            return None, refused
        for gone in self.identities.forget_old():  # keys that never sent a row, long quiet
            self.board.forget(gone.key_id)
        data = await request.read()
        name = ""
        try:
            body = check(wire.decode(data))
            name = str(body.get("station") or "")[:60]
            key = self.identities.identify(request.headers, request.path, data, body,
                                           request.remote or "?")
            if isinstance(body.get("rows"), list):
                self.identities.check_rows(key, body["journal_id"], body["rows"])
        except wire.WireError as e:
            return None, self._refused(request, 400, f"not a station's message: {e}",
                                       f"a message no station sends ({e})"[:200], name)
        except Refusal as e:
            extra = {"register": True} if e.register else {}
            return None, self._refused(request, e.status, e.why, e.alarm, name, e.key_id,
                                       **extra)
        return (body, key), None

    async def rows(self, request: web.Request) -> web.Response:
        message, refused = await self._message(request, wire.check_rows_body)
        if refused is not None:
            return refused
        body, key = message
        held = self.board.stations.get(body["journal_id"])
        if (not key.accepted and held is not None and held.acked >= MAX_NEW_ROWS
                and any(r["seq"] > held.acked for r in body["rows"])):
            return self._refused(request, 429, f"a new station holds {MAX_NEW_ROWS} rows at "
                                 "most until the director accepts it", f"a new station "
                                 f"sends more than {MAX_NEW_ROWS} rows", key.name)
        loop = asyncio.get_running_loop()
        try:
            acked, added = await loop.run_in_executor(
                self._writer, self.ledger.accept, body["journal_id"], body["rows"],
                str(body.get("station") or ""), key)
        except Claimed as e:
            return self._refused(request, 409, str(e), f"another key: {e}"[:200], key.name)
        except Refused as e:
            self.board.refuse(body["journal_id"], str(body.get("station") or ""), str(e),
                              key=key)
            self._notify()
            return self._refused(request, 422, str(e), name=key.name)
        except AdjudicatorError as e:
            return web.json_response({"error": str(e)}, status=503)
        if added:
            self.identities.stored(key, body["journal_id"], {r["station"] for r in added})
        self.board.add_rows(body["journal_id"], added, acked, key=key)
        self._notify()
        return web.json_response({"acked": acked, "known": True})

    async def heartbeat(self, request: web.Request) -> web.Response:
        message, refused = await self._message(request, wire.check_heartbeat)
        if refused is not None:
            return refused
        body, key = message
        self.board.heartbeat(body["journal_id"], body, key=key)
        self._notify()
        return web.json_response({"acked": self.board.station(body["journal_id"]).acked,
                                  "known": True})

    async def accept_station(self, request: web.Request) -> web.Response:
        """The director accepts a new station (POST with the director's key): no longer new."""
        self._director(request)
        try:
            said = wire.decode(await request.content.read(1024))
            key_id = said["station"] if isinstance(said, dict) else None
        except (wire.WireError, KeyError):
            key_id = None
        known = self.identities.accept(key_id) if type(key_id) is str else None  # noqa: E721
        if known is None:
            return web.json_response({"error": "no such new station"}, status=404,
                                     headers=HEADERS)
        known.stored = True  # the director vouched for it: kept, even before its first row
        takes, known.takes = known.takes, ""
        await asyncio.get_running_loop().run_in_executor(self._writer, self.ledger.keep_key,
                                                         known, takes)
        self.board.accepted(known.key_id)
        self._notify()
        return web.json_response({"accepted": known.key_id}, headers=HEADERS)

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
        """tsh's file read again when it changes (on a thread of its own, which a stop does not
        wait for): names, or its warning. Nothing the file holds ends this watch."""
        from .tsh import refreshed

        while True:
            await asyncio.sleep(TSH_EVERY)
            try:
                changed = await refreshed(self.tsh)
            except Exception as e:  # noqa: BLE001 - never seen; said, and the watch goes on
                self.log(f"tsh's file could not be looked at: {type(e).__name__}")
                continue
            if changed:
                self.board.version += 1
                self._notify()

    async def _start(self, _app: web.Application) -> None:
        self._tasks = [asyncio.create_task(self.feed.run())]
        if self.tsh:
            self._tasks.append(asyncio.create_task(self._watch_tsh()))

    async def _stop(self, _app: web.Application) -> None:
        if self.tsh:
            self.tsh.stopping.set()  # a reading under way ends now
        for task in self._tasks:
            task.cancel()

    def make_app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        app.on_startup.append(self._start)
        app.on_cleanup.append(self._stop)
        app.router.add_post("/api/rows", self.rows)
        app.router.add_post("/api/heartbeat", self.heartbeat)
        app.router.add_post("/api/accept", self.accept_station)
        app.router.add_get("/", self.page)
        app.router.add_get("/state", self.state)
        app.router.add_get("/events", self.events)
        app.router.add_get("/favicon.ico", _no_icon)
        return app


async def _no_icon(_request: web.Request) -> web.Response:
    return web.Response(status=204)
