"""Running the phone server: listen, announce the URL and QR code, cap connections, and stop
cleanly on SIGTERM, SIGHUP or SIGINT (no process is ever started, so none is left behind)."""

from __future__ import annotations

import asyncio
import sys
from typing import TextIO

from aiohttp import web

from adjudicator.errors import AdjudicatorError
from adjudicator.net.announce import base_url, print_url, token_url
from adjudicator.net.guard import ConnectionGuard, raise_file_limit
from adjudicator.net.logs import loop_exception_handler, route_library_logs
from adjudicator.net.stopping import on_stop_signals
from adjudicator.text.visible import visible
from adjudicator.phone.server import PhoneApp


class PhoneServer:
    """PhoneApp served on HOST:PORT until a stop signal (or STOP) arrives."""

    def __init__(self, app: PhoneApp, *, host: str = "127.0.0.1", port: int = 8000,
                 out: TextIO | None = None, on_stop=None, routes=()):
        """ROUTES: another surface's aiohttp routes served beside the page, behind the token."""
        self.app = app
        self.host, self.port = host, port
        self.out = out or sys.stdout
        self.on_stop = on_stop
        self.routes = tuple(routes)
        self.bound_port: int | None = None
        self.base = ""
        self.stopped_by: int | None = None  # the signal that stopped it (SIGINT: exit 130)

    def serve(self) -> None:
        asyncio.run(self.run())

    async def run(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(loop_exception_handler(self.app.log))
        route_library_logs(self.app.log)
        limits = self.app.limits
        raise_file_limit(limits.max_connections + 256)
        runner = web.AppRunner(self.app.make_app(self.routes), access_log=None,
                               handle_signals=False, keepalive_timeout=limits.idle_timeout,
                               shutdown_timeout=3.0)
        await runner.setup()
        ConnectionGuard(runner.server, limits.max_connections, limits.idle_timeout, self.app.log)
        site = web.TCPSite(runner, self.host, self.port, backlog=512)
        try:
            await site.start()
        except OSError as e:
            await runner.cleanup()
            raise AdjudicatorError(f"cannot listen on {self.host}:{self.port}: "
                                   f"{e.strerror or e}") from e
        self.bound_port = site.port
        self.base = base_url(self.host, self.bound_port)
        self.app.tokens.record_base(self.base)
        undo_signals = on_stop_signals(loop, lambda sig: self._stop(sig, stop))
        for line in self.app.setup:  # the event, its lists, the journal and the hub, first
            self.out.write(visible(line) + "\n")
        self._announce(self.app.tokens.current(), "Smart-device word judge: open this on a "
                       "phone or tablet, or scan the code:")
        if self.host in ("127.0.0.1", "localhost", "::1"):
            self.out.write("(Only this computer can connect. For the venue network start with "
                           "--host 0.0.0.0)\n")
        self.out.write(f"Up to {limits.max_phones} phones. Press Ctrl+C to stop.\n")
        self.out.flush()
        watcher = asyncio.create_task(self._watch_token(stop))
        try:
            await stop.wait()
        finally:
            watcher.cancel()
            undo_signals()
            await runner.cleanup()
            self.app.close()
            if self.on_stop is not None:
                self.on_stop()
            self.app.log("stopped: every phone page was closed")

    def _stop(self, sig: int, stop: asyncio.Event) -> None:
        self.stopped_by = sig
        stop.set()

    async def _watch_token(self, stop: asyncio.Event) -> None:
        """Show the new URL and code here as soon as `serve --rotate-token` rewrites the file."""
        last = self.app.tokens.current()
        while not stop.is_set():
            await asyncio.sleep(1.0)
            self.app.log.flush()  # a line repeated in the last 30 s: said once, with its count
            now = self.app.tokens.current()
            if now != last:
                last = now
                self._announce(now, "Token rotated: old links no longer open the judge. New link:")

    def _announce(self, token: str | None, heading: str) -> None:
        if token is None:
            self.out.write(f"No token in {self.app.tokens.path}: every request is refused. "
                           "Run `adjudicator serve --rotate-token` to make one.\n")
            self.out.flush()
            return
        print_url(token_url(self.base, token), self.out, heading=heading)
