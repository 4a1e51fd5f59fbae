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
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote

from aiohttp import web

from adjudicator import wire
from adjudicator.errors import AdjudicatorError
from adjudicator.event.setup import Event, to_dict
from adjudicator.event.history import EventHistory
from adjudicator.net.logs import OneLineLog
from adjudicator.text.visible import visible
from adjudicator.hub import event_routes, page_routes, station_routes
from adjudicator.hub.audit import Audit
from adjudicator.hub.board import Board
from adjudicator.hub.handled import Handled
from adjudicator.hub.identity import MAX_NEW_ROWS, Identities
from adjudicator.hub.hub_journal import HubJournal
from adjudicator.hub.refusals import Claimed, Full, RequestRefused, RowsRefused
from adjudicator.hub.stamps import Stamps
from adjudicator.hub.station_routes import HEADERS
from adjudicator.hub.station_routes import printable as _printable
from adjudicator.hub.stream import TOO_MANY, Feed

TSH_EVERY = 1.0  # seconds between looks at tsh's file
MAX_BODY = 2 * 1024 * 1024  # a batch of wire.MAX_BATCH rows fits; without the token: none read
FORBIDDEN = ("This page is for the tournament director: open the address `adjudicator hub` "
             "printed, with its key.\n")


def _same(given: str | None, expected: str) -> bool:
    return bool(given) and hmac.compare_digest(given.encode("utf-8", "replace"),
                                               expected.encode("ascii"))


