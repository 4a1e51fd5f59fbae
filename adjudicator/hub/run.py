"""Running the hub: listen, cap and time out connections, log in one line, until stopped.

Held against a hostile or merely crowded venue network as `adjudicator serve` is (net/guard.py,
net/logs.py): the file limit raised as far as the system lets, at most MAX_CONNECTIONS at once
(fewer when the file limit is low), a connection that has not sent its whole request head within
FIRST_REQUEST seconds closed (the oldest such one first when the cap is reached, so a station or
the director always gets in), an idle keep-alive connection closed after IDLE seconds, a request
body still trickling in after BODY seconds cut; a connection without the station token or the
director's key closed once answered (no keep-alive crowd), at most PER_ADDRESS of them idle or
silent from one address, and RESERVE places kept for connections with a token (a crowd without
it is evicted, idle ones first, to make way), and every repeated complaint said once with a
count instead of a traceback each. Stations reach it over TLS with the hub's own certificate
(certificate.py), the director's browser over plain HTTP on 127.0.0.1 (director_gate.py).
SIGTERM and SIGHUP (a shutdown, a closed terminal) stop it as Ctrl-C does: every connection
closed, the journal closed, one line said.
"""

from __future__ import annotations

import asyncio
import sys

from aiohttp import web

from adjudicator.errors import AdjudicatorError
from adjudicator.net.guard import ConnectionGuard, raise_file_limit
from adjudicator.net.logs import OneLineLog, loop_exception_handler, route_library_logs
from adjudicator.net.stopping import on_stop_signals
from adjudicator.hub.certificate import ensure as ensure_certificate
from adjudicator.hub.director_gate import director_gate
from adjudicator.hub.event_routes import load_event
from adjudicator.hub.server import Hub

MAX_CONNECTIONS = 600  # stations, the director's pages and their event streams
PER_ADDRESS = 16  # idle or silent connections without the token one address may hold
RESERVE = 100  # connections kept for requests with the station token or the director's key
SPARE_FILES = 200  # files kept for the journal, tsh's file, and accepting in bursts
FIRST_REQUEST = 10.0  # seconds a new connection has to send its request head
IDLE = 10.0  # seconds an idle keep-alive connection is kept
BODY = 20.0  # seconds a request body may take to arrive
BACKLOG = 128


def connection_cap(wanted: int = MAX_CONNECTIONS) -> int:
    """WANTED connections, or fewer when the open-file limit cannot be raised that far."""
    soft = raise_file_limit(wanted + SPARE_FILES + BACKLOG)
    return max(16, min(wanted, soft - SPARE_FILES - BACKLOG))


class _TLSSite(web.TCPSite):
    """The stations' listener: TLS, a handshake not done within HANDSHAKE seconds closed (the
    connection guard sees a connection only once its handshake is done)."""

    def __init__(self, *args, handshake: float, **kwargs):
        super().__init__(*args, **kwargs)
        self._handshake = handshake

    async def start(self) -> None:
        await web.BaseSite.start(self)
        self._server = await asyncio.get_running_loop().create_server(
            self._runner.server, self._host, self._port, ssl=self._ssl_context,
            backlog=self._backlog, ssl_handshake_timeout=self._handshake)


def slow_body_guard(log, seconds: float = BODY):
    """Middleware: a request whose body is still arriving after SECONDS is cut (its handler,
    waiting for it, is cancelled); one that has arrived is never cut, however long it takes."""
    @web.middleware
    async def guard(request: web.Request, handler):
        if not request.body_exists:
            return await handler(request)

        def cut() -> None:
            if not request.content.is_eof() and request.transport is not None:
                log("a request body was still arriving after "
                    f"{seconds:.0f} s: its connection was closed")
                request.transport.abort()
        timer = asyncio.get_running_loop().call_later(seconds, cut)
        try:
            return await handler(request)
        finally:
            timer.cancel()
    return guard


