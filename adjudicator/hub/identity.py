"""Which station sent a request: its key, known from its first contact (trust on first use).

A station sends its key once (wire.py, link/key.py); from then on each request is signed with it.
The hub keeps every key that has sent a valid row in its journal (ledger.py: hub_keys), bound to
one station journal and the station names its rows carry; a key that never sent a valid row is
held in memory only, for a while, and at most MAX_NEW keys wait for the director at once. A new
key is "new" on the page until the director accepts it. Another key claiming a bound journal id
or station name is refused (the server turns that into an alarm).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone

from .. import wire

MAX_NEW = 64  # keys not accepted by the director yet, at most (beyond: refused, with an alarm)
MAX_NEW_ROWS = 500  # rows kept for a station not accepted yet (more once the director accepts)
FORGET_AFTER = 600.0  # seconds a key that never sent a valid row is kept after its last request


@dataclass
class StationKey:
    """One station's key as the hub knows it."""

    key_id: str
    secret: bytes
    name: str  # the station name it first came with
    address: str
    joined: str  # ISO UTC time of its first contact
    accepted: bool = False
    journal_id: str = ""  # the one station journal it sends (bound at its first stored row)
    stored: bool = False  # in the hub journal (it has sent a valid row, or was accepted)
    seen: float = field(default_factory=time.monotonic)
    claimed: tuple[str, str] = ("", "")  # (journal id, name) held in memory since first contact
    takes: str = ""  # a name another key holds that this one came with (the director decides)


class Refusal(Exception):
    """A request the hub will not take: STATUS, the reason sent back, the alarm's text."""

    def __init__(self, status: int, why: str, alarm: str = "", register: bool = False,
                 takes: str = ""):
        super().__init__(why)
        self.status, self.why, self.alarm, self.register = status, why, alarm, register
        self.takes = takes  # the name another key holds, when that is the refusal
        self.key_id = ""  # the key that asked for it, once known (the director may accept it)


