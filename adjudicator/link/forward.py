"""The live station's sender thread: the Sender (sender.py) run off the verdict path, one a journal.

A Forwarder runs on its own daemon thread: a hub that is down, slow or unreachable costs a
verdict nothing. Its loop is started again (and counted, for the heartbeat) if it ever fails;
a refusal is asked again slowly. forward_journal keeps one running Forwarder per journal in
this process (many phone sessions share a journal). The HTTP client is hubclient.py.
"""

from __future__ import annotations

import threading
import time

from adjudicator.errors import AdjudicatorError
from adjudicator.journal import outbox
from adjudicator.link import pins
from adjudicator.link.hubclient import HubRefused, _printable
from adjudicator.link.sender import Sender, Status

RETRY_MAX = 2.0  # longest pause after a failed link (the hub may be back at once)
REFUSED_MAX = 30.0  # longest pause after the hub refused (4xx): no tight loop, still retried


class Forwarder(Sender):
    """A Sender with its own thread: start() for a live station (push() once works too)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._rows_after = 0.0  # monotonic time before which no rows are sent (a refusal)
        self._rows_pause = 0.0  # the pause after the last refusal of rows

    def start(self) -> Forwarder:
        self._thread = threading.Thread(target=self._run, name="hub-forwarder", daemon=True)
        self._thread.start()
        return self

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def ensure_running(self) -> bool:
        """Start the thread again if it ended without being stopped; True when it had to."""
        if self._thread is None or self._stop.is_set() or self._thread.is_alive():
            return False
        self.restarts += 1
        self.died = self.died or "the sender's thread ended"
        self.start()
        return True

    def wake(self) -> None:
        """A row was recorded: look at the outbox now instead of at the next poll (and start
        the thread again if it ended). Never raises: it runs on the verdict's path."""
        try:
            self.ensure_running()
        except Exception as e:  # noqa: BLE001 - e.g. no thread can be started now
            self.problem = f"the sender could not be started again ({type(e).__name__})"
        self._wake.set()

    def stop(self, wait: float = 1.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(wait)
        if self._conn is not None and (self._thread is None or not self._thread.is_alive()):
            self._conn.close()
            self._conn = None

    def _run(self) -> None:
        """The thread: the loop, started again (and counted, for the heartbeat) if it fails."""
        while not self._stop.is_set():
            try:
                self._loop()
            except BaseException as e:  # noqa: BLE001 - the sender never dies (issue 20)
                self.restarts += 1
                try:
                    self.died = f"{type(e).__name__}: {_printable(e)}"[:200]
                except Exception:  # noqa: BLE001 - an exception whose str() fails
                    self.died = type(e).__name__
                self.problem = f"the sender failed and was started again ({self.died})"
                conn, self._conn = self._conn, None  # a fresh one: the old may be what failed
                if conn is not None:
                    conn.close()
                self._stop.wait(1.0)
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _loop(self) -> None:
        pause = self.poll
        while not self._stop.is_set():
            try:
                conn = self._connection()
                if self.acked is None or time.monotonic() - self._last_beat >= self.heartbeat_every:
                    self.beat(conn)
                rows = []
                if time.monotonic() >= self._rows_after:
                    rows = outbox.pending(conn, self.acked or 0, self.batch)
                if rows:
                    self._send(conn, rows)
                    self._rows_pause = 0.0
                self.problem, pause = "", self.poll
                if rows and self.acked >= rows[-1]["seq"]:
                    continue  # more may be waiting: no pause while draining
            except HubRefused as e:  # kept on show, and asked again, slowly
                self.problem, self.refused = str(e), e.why or str(e)
                if self._refused_at == "/api/rows" and self.acked is not None:
                    # rows refused: they wait (a station the director has not accepted yet
                    # tries again right after its next heartbeat), the heartbeats keep pace
                    self._rows_pause = (self.heartbeat_every if e.status == 429 else
                                        min(max(self._rows_pause * 2, 1.0), REFUSED_MAX))
                    self._rows_after = time.monotonic() + self._rows_pause
                    pause = max(self.poll, min(self._rows_pause, self._last_beat
                                               + self.heartbeat_every - time.monotonic()))
                    self._wake.wait(pause)
                    self._wake.clear()
                    continue
                self.acked = None
                if e.status == 401 and not self._sent_key:
                    pause = self.poll  # the hub asks for the key: sent with the next request
                elif e.status == 429:
                    pause = self.heartbeat_every  # no room yet: asked again at the beat's pace
                else:
                    pause = min(max(pause * 2, 1.0), REFUSED_MAX)
            except Exception as e:  # noqa: BLE001 - every failure of the link is a retry
                self.problem = str(e) if isinstance(e, AdjudicatorError) else (
                    f"{type(e).__name__}: {_printable(e)}")
                self.acked = None  # ask the hub again: it may have restarted
                pause = min(max(pause * 2, 0.5), RETRY_MAX)
            self._wake.wait(pause)
            self._wake.clear()


_running: dict[str, Forwarder] = {}
_lock = threading.Lock()


def forward_journal(journal_path: str, hub: str, token: str, status: Status | None = None,
                    pin: str = "") -> Forwarder:
    """The one running Forwarder for this journal in this process (many phone sessions share a
    journal); STATUS replaces the previous one's; PIN: the hub's certificate's SHA-256."""
    import os

    pins.trust(hub, pin)

    key = os.path.abspath(journal_path)
    with _lock:
        found = _running.get(key)
        if found is not None and (found.hub, found.token) == (hub.rstrip("/"), token):
            if status is not None:
                found.status = status
            found.ensure_running()
            return found
        if found is not None:
            found.stop(wait=0)
        _running[key] = Forwarder(key, hub, token, status=status).start()
        return _running[key]


def stop_all(wait: float = 1.0) -> None:
    """Stop every running Forwarder (tests; a process that ends lets the daemons go)."""
    with _lock:
        running = list(_running.values())
        _running.clear()
    for forwarder in running:
        forwarder.stop(wait)

