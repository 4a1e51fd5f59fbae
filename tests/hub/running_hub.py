"""A hub served on a thread of this process (serve() on its own event loop): tests, pictures."""

from __future__ import annotations

import asyncio
import threading


class RunningHub:
    """`serve()` on its own event loop thread; stop() ends it as Ctrl-C would (cancelled).
    url: the stations' address (TLS, as in production), pin: its certificate's SHA-256, trusted
    by every sender of this process as `adjudicator join` makes a station trust it; port: that
    listener's; local_port: the listener in clear on 127.0.0.1 (the director's browser; the
    raw-socket tests of the connection guard, which both listeners share)."""

    def __init__(self, journal_path: str, port: int = 0, accept_new: bool = True, **options):
        """OPTIONS: run.serve()'s (log, max_connections, first_request...). ACCEPT_NEW: every
        station key is accepted at first contact, as if the director pressed Accept (the tests
        of forwarding, restarts and the page; tests of identity and waiting pass False)."""
        self.journal_path = journal_path
        self.accept_new = accept_new
        self.options = options
        self.hub = None
        self.port = port
        self.local_port = 0
        self.pin = ""
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._task = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._ready.wait(20):
            raise RuntimeError("the hub did not start")
        from adjudicator.link import pins

        pins.trust(self.url, self.pin)  # as the join line would: its certificate only

    def _run(self) -> None:
        from adjudicator.hub.run import serve

        def ready(hub, bound):
            hub.identities.accept_new = self.accept_new
            self.hub, self.port = hub, bound
            self.local_port, self.pin = hub.director_port, hub.certificate.fingerprint
            self._ready.set()

        asyncio.set_event_loop(self._loop)
        self._task = self._loop.create_task(serve(self.journal_path, "127.0.0.1", self.port,
                                                  ready, **self.options))
        try:
            self._loop.run_until_complete(self._task)
        except (asyncio.CancelledError, Exception):  # noqa: BLE001 - stopped
            pass
        finally:
            self._loop.close()

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    @property
    def join_url(self) -> str:
        """The join line the hub prints: its code and its certificate's SHA-256."""
        return f"{self.url}/join?code={self.hub.join_code}#sha256={self.pin}"

    @property
    def local_url(self) -> str:
        return f"http://127.0.0.1:{self.local_port}"

    def call(self, fn, *args):
        """Run FN(*args) on the hub's loop and return its result (for the board)."""
        done = threading.Event()
        box = {}

        def run():
            box["v"] = fn(*args)
            done.set()
        self._loop.call_soon_threadsafe(run)
        done.wait(10)
        return box.get("v")

    def stop(self) -> None:
        if self._task is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._task.cancel)
        self._thread.join(10)
