"""The station's sender: the outbox's rows and a heartbeat to the director's hub, off the verdict path.

A Forwarder runs on its own daemon thread with its own SQLite connection and only READS the
journal (the outbox, journal/outbox.py): a hub that is down, slow or unreachable costs a verdict
nothing. It asks the hub which sequence it holds without a gap (every answer carries it), sends
the rows after that in batches, and starts again from the hub's answer after any failure, so a
lost answer, a dropped link, a killed station or a restarted hub never loses or doubles a row.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from urllib.parse import quote

from ..errors import AdjudicatorError
from ..journal import db, outbox

BATCH = 200  # rows a request
POLL = 0.2  # seconds between looks at the outbox while idle
HEARTBEAT = 5.0  # seconds between heartbeats (the hub calls a station silent after 15)
TIMEOUT = 5.0  # seconds one request may take
Status = Callable[[], dict]


class HubUnreachable(AdjudicatorError):
    """The hub did not answer, or refused (its message says why)."""


@dataclass(frozen=True)
class PushReport:
    """What one push did: rows sent now, what the hub holds, the station's last row."""

    sent: int
    acked: int
    head: int

    @property
    def pending(self) -> int:
        return max(0, self.head - self.acked)


def post(hub: str, path: str, token: str, body: dict, timeout: float = TIMEOUT) -> dict:
    """POST BODY as JSON to HUB+PATH with the station token; the JSON answer, or HubUnreachable."""
    data = json.dumps(body, separators=(",", ":")).encode("utf-8")
    request = urllib.request.Request(hub.rstrip("/") + path, data=data, method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        try:
            why = json.loads(e.read().decode("utf-8")).get("error", "")
        except (ValueError, OSError, AttributeError):
            why = ""
        raise HubUnreachable(f"the hub {hub} refused: {why or e.reason} (HTTP {e.code})") from e
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", e)
        raise HubUnreachable(f"the hub {hub} is not reachable: {reason}") from e


class Forwarder:
    """Sends one station journal's outbox to HUB. start() for a live station, push() once."""

    def __init__(self, journal_path: str, hub: str, token: str, *, status: Status | None = None,
                 batch: int = BATCH, poll: float = POLL, heartbeat: float = HEARTBEAT,
                 timeout: float = TIMEOUT):
        self.path, self.hub, self.token = str(journal_path), hub.rstrip("/"), token
        self.status = status or (lambda: {})
        self.batch, self.poll, self.heartbeat_every, self.timeout = batch, poll, heartbeat, timeout
        self.acked: int | None = None  # what the hub holds, as it last said; None: ask again
        self.problem = ""  # the last failure, for the director's screen
        self._conn: sqlite3.Connection | None = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_beat = 0.0

    # -- one pass (also `adjudicator journal push`) ---------------------------------------

    def push(self) -> PushReport:
        """Send a heartbeat, then every pending row; HubUnreachable when the hub cannot be told."""
        conn = self._connection()
        self.beat(conn)
        sent = 0
        while True:
            rows = outbox.pending(conn, self.acked or 0, self.batch)
            if not rows:
                break
            sent += self._send(conn, rows)
            if self.acked < rows[-1]["seq"]:
                break  # the hub held back (a gap it is waiting for): next pass
        return PushReport(sent, self.acked or 0, outbox.identity(conn)[2])

    def beat(self, conn: sqlite3.Connection | None = None) -> None:
        """Tell the hub this station is alive: last seq, lexicon, printer, clock."""
        conn = conn or self._connection()
        journal_id, station, head = outbox.identity(conn)
        body = {"journal_id": journal_id, "station": station, "last_seq": head,
                "clock": datetime.now(timezone.utc).isoformat(timespec="milliseconds")}
        try:
            body.update(self.status())
        except Exception as e:  # noqa: BLE001 - a status that fails must not stop the rows
            body["status_problem"] = str(e)
        answer = post(self.hub, "/api/heartbeat", self.token, body, self.timeout)
        self.acked = int(answer.get("acked", 0))
        self._last_beat = time.monotonic()

    def _send(self, conn, rows: list[dict]) -> int:
        journal_id, station, _ = outbox.identity(conn)
        answer = post(self.hub, "/api/rows", self.token,
                      {"journal_id": journal_id, "station": station, "rows": rows}, self.timeout)
        before = self.acked or 0
        self.acked = int(answer.get("acked", 0))
        return max(0, self.acked - before)

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            rw = db.connect_rw(self.path, timeout=self.timeout)  # the outbox made (or filled)
            try:
                db.retrying(lambda: outbox.enable(rw), self.timeout)
            finally:
                rw.close()
            self._conn = sqlite3.connect(f"file:{quote(self.path)}?mode=ro", uri=True,
                                         timeout=self.timeout, isolation_level=None,
                                         check_same_thread=False)
        return self._conn

    # -- the live station's thread ----------------------------------------------------------

    def start(self) -> Forwarder:
        self._thread = threading.Thread(target=self._run, name="hub-forwarder", daemon=True)
        self._thread.start()
        return self

    def wake(self) -> None:
        """A row was recorded: look at the outbox now instead of at the next poll."""
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
        pause = self.poll
        while not self._stop.is_set():
            try:
                conn = self._connection()
                if self.acked is None or time.monotonic() - self._last_beat >= self.heartbeat_every:
                    self.beat(conn)
                rows = outbox.pending(conn, self.acked, self.batch)
                if rows:
                    self._send(conn, rows)
                self.problem, pause = "", self.poll
                if rows and self.acked >= rows[-1]["seq"]:
                    continue  # more may be waiting: no pause while draining
            except (AdjudicatorError, sqlite3.Error, OSError) as e:
                self.problem = str(e)
                self.acked = None  # ask the hub again: it may have restarted
                pause = min(max(pause * 2, 0.5), 2.0)
            self._wake.wait(pause)
            self._wake.clear()
        if self._conn is not None:
            self._conn.close()
            self._conn = None


_running: dict[str, Forwarder] = {}
_lock = threading.Lock()


def forward_journal(journal_path: str, hub: str, token: str, status: Status | None = None
                    ) -> Forwarder:
    """The one running Forwarder for this journal in this process (many phone sessions share a
    journal); STATUS replaces the previous one's."""
    import os

    key = os.path.abspath(journal_path)
    with _lock:
        found = _running.get(key)
        if found is not None and (found.hub, found.token) == (hub.rstrip("/"), token):
            if status is not None:
                found.status = status
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