async def serve(journal_path: str, host: str, port: int, ready=None, tsh: str = "",
                log: OneLineLog | None = None, max_connections: int = MAX_CONNECTIONS,
                first_request: float = FIRST_REQUEST, idle: float = IDLE, body: float = BODY,
                per_address: int = PER_ADDRESS, reserve: int = RESERVE, event=None,
                lists: dict[str, str] | None = None, config_path: str = "",
                tables_from_tsh: frozenset[str] = frozenset(), director_port: int = 0,
                director_from_anywhere: bool = False) -> int | None:
    """Serve until cancelled or a stop signal (SIGINT, SIGTERM, SIGHUP), which it returns;
    READY(hub, bound port) is called once listening. TSH: tsh's tourney.js, for the players'
    names at each table. EVENT, LISTS, CONFIG_PATH: hub.toml's event with its lists pinned
    (event_setup.pin_lists) and the file the director's panel saves it to; TABLES_FROM_TSH:
    the divisions whose tables came from tsh. LOG: one-line messages (stderr); the caps and
    timeouts are the module's unless given (tests). HOST:PORT is served over TLS with the
    hub's certificate (hub.certificate: made beside the journal at the first start), and
    127.0.0.1:DIRECTOR_PORT in clear for the director's browser (hub.director_port: the port
    bound); the director's routes answer other machines only with DIRECTOR_FROM_ANYWHERE."""
    log = log or OneLineLog(sys.stderr)
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(loop_exception_handler(log))
    route_library_logs(log)
    cap = connection_cap(max_connections)
    hub = Hub(journal_path, tsh=tsh)  # the journal first: its folder's errors are said first
    try:
        certificate = ensure_certificate(journal_path)
    except BaseException:
        hub.close()
        raise
    hub.log = log
    hub.certificate, hub.director_from_anywhere = certificate, director_from_anywhere
    load_event(hub, event, lists or {}, config_path, tables_from_tsh)
    app = hub.make_app()
    guard = ConnectionGuard(None, cap, first_request, log, trusted=hub.holds_a_token,
                            per_address=per_address, reserve=min(reserve, cap // 6))
    app.middlewares.append(guard.middleware)
    app.middlewares.append(slow_body_guard(log, body))
    app.middlewares.append(director_gate(hub, director_from_anywhere))
    runner = web.AppRunner(app, access_log=None, handler_cancellation=True,
                           shutdown_timeout=1.0, keepalive_timeout=idle, handle_signals=False,
                           lingering_time=0)  # a body not read (no token): the connection closed
    await runner.setup()
    guard.attach(runner.server)
    site = _TLSSite(runner, host, port, backlog=BACKLOG, handshake=first_request,
                    ssl_context=certificate.server_context())
    local = web.TCPSite(runner, "127.0.0.1", director_port, backlog=BACKLOG)
    stopped = loop.create_future()  # the stop signal's number
    undo_signals = on_stop_signals(loop, lambda s: stopped.done() or stopped.set_result(s))
    try:
        try:
            await site.start()
        except OSError as e:
            raise AdjudicatorError(f"cannot listen on {host}:{port}: {e.strerror or e} "
                                   "(another program there? try another --port)") from None
        tls = list(runner.addresses)
        bound = tls[0][1] if tls else port
        try:
            await local.start()
        except OSError as e:
            raise AdjudicatorError(f"cannot listen on 127.0.0.1:{director_port} for the "
                                   f"director's page: {e.strerror or e} (another program "
                                   "there? try another --director-port)") from None
        hub.director_port = next((a[1] for a in runner.addresses if a not in tls),
                                 director_port)
        if ready is not None:
            ready(hub, bound)
        while not stopped.done():
            await asyncio.wait([stopped], timeout=1.0)
            log.flush()  # a complaint repeated in the last 30 s: said once, with its count
        return stopped.result()
    finally:
        undo_signals()
        await runner.cleanup()
        hub.close()