class Identities:
    """Every station key the hub knows; looked up from the event loop, stored by the ledger."""

    def __init__(self, stored: list[StationKey], names: dict[str, str],
                 clock: Callable[[], float] = time.monotonic):
        self.keys = {k.key_id: k for k in stored}
        self.names = dict(names)  # station name -> key id (bound when its rows were stored)
        self.journals = {k.journal_id: k.key_id for k in stored if k.journal_id}
        self.claims: dict[tuple[str, str], str] = {}  # ("journal"|"name", it) -> key id
        self.clock = clock

    def waiting(self) -> int:
        return sum(1 for k in self.keys.values() if not k.accepted)

    def identify(self, headers, path: str, body_bytes: bytes, body: dict, address: str
                 ) -> StationKey:
        """The key that signed this request; a Refusal when none did, or it may not say this."""
        key_id = str(headers.get(wire.KEY_ID, ""))[:40]
        signature = headers.get(wire.SIGNATURE)
        known = self.keys.get(key_id)
        sent = body.get("key")
        if known is None and sent is None:
            raise Refusal(401, "the hub does not know this station's key: send it",
                          register=True)
        secret = known.secret if known is not None else bytes.fromhex(sent)
        if wire.key_id(secret) != key_id or not wire.signed_by(secret, path, body_bytes,
                                                               signature):
            raise Refusal(403, "the request is not signed by the station's key",
                          "a request not signed by its station's key")
        name = str(body.get("station") or "")
        try:
            self._check_claims(key_id, body["journal_id"], name)
        except Refusal as e:
            if not e.takes:
                raise
            # a name another key holds: a forgery, or a station whose journal was replaced;
            # kept as a new key that wants the name, for the director to accept (or not)
            known = known or self._new(key_id, secret, name, address)
            known.seen, known.takes, e.key_id = self.clock(), e.takes, key_id
            raise
        known = known or self._new(key_id, secret, name, address)
        known.seen = self.clock()
        self._claim(known, body["journal_id"], base_name(name))
        return known

    def _new(self, key_id: str, secret: bytes, name: str, address: str) -> StationKey:
        if self.waiting() >= MAX_NEW:
            raise Refusal(429, f"{MAX_NEW} new stations already wait for the director to "
                          "accept them", f"a new station refused: {MAX_NEW} already wait for "
                          "the director")
        known = self.keys[key_id] = StationKey(
            key_id, secret, name, address,
            datetime.now(timezone.utc).isoformat(timespec="seconds"))
        return known

    def _claim(self, known: StationKey, journal_id: str, name: str) -> None:
        """First contact binds: the journal id and name a key comes with are its own from now
        on (in memory, one of each per key, until its first row is stored and keeps them)."""
        journal_id = "" if known.journal_id else journal_id
        name = "" if name in self.names else name
        if (journal_id, name) == known.claimed:
            return
        self._release(known)
        for kind, claim in (("journal", journal_id), ("name", name)):
            if claim:
                self.claims.setdefault((kind, claim), known.key_id)
        known.claimed = (journal_id, name)

    def _release(self, known: StationKey) -> None:
        for kind, claim in zip(("journal", "name"), known.claimed):
            if claim and self.claims.get((kind, claim)) == known.key_id:
                del self.claims[(kind, claim)]
        known.claimed = ("", "")

    def _check_claims(self, key_id: str, journal_id: str, *names: str) -> None:
        owner = self.journals.get(journal_id) or self.claims.get(("journal", journal_id))
        if owner is not None and owner != key_id:
            raise Refusal(409, f"station journal {journal_id} belongs to another station's key",
                          f"another key claims station journal {journal_id[:8]}")
        known = self.keys.get(key_id)
        if known is not None and known.journal_id and known.journal_id != journal_id:
            raise Refusal(409, "this station's key already sends another station journal",
                          f"a station key sent a second journal ({journal_id[:8]})")
        for name in names:
            base = base_name(name)
            holder = self.names.get(base) or self.claims.get(("name", base))
            if base and holder is not None and holder != key_id:
                refusal = Refusal(409, f"the station name {base!r} belongs to another "
                                  "station's key: give this station another name, or ask the "
                                  "director to accept it in its place",
                                  f"another key claims the name {base!r}", takes=base)
                refusal.key_id = key_id if key_id in self.keys else ""
                raise refusal

    def check_rows(self, known: StationKey, journal_id: str, rows: list[dict]) -> None:
        """Rows may be sent only for the key's own journal and under names no other key holds."""
        try:
            self._check_claims(known.key_id, journal_id, *{str(r["station"]) for r in rows})
        except Refusal as e:
            known.takes = e.takes or known.takes
            raise

    def stored(self, known: StationKey, journal_id: str, names: set[str]) -> None:
        """The ledger stored rows of KNOWN's journal under NAMES: the bindings are now kept."""
        known.stored, known.journal_id = True, journal_id
        self.journals[journal_id] = known.key_id
        for name in names:
            if base_name(name):
                self.names.setdefault(base_name(name), known.key_id)

    def accept(self, key_id: str) -> StationKey | None:
        """The director vouches for KEY_ID; a name it asked for is then its own (the key that
        held it can no longer send under it)."""
        known = self.keys.get(key_id)
        if known is not None:
            known.accepted = True
            if known.takes:
                self.names[known.takes] = key_id
                self.claims[("name", known.takes)] = key_id
        return known

    def forget_old(self) -> list[StationKey]:
        """Keys that never sent a valid row and were not heard for FORGET_AFTER: dropped."""
        now = self.clock()
        old = [k for k in self.keys.values()
               if not k.stored and now - k.seen > FORGET_AFTER]
        for k in old:
            self._release(k)
            del self.keys[k.key_id]
        return old


def base_name(station: str) -> str:
    """The station a row's name belongs to: a phone's row is "<station> / <device>"."""
    return station.split(" / ", 1)[0].strip()