class Hub:
    """The hub's state and its aiohttp application (make_app); run() serves it."""

    event: Event | None = None  # the event (issue 27): in every answer to an accepted station

    def __init__(self, journal_path: str, board: Board | None = None, tsh: str = ""):
        self.log = OneLineLog(sys.stderr)  # run.py's, when served
        self.ledger = HubJournal(journal_path)
        self.station_token, self.director_token = self.ledger.tokens()
        self.join_code = self.ledger.join_code()  # `adjudicator join`'s address holds it
        # the event (hub.toml's [event] and [[division]], lists pinned: event_routes.load_event),
        # the compiled file of each list it names, the lists the director's panel offers
        self.event: Event | None = None
        self.event_lists: dict[str, str] = {}
        self.offered: dict[str, tuple[str, str]] = {}
        self.config_path = ""
        self.tables_from_tsh: frozenset[str] = frozenset()  # divisions given tables by tsh
        self.event_lock = asyncio.Lock()  # the director's changes of the event, one at a time
        self.certificate = None  # run.py: the TLS certificate (certificate.Certificate) served
        self.director_port = 0  # run.py: the director's page's port on 127.0.0.1
        self.tsh = None
        if tsh:
            from adjudicator.hub.tsh import TshNames

            self.tsh = TshNames(tsh)
        self.board = board or Board(names=self.tsh and self.tsh.at,
                                    names_warning=self.tsh and self.tsh.warning)
        self.board.event_of = lambda: self.event  # its alarms replace the majority vote
        self.board.history = EventHistory.from_changes(self.ledger.event_changes())
        self.audit = Audit(self._history, self.list_path)  # every row judged again (audit.py)
        self.identities = Identities(*self.ledger.keys())
        self.board.waiting.accepted_names = self.identities.accepted_names
        self.board.bound_name = self.identities.name_of
        self.board.handled = Handled(self.ledger.handled(), self.board.clock, self._unmark)
        self.stamps = Stamps(self.director_token)
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="hub-journal")
        self.feed = Feed(self.board.snapshot)
        self._tasks: list[asyncio.Task] = []
        # keys whose rows accept_station adds to the board: with the batches stored meanwhile
        self._accepting: dict[str, list[tuple[str, list[dict]]]] = {}
        self._restore()

    def _restore(self) -> None:
        """The board after a restart: every row held, each station's acknowledged sequence."""
        ids = self.identities
        keys = {k.journal_id: k for group in (ids.keys, ids.rejected, ids.dropped)
                for k in group.values() if k.journal_id}
        self.board.restore(self.ledger.all_rows(), self.ledger.acked(), keys)

    def _history(self) -> EventHistory:
        """The event's versions, the one in force now among them (the audit's window)."""
        self.board.history.note(self.event, self.board.wall())
        return self.board.history

    def list_path(self, fingerprint: str) -> str | None:
        """The compiled file of a list the hub holds by its FINGERPRINT (the event's, or one the
        director's panel offers); None when it holds none."""
        found = self.event_lists.get(fingerprint)
        if found is None:
            found = next((path for fp, path in self.offered.values() if fp == fingerprint), None)
        return found

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        self.ledger.close()

    def _notify(self) -> None:
        self.feed.changed()

    def _unmark(self, group: str) -> None:
        """A handled mark whose alarm ended or came back: out of the journal too."""
        try:
            self._writer.submit(self.ledger.mark_handled, group, None)
        except RuntimeError:  # the hub is closing: the mark is dropped at the next start
            pass

    # -- stations --------------------------------------------------------------------------

    def _answer(self, body: dict, status: int = 200) -> web.Response:
        """An answer to a station: with a fresh stamp to sign its next request with."""
        return web.json_response({**body, "stamp": self.stamps.issue()}, status=status)

    def _event(self, key) -> dict:
        """For an accepted station's answer (a station not accepted takes no part): the event,
        and the name the director gave it (it takes a new one at its next Ready: follow.py)."""
        if not key.accepted:
            return {}
        name = self.identities.name_of(key.key_id)
        event = self.event
        return {**({"event": to_dict(event)} if event is not None else {}),
                **({wire.GIVEN_NAME: name} if name else {})}

    def _refused(self, request: web.Request, status: int, why: str, alarm: str = "",
                 name: str = "", key: str = "", kind: str = "", **extra) -> web.Response:
        """A station's request refused: one log line (repeats counted), the alarm on the page
        (one per sender and kind, counted), the reason in the answer (the station shows it)."""
        address = request.remote or "?"
        if extra.get("register") or (status == 401 and not alarm):
            # the hub asks a station for its key, or to sign with its stamp: no one's fault
            return self._answer({"error": why, **extra}, status)
        self.log(f"refused {request.path} from {address}"
                       + (f" ({_printable(name)})" if name else "") + f": {why}")
        if alarm:
            self.board.intruder(address, name, alarm, key, kind)
            self._notify()
        return self._answer({"error": why, **extra}, status)

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
        name = visible(unquote(request.headers.get(wire.NAME, ""))[:60])
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
        try:
            return await self._checked(request, data, check)
        finally:
            await self._evicted()

    async def _evicted(self) -> None:
        """Waiting stations dropped to make room (waiting.py): off the page, kept so."""
        ids = self.identities
        while ids.evicted:
            gone = ids.evicted.pop()
            self.board.forget(gone.key_id)
            self.log(f"a waiting station made room for another: {_printable(gone.name)[:60]} "
                     f"(from {gone.address})")
            if gone.stored:
                await asyncio.get_running_loop().run_in_executor(
                    self._writer, self.ledger.set_state, gone)
            self._notify()

    async def _checked(self, request: web.Request, data: bytes, check):
        name = ""
        try:
            body = check(wire.decode(data))
            name = str(body.get("station") or "")[:60]
            key = self.identities.identify(request.headers, request.path, data, body,
                                           request.remote or "?", self.stamps)
            if isinstance(body.get("rows"), list):
                self.identities.check_rows(key, body["journal_id"], body["rows"])
        except wire.WireError as e:
            return None, self._refused(request, 400, f"not a station's message: {e}",
                                       f"a message no station sends ({e})"[:200], name,
                                       kind="a message no station sends")
        except RequestRefused as e:
            extra = {"register": True} if e.register else {}
            return None, self._refused(request, e.status, e.why, e.alarm, name, e.key_id,
                                       e.kind, **extra)
        return (body, key), None

    async def rows(self, request: web.Request) -> web.Response:
        message, refused = await self._message(request, wire.check_rows_body)
        if refused is not None:
            return refused
        body, key = message
        loop = asyncio.get_running_loop()
        try:  # the cap for a waiting station is checked in the writer's transaction
            acked, added = await loop.run_in_executor(
                self._writer, self.ledger.accept, body["journal_id"], body["rows"],
                str(body.get("station") or ""), key, None if key.accepted else MAX_NEW_ROWS,
                self.audit.check, lambda station, seq: self.identities.row_name(key, station,
                                                                                  seq))
        except Full as e:  # no alarm: the waiting panel shows it holds its most rows
            return self._answer({"error": str(e), "acked": self.board.waiting.acked(
                key.key_id)}, 429)
        except Claimed as e:
            return self._refused(request, 409, str(e), f"another key: {e}"[:200], key.name,
                                 kind="another key")
        except RowsRefused as e:
            self.board.refuse(body["journal_id"], str(body.get("station") or ""), str(e),
                              key=key)
            self._notify()
            return self._refused(request, 422, str(e), name=key.name)
        except AdjudicatorError as e:
            return web.json_response({"error": str(e)}, status=503)
        if added:
            self.identities.stored(key, body["journal_id"], {r["station"] for r in added})
        meanwhile = self._accepting.get(key.key_id)
        if meanwhile is None:
            self.board.add_rows(body["journal_id"], added, acked, key=key)
        else:  # the director is accepting it: added with the rows accept_station reads
            meanwhile.append((body["journal_id"], added))
        self._notify()
        return self._answer({"acked": acked, "known": True, **self._event(key)})

    async def heartbeat(self, request: web.Request) -> web.Response:
        message, refused = await self._message(request, wire.check_heartbeat)
        if refused is not None:
            return refused
        body, key = message
        lists = body.get(wire.LISTS)
        served = ([e["division"] for e in lists] if isinstance(lists, list)
                  else str(body.get("divisions") or "").split(","))
        self.audit.heard(body["journal_id"], body.get("last_seq"), served)
        acked = self.board.heartbeat(body["journal_id"], body, key=key)
        self._notify()
        return self._answer({"acked": acked, "known": True, **self._event(key)})

    # -- the director ------------------------------------------------------------------------

    def _director(self, request: web.Request) -> None:
        if not _same(request.query.get("key"), self.director_token):
            raise web.HTTPForbidden(text=FORBIDDEN, headers=HEADERS)

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
        from adjudicator.hub.tsh import refreshed

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
        app.router.add_get("/state", self.state)
        app.router.add_get("/events", self.events)
        app.router.add_get("/favicon.ico", _no_icon)
        page_routes.add_routes(app, self)
        event_routes.add_routes(app, self)
        station_routes.add_routes(app, self)
        return app


async def _no_icon(_request: web.Request) -> web.Response:
    return web.Response(status=204)
