"""The station's sender: the outbox's rows and a heartbeat to the director's hub, off the verdict path.

A Forwarder runs on its own daemon thread with its own SQLite connection and only READS the
journal (the outbox, journal/outbox.py): a hub that is down, slow or unreachable costs a verdict
nothing. It asks the hub which sequence it holds without a gap (every answer carries it), sends
the rows after that in batches, and starts again from the hub's answer after any failure, so a
lost answer, a dropped link, a killed station or a restarted hub never loses or doubles a row.
"""

from __future__ import annotations

import http.client
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from urllib.parse import quote

from .. import wire
from ..errors import AdjudicatorError
from ..journal import db, outbox
from . import key as station_key
from . import pins
from .deadline import Deadline, urlopen

BATCH = 200  # rows a request
POLL = 0.2  # seconds between looks at the outbox while idle
HEARTBEAT = 5.0  # seconds between heartbeats (the hub calls a station silent after 15)
TIMEOUT = 5.0  # seconds one request may take, whole (deadline.py: a trickling hub too)
RETRY_MAX = 2.0  # longest pause after a failed link (the hub may be back at once)
REFUSED_MAX = 30.0  # longest pause after the hub refused (4xx): no tight loop, still retried
MAX_ANSWER = 64 * 1024  # bytes of an answer read at most (an ack is a few dozen)
Status = Callable[[], dict]


class HubUnreachable(AdjudicatorError):
    """The hub did not answer, answered with something that is not an answer, or refused (its
    message says why). Every failure of the link is this: the sender retries it."""


class HubRefused(HubUnreachable):
    """The hub answered 4xx: it will not take this (the reason is the hub's)."""

    def __init__(self, message: str, status: int, why: str, stamp: str = ""):
        super().__init__(message)
        self.status, self.why = status, why
        self.stamp = stamp  # the hub's fresh stamp in its refusal (wire.py), if it gave one


@dataclass(frozen=True)
class PushReport:
    """What one push did: rows sent now, what the hub holds, the station's last row."""

    sent: int
    acked: int
    head: int

    @property
    def pending(self) -> int:
        return max(0, self.head - self.acked)


def post(hub: str, path: str, token: str, body: dict, timeout: float = TIMEOUT,
         key: bytes | None = None, name: str = "", stamp: str = "") -> dict:
    """POST BODY as JSON to HUB+PATH with the station token (signed with KEY when given, and
    STAMP: the hub's latest stamp and this request's count, wire.py); the JSON object answered,
    or HubUnreachable (HubRefused for a 4xx) whatever went wrong. Sent without a stamp and
    answered 401 with one (this hub wants it), it is signed with it and sent again, once. The
    whole of it ends within TIMEOUT seconds, whatever the hub does (deadline.py)."""
    deadline = Deadline(timeout)
    try:
        return _post_once(hub, path, token, body, deadline, timeout, key, name, stamp)
    except HubRefused as e:
        if e.status != 401 or not e.stamp or stamp or key is None:
            raise
        return _post_once(hub, path, token, body, deadline, timeout, key, name,
                          f"{e.stamp}.1")


