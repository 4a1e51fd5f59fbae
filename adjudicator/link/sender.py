"""The sender's protocol: a heartbeat and the outbox's rows to the hub, and its answers taken.

One pass (push, ask) or a beat at a time: the thread that runs it for a live station is
forward.py's. It only READS the journal (the outbox, journal/outbox.py) with its own SQLite
connection; it asks the hub which sequence it holds without a gap (every answer carries it),
sends the rows after that in batches, and starts again from the hub's answer after a failure,
so a lost answer or a restarted hub never loses or doubles a row. The hub's event and the
name it gives are handed on (on_event, on_name) to the station that follows it (follow.py).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from urllib.parse import quote

from adjudicator import wire
from adjudicator.journal import db, outbox
from adjudicator.link import key as station_key
from adjudicator.link import pins
from adjudicator.link.deadline import Deadline
from adjudicator.link.hubclient import TIMEOUT, HubRefused, HubUnreachable, _late, _printable, post

BATCH = 200  # rows a request
POLL = 0.2  # seconds between looks at the outbox while idle
HEARTBEAT = 5.0  # seconds between heartbeats (the hub calls a station silent after 15)
Status = Callable[[], dict]


@dataclass(frozen=True)
class PushReport:
    """What one push did: rows sent now, what the hub holds, the station's last row."""

    sent: int
    acked: int
    head: int

    @property
    def pending(self) -> int:
        return max(0, self.head - self.acked)


class Sender:
    """Tells HUB of one station journal: push() once, ask() once, beat(); forward.py's
    Forwarder runs it on a thread for a live station."""

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
        self._last_beat = 0.0
        self._sent_key = False
        self._refused_at = ""  # what was refused: "/api/rows" or "/api/heartbeat"
        self.stamp = ""  # the hub's latest stamp (wire.py): the next request is signed with it
        self._count = 0  # requests signed: each one's stamp differs
        self._until: Deadline | None = None  # when a one-shot push(limit) must be over
        self.on_event = None  # (Event) -> None: the station follows the hub's event (issue 27)
        self.event_version = -1  # the latest event version handed to on_event
        self.event_wanted: Callable[[int], bool] | None = None  # (version) -> True: hand the
        # hub's event at that version on again (a change taken only in part, retried: follow.py)
        self.on_name: Callable[[str], None] | None = None  # the name the director gave it
        self.name_given = ""  # the latest name handed to on_name
        self.last_answer: datetime | None = None  # when the hub last answered (UTC)


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
            try:  # the station takes it at its next Ready (adjudicator/station/follow.py)
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

    def close(self) -> None:
        """The journal's connection closed (a one-shot's end)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