def _post_once(hub: str, path: str, token: str, body: dict, deadline: Deadline,
               timeout: float, key: bytes | None, name: str, stamp: str) -> dict:
    data = wire.encode(body)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    if key is not None:
        headers[wire.KEY_ID] = wire.key_id(key)
        headers[wire.SIGNATURE] = wire.sign(key, path, data, stamp)
        if stamp:
            headers[wire.STAMP] = stamp
    if name:
        headers[wire.NAME] = quote(name[:60], safe="")
    request = urllib.request.Request(hub.rstrip("/") + path, data=data, method="POST",
                                     headers=headers)
    try:
        with urlopen(request, deadline) as response:
            data = response.read(MAX_ANSWER + 1)
            if len(data) > MAX_ANSWER:
                raise wire.WireError("longer than any answer of the hub")
            answer = wire.decode(data)
        if not isinstance(answer, dict):
            raise wire.WireError(f"not an answer but {wire._kind(answer)}")
        return answer
    except urllib.error.HTTPError as e:
        if deadline.passed:
            raise HubUnreachable(_late(hub, timeout)) from None
        try:
            said = wire.decode(e.read(MAX_ANSWER))
            why, fresh = wire.refusal(said), wire.stamp_of(said)
        except Exception:  # noqa: BLE001 - a refusal's body is only a courtesy
            why = fresh = ""
        why = _printable(why).strip()
        what = "refused" if 400 <= e.code < 500 else "failed"
        message = f"the hub {hub} {what}: {why or _printable(e.reason)} (HTTP {e.code})"
        if 400 <= e.code < 500:
            raise HubRefused(message, e.code, why, fresh) from None
        raise HubUnreachable(message) from None
    except Exception as e:  # noqa: BLE001 - every failure is one line (too late: that first)
        if deadline.passed:
            raise HubUnreachable(_late(hub, timeout)) from None
        raise _unreachable(hub, e) from None


def _late(hub: str, timeout: float) -> str:
    return f"the hub {hub} did not answer in time (not within {timeout:.3g} s)"


def _unreachable(hub: str, e: Exception) -> HubUnreachable:
    """The failure E of a request to HUB, as the one line it is."""
    refused = getattr(e, "reason", e)
    if isinstance(refused, pins.LinkRefused):  # not sent: a wrong certificate, plain http
        return HubUnreachable(str(refused))
    if isinstance(e, wire.WireError):
        return HubUnreachable(f"the hub {hub} answered with something that is not the hub's "
                              f"answer ({e})")
    if isinstance(e, http.client.HTTPException):  # IncompleteRead, BadStatusLine, ...
        return HubUnreachable(f"the hub {hub} answered with a broken reply "
                              f"({type(e).__name__})")
    if isinstance(e, (urllib.error.URLError, OSError, ValueError)):
        reason = getattr(e, "reason", e)
        return HubUnreachable(f"the hub {hub} is not reachable: {_printable(reason)}")
    # whatever else a peer makes urllib raise: a retry
    return HubUnreachable(f"the hub {hub} could not be told ({type(e).__name__})")


def _printable(text) -> str:
    """A peer's words as one printable line (never a terminal control)."""
    return "".join(c if c.isprintable() else "?" for c in str(text))[:200]


class Forwarder:
    """Sends one station journal's outbox to HUB. start() for a live station, push() once."""

    def __init__(self, journal_path: str, hub: str, token: str, *, status: Status | None = None,
                 batch: int = BATCH, poll: float = POLL, heartbeat: float = HEARTBEAT,
                 timeout: float = TIMEOUT, pin: str = ""):
        """PIN: the SHA-256 of the hub's certificate (the config's hub_fingerprint), trusted for
        HUB from now on in this process (pins.py); none: the one pinned before."""
        pins.trust(hub, pin)
        self.path, self.hub, self.token = str(journal_path), hub.rstrip("/"), token
        self.status = status or (lambda: {})
        self.batch, self.poll, self.heartbeat_every, self.timeout = batch, poll, heartbeat, timeout
        self.acked: int | None = None  # what the hub holds, as it last said; None: ask again
        self.problem = ""  # the last failure, for the director's screen
        self.refused = ""  # the hub's reason when it last refused (4xx); "" once it takes again
        self.restarts = 0  # times the sender's loop failed and was started again
        self.died = ""  # what stopped it the last time
        self.known = False  # the hub knows this station's key (else it is sent once more)
        self.key: bytes | None = None
        self._conn: sqlite3.Connection | None = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_beat = 0.0
        self._sent_key = False
        self._refused_at = ""  # what was refused: "/api/rows" or "/api/heartbeat"
        self.stamp = ""  # the hub's latest stamp (wire.py): the next request is signed with it
        self._count = 0  # requests signed: each one's stamp differs
        self._rows_after = 0.0  # monotonic time before which no rows are sent (a refusal)
        self._rows_pause = 0.0  # the pause after the last refusal of rows
        self._until: Deadline | None = None  # when a one-shot push(limit) must be over
        self.on_event = None  # (Event) -> None: the station follows the hub's event (issue 27)
        self.event_version = -1  # the latest event version handed to on_event
        self.event_wanted: Callable[[int], bool] | None = None  # (version) -> True: hand the
        # hub's event at that version on again (a change taken only in part, retried: follow.py)
        self.on_name: Callable[[str], None] | None = None  # the name the director gave it
        self.name_given = ""  # the latest name handed to on_name
        self.last_answer: datetime | None = None  # when the hub last answered (UTC)

    # -- one pass (also `adjudicator journal push`) ---------------------------------------

    def push(self, limit: float | None = None) -> PushReport:
        """Send a heartbeat, then every pending row; HubUnreachable when the hub cannot be told,
        and when it has not taken them all within LIMIT seconds (if given), whatever it does:
        the rows it took are kept, the rest wait in the outbox."""
        conn = self._connection()
        self._until = None if limit is None else Deadline(limit)
        sent = 0
        try:
            self.beat(conn)
            while True:
                rows = outbox.pending(conn, self.acked or 0, self.batch)
                if not rows:
                    break
                sent += self._send(conn, rows)
                if self.acked < rows[-1]["seq"]:
                    break  # the hub held back (a gap it is waiting for): next pass
        except HubUnreachable as e:
            if self._until is None or not self._until.passed or isinstance(e, HubRefused):
                raise
            took = f"; it took {sent} row{'s' if sent != 1 else ''}" if sent else ""
            raise HubUnreachable(f"the hub {self.hub} did not take the rows in time (not within "
                                 f"{limit:g} s{took})") from None
        finally:
            self._until = None
        return PushReport(sent, self.acked or 0, outbox.identity(conn)[2])

    def ask(self, limit: float) -> None:
        """One heartbeat, over within LIMIT seconds whatever the hub does, its answer's event and
        name handed on: a one-shot judge asks its hub so before it judges; HubUnreachable."""
        self._until = until = Deadline(limit)
        try:
            self.beat(self._connection())
        except HubUnreachable as e:
            if isinstance(e, HubRefused) or not until.passed:
                raise
            raise HubUnreachable(_late(self.hub, limit)) from None
        finally:
            self._until = None

    def beat(self, conn: sqlite3.Connection | None = None) -> None:
        """Tell the hub this station is alive: last seq, lists by division, printer, clock."""
        conn = conn or self._connection()
        journal_id, station, head = outbox.identity(conn)
        body = {"journal_id": journal_id, "station": station, "last_seq": head,
                "clock": datetime.now(timezone.utc).isoformat(timespec="milliseconds")}
        try:
            said = self.status()
            body.update({k: str(v) for k, v in said.items() if k in wire.BEAT_TEXT})
            if wire.LISTS in said:  # checked as the hub checks it: a bad one is not sent
                body[wire.LISTS] = wire.check_lists(said[wire.LISTS])
        except Exception as e:  # noqa: BLE001 - a status that fails must not stop the rows
            body["status_problem"] = str(e)[:wire.MAX_TEXT]
        said = self.describe()
        if said != "sending":
            body["sender"] = said[:wire.MAX_TEXT]
        self._answer(self._post("/api/heartbeat", body), "/api/heartbeat")
        self._last_beat = time.monotonic()

    def _send(self, conn, rows: list[dict]) -> int:
        journal_id, station, _ = outbox.identity(conn)
        before = self.acked or 0
        self._answer(self._post("/api/rows", {"journal_id": journal_id, "station": station,
                                              "rows": rows}), "/api/rows")
        return max(0, self.acked - before)

    def _post(self, path: str, body: dict) -> dict:
        self._sent_key = not self.known
        if self._sent_key:
            body["key"] = self.key.hex()  # first contact: the hub binds this key to the station
        timeout = self.timeout
        if self._until is not None:  # a one-shot push: no request outlives the whole push
            timeout = min(timeout, self._until.at - time.monotonic())
            if timeout <= 0:
                raise HubUnreachable(f"the hub {self.hub} did not answer in time")
        for again in (False, True):
            self._count += 1
            try:
                answer = post(self.hub, path, self.token, body, timeout, key=self.key,
                              name=str(body.get("station") or ""),
                              stamp=f"{self.stamp}.{self._count}" if self.stamp else "")
                self.stamp = wire.stamp_of(answer) or self.stamp
                return answer
            except HubRefused as e:
                self.stamp = e.stamp or self.stamp
                if e.status == 401 and e.stamp and not again:
                    if self._sent_key or "key" in body:
                        continue  # the hub wants its stamp signed: at once, once
                    self.known = False  # a hub that lost our key (a new hub.db): sent again
                    body["key"], self._sent_key = self.key.hex(), True
                    continue
                if e.status == 401:
                    self.known = False  # a hub that lost our key (a new hub.db): sent again
                self._refused_at = path
                raise
        raise AssertionError("unreachable")

    def _answer(self, answer: dict, path: str) -> None:
        """Take the hub's answer to PATH; a refusal of that same kind of message is over."""
        try:
            self.acked, known = wire.check_ack(answer)
            event = wire.event_of(answer)
            name = wire.name_given(answer)
        except wire.WireError as e:
            raise HubUnreachable(f"the hub {self.hub} answered with something that is not the "
                                 f"hub's answer ({e})") from None
        self.known = self.known or known
        self.last_answer = datetime.now(timezone.utc)
        if event is not None and self.on_event and (event.version != self.event_version or (
                self.event_wanted is not None and self.event_wanted(event.version))):
            try:  # the station takes it at its next Ready (adjudicator/follow.py)
                self.on_event(event)
                self.event_version = event.version
            except Exception as e:  # noqa: BLE001 - the sender never dies (issue 20)
                self.problem = f"the hub's event could not be taken ({type(e).__name__}: " \
                               f"{_printable(e)})"
        if name and name != self.name_given and self.on_name:
            try:  # taken at the station's next Ready too
                self.on_name(name)
                self.name_given = name
            except Exception as e:  # noqa: BLE001 - the sender never dies (issue 20)
                self.problem = f"the hub's name for this station could not be taken " \
                               f"({type(e).__name__}: {_printable(e)})"
        if self._refused_at == path:
            self.refused = self._refused_at = ""

    def _connection(self) -> sqlite3.Connection:
        problem = db.unwritable(self.path)  # its -shm is mapped: a SIGBUS (issue 42), not a
        if problem:  # retry; asked before SQLite touches the files, each pass
            raise sqlite3.OperationalError(problem)
        if self._conn is None:
            rw = db.connect_rw(self.path, timeout=self.timeout)  # the outbox made (or filled)
            try:
                db.retrying(lambda: outbox.enable(rw), self.timeout)
                db.retrying(lambda: station_key.ensure(rw), self.timeout)
            finally:
                rw.close()
            conn = sqlite3.connect(f"file:{quote(self.path)}?mode=ro", uri=True,
                                   timeout=self.timeout, isolation_level=None,
                                   check_same_thread=False)
            self.key = station_key.read(conn)
            self._conn = conn
        return self._conn

    def describe(self) -> str:
        """The sender's state in words, for a station's status and its heartbeat: "sending",
        or what the hub refused, or that the sender was started again (and why)."""
        said = []
        if self.refused:
            said.append(f"refused by the hub: {self.refused}")
        if self.restarts:
            said.append(f"restarted {self.restarts} time{'s' if self.restarts > 1 else ''} "
                        f"after: {self.died}")
        return "; ".join(said) or "sending"

    # -- the live station's thread ----------------------------------------------------------

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
                    rows = outbox.pending(conn, self.acked, self.batch)
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
