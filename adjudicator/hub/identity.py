"""Which station sent a request: its key, known from its first contact (trust on first use).

A station sends its key once (wire.py, link/key.py); from then on each request is signed with it.
The hub keeps every key that has sent a valid row in its journal (hub_journal.py: hub_keys), bound to
one station journal and one station name; a key that never sent a valid row is held in memory
only, for a while. A key "waits" until the director accepts it (hub/waiting.py holds what the
page shows of it and how many may wait); the director may instead reject it, and it is refused
from then on. Another key claiming a bound journal id or station name is refused (the server
turns that into an alarm), and so is a name that looks like an accepted station's (lookalike.py:
Unicode TR39's confusable skeleton, invisible characters, width and case aside: "Desk 1" +
U+034F, "Ꭰesk 1" with a Cherokee letter, "Desk З" beside "Desk 3"), and a name whose letters mix
scripts (TR39's mixed-script check: "Dеsk 9" with a Cyrillic е) wherever it comes from: a
heartbeat, rows, the director's Accept and Rename alike (unreadable(): one check, every door).
Once the director accepts a key, its name is bound to it (kept in the hub journal, so a restart
keeps it) and fixed: the station cannot rename itself, by heartbeat or by rows; only the
director renames. A renamed station keeps the names it held (FORMER): it may still send under
them (its journal's own name, rows judged before it heard its new name, which the hub's answers
give it: link/forward.py). Which name a row is held under is row_name's: a former name only
for the rows judged before the rename (its journal held them when the director renamed it) and
those that come within FORMER_GRACE of it; later ones under its name now, so a former name
another station has taken since never mixes the two in an export (issue 41 item 7).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timezone

from adjudicator import wire
from adjudicator.text.lookalike import mixed_scripts, name_key
from adjudicator.config.station_name import base_name, with_base  # the one split of a name (ledger, kept use it)
from adjudicator.text.visible import visible
from adjudicator.hub import waiting as slots
from adjudicator.hub.refusals import RequestRefused
from adjudicator.hub.station_key import ACCEPTED, DROPPED, REJECTED, WAITING, StationKey

MAX_NEW = slots.MAX_WAITING  # keys not accepted by the director yet, at most
MAX_NEW_ROWS = 500  # rows kept for a station not accepted yet (more once the director accepts)
FORGET_AFTER = 600.0  # seconds a key that never sent a valid row is kept after its last request
FORMER_GRACE = 300.0  # seconds after a rename its rows may still come under the former name


def fold(name: str) -> str:
    """NAME as a person reads it (lookalike.name_key: Unicode TR39's confusable skeleton, the
    invisible left out, case and blanks aside). Two names that fold alike are one."""
    return name_key(name)


class Identities:
    """Every station key the hub knows; looked up from the event loop, stored by the ledger."""

    def __init__(self, stored: list[StationKey], names: dict[str, str],
                 clock: Callable[[], float] = time.monotonic):
        self.keys = {k.key_id: k for k in stored if k.state in (ACCEPTED, WAITING)}
        self.rejected = {k.key_id: k for k in stored if k.state == REJECTED}
        self.dropped = {k.key_id: k for k in stored if k.state == DROPPED}
        self.names = dict(names)  # station name -> key id (bound when its rows were stored)
        self.journals = {k.journal_id: k.key_id for k in stored if k.journal_id}
        self.claims: dict[tuple[str, str], str] = {}  # ("journal"|"name", it) -> key id
        self.clock = clock
        self.accept_new = False  # tests of older behaviour: every key accepted at first contact
        self.evicted: list[StationKey] = []  # keys dropped to make room (the server forgets them)
        self._folds: dict[str, str] | None = None  # fold(name) -> an accepted station's name

    def waiting(self) -> int:
        return sum(1 for k in self.keys.values() if not k.accepted)

    def identify(self, headers, path: str, body_bytes: bytes, body: dict, address: str,
                 stamps=None) -> StationKey:
        """The key that signed this request; a RequestRefused when none did, or it may not say this.
        STAMPS (hub/stamps.py): the request must carry a fresh stamp of the hub's, signed."""
        key_id = str(headers.get(wire.KEY_ID, ""))[:40]
        signature = headers.get(wire.SIGNATURE)
        known = self.keys.get(key_id) or self.rejected.get(key_id) or self.dropped.get(key_id)
        sent = body.get("key")
        if known is None and sent is None:
            raise RequestRefused(401, "the hub does not know this station's key: send it",
                          register=True)
        secret = known.secret if known is not None else bytes.fromhex(sent)
        stamp = str(headers.get(wire.STAMP, ""))[:wire.MAX_STAMP]
        if stamps is not None and not stamp:
            raise RequestRefused(401, "sign the request with the hub's stamp (this answer has one)")
        if wire.key_id(secret) != key_id or not wire.signed_by(
                secret, path, body_bytes, signature, stamp if stamps is not None else None):
            raise RequestRefused(403, "the request is not signed by the station's key",
                          "a request not signed by its station's key")
        if stamps is not None:
            stamps.check(key_id, stamp, signature)  # a RequestRefused for a replay or a stale stamp
        if known is not None and known.state == REJECTED:
            refusal = RequestRefused(403, "the director rejected this station: ask the director",
                              "a station the director rejected tried again")
            raise refusal
        if known is not None and known.state == DROPPED:
            known = self._back(known, address)
        name = str(body.get("station") or "")
        own = self.name_of(known.key_id) if known is not None and known.accepted else ""
        if known is not None and own and base_name(name) in known.former:
            name = own  # a name it held before the director renamed it: still its own
        if own and base_name(name) and base_name(name) != own:
            refusal = RequestRefused(409, f"this station's name is {own!r}: only the director renames "
                              "a station (its config's name must stay that one)",
                              f"the station {visible(own)!r} asked to be called "
                              f"{visible(base_name(name))[:60]!r}",
                              kind="an accepted station asked for another name")
            refusal.key_id = key_id
            raise refusal
        try:
            self._check_claims(key_id, body["journal_id"], name)
        except RequestRefused as e:
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

    def _room(self, address: str) -> None:
        """Make room for one more waiting key from ADDRESS (slots.py's rule), or refuse it."""
        waiting = [k for k in self.keys.values() if not k.accepted]
        gone = slots.make_room(waiting, address, self.clock())
        if isinstance(gone, str):
            raise RequestRefused(429, gone, f"a new station refused: {gone}", kind="waiting list full")
        for key in gone:
            self._drop(key)

    def _drop(self, key: StationKey) -> None:
        self._release(key)
        del self.keys[key.key_id]
        self._unname(key.key_id)
        if key.stored:  # its rows stay in the hub journal, shown nowhere until it comes back
            key.state = DROPPED
            self.dropped[key.key_id] = key
        self.evicted.append(key)

    def _back(self, key: StationKey, address: str) -> StationKey:
        """A key dropped from a full waiting list sends again: it waits again, if there is room."""
        self._room(address)
        del self.dropped[key.key_id]
        key.state, key.seen = WAITING, self.clock()
        self.keys[key.key_id] = key
        return key

    def _new(self, key_id: str, secret: bytes, name: str, address: str) -> StationKey:
        if not self.accept_new:
            self._room(address)
        known = self.keys[key_id] = StationKey(
            key_id, secret, name, address,
            datetime.now(timezone.utc).isoformat(timespec="seconds"))
        if self.accept_new:
            known.accepted, known.state = True, ACCEPTED
        return known

    def _claim(self, known: StationKey, journal_id: str, name: str) -> None:
        """First contact binds: the journal id and name a key comes with are its own from now
        on (in memory, one of each per key, until its first row is stored and keeps them)."""
        journal_id = "" if known.journal_id else journal_id
        name = "" if name in self.names or self.name_of(known.key_id) else name
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

    def _unname(self, key_id: str) -> None:
        for name, holder in list(self.names.items()):
            if holder == key_id:
                del self.names[name]
        self._folds = None

    def accepted_names(self) -> list[str]:
        """The names the director's accepted stations hold."""
        return [n for n, k in self.names.items() if k in self.keys and self.keys[k].accepted]

    def name_of(self, key_id: str) -> str:
        """The one station name KEY_ID's rows are stored under ("" before its first row)."""
        return next((n for n, k in self.names.items() if k == key_id), "")

    def _look_alike(self, base: str) -> str:
        """The accepted station's name BASE differs from only by what fold() ignores, or ""."""
        if self._folds is None:
            self._folds = {fold(n): n for n, k in self.names.items()
                           if k in self.keys and self.keys[k].accepted}
        other = self._folds.get(fold(base), "")
        return "" if other == base else other

    def unreadable(self, name: str, key_id: str = "",
                   advice: tuple[str, str] = ("give this station a name of its own",
                                              "give this station a name written in one "
                                              "script")) -> RequestRefused | None:
        """Why NAME may not be a new station's name, as people read it: it reads like an
        accepted station's name (not KEY_ID's own), or its letters mix scripts; else None.
        ADVICE: what to do about each, as the refusal says it."""
        other = self._look_alike(name)
        if other and self.names.get(other) != key_id:
            return RequestRefused(409, f"the station name {name!r} looks like {other!r}, another "
                           f"station's name: {advice[0]}",
                           f"a name that looks like {other!r}: {visible(name)!r}",
                           kind=f"a name that looks like {other!r}")
        mixed = mixed_scripts(name)
        if mixed:
            said = " and ".join(s.capitalize() for s in mixed)
            return RequestRefused(409, f"the station name {name!r} mixes scripts ({said}): "
                           f"{advice[1]}",
                           f"a name that mixes scripts ({said}): {visible(name)!r}",
                           kind="a name that mixes scripts")
        return None

    def _check_claims(self, key_id: str, journal_id: str, *names: str) -> None:
        owner = self.journals.get(journal_id) or self.claims.get(("journal", journal_id))
        if owner is not None and owner != key_id:
            raise RequestRefused(409, f"station journal {journal_id} belongs to another station's key",
                          f"another key claims station journal {journal_id[:8]}")
        known = self.keys.get(key_id)
        if known is not None and known.journal_id and known.journal_id != journal_id:
            raise RequestRefused(409, "this station's key already sends another station journal",
                          f"a station key sent a second journal ({journal_id[:8]})",
                          kind="a station key sent a second journal")
        for name in names:
            base = base_name(name)
            holder = self.names.get(base) or self.claims.get(("name", base))
            if base and holder is not None and holder != key_id:
                refusal = RequestRefused(409, f"the station name {base!r} belongs to another "
                                  "station's key: give this station another name, or ask the "
                                  "director to accept it in its place",
                                  f"another key claims the name {visible(base)!r}", takes=base)
                refusal.key_id = key_id if key_id in self.keys else ""
                raise refusal
            # its own claim too, while it waits: a name accepted since looks alike now
            free = holder is None or (holder == key_id and not (known and known.accepted))
            refusal = self.unreadable(base) if base and free else None
            if refusal is not None:
                raise refusal

    def check_rows(self, known: StationKey, journal_id: str, rows: list[dict]) -> None:
        """Rows may be sent only for the key's own journal, under the key's one name, which no
        other key holds."""
        own = self.name_of(known.key_id)
        names = {base_name(str(r["station"])) for r in rows} - (known.former if own else set())
        if len(names) > 1 or (own and names and names != {own}):
            said = own or min(names)
            raise RequestRefused(409, f"a station sends under one name: this station's is {said!r}",
                          f"a station key sent rows under more than one name ({visible(said)!r})",
                          kind="a station key sent rows under more than one name")
        try:
            self._check_claims(known.key_id, journal_id, *names)
        except RequestRefused as e:
            known.takes = e.takes or known.takes
            raise

    def stored(self, known: StationKey, journal_id: str, names: set[str]) -> None:
        """The ledger stored rows of KNOWN's journal under NAMES: the bindings are now kept."""
        known.stored, known.journal_id = True, journal_id
        self.journals[journal_id] = known.key_id
        for name in names:
            if base_name(name) and base_name(name) not in known.former:
                self.names.setdefault(base_name(name), known.key_id)
        self._folds = None

    def accept(self, key_id: str) -> StationKey | RequestRefused | None:
        """The director vouches for KEY_ID; a name it asked for is then its own (the key that
        held it can no longer send under it). A RequestRefused when the name it waited under reads
        like an accepted station's or mixes scripts (it came before that station was
        accepted): the director renames one of them first, or rejects it."""
        known = self.keys.get(key_id)
        if known is not None and not known.accepted and not known.takes:
            name = self.name_of(key_id) or known.claimed[1] or base_name(known.name)
            refusal = self.unreadable(name, key_id, ("reject it, or rename the other station "
                                                     "first", "reject it")) if name else None
            if refusal is not None:
                return refusal
        if known is not None:
            known.accepted, known.state = True, ACCEPTED
            if known.takes:
                self.names[known.takes] = key_id
                self.claims[("name", known.takes)] = key_id
            elif not self.name_of(key_id):  # the name it waited under is its own from now on
                name = known.claimed[1] or base_name(known.name)
                if name and self.names.get(name, key_id) == key_id:
                    self.names[name] = key_id
                    self.claims[("name", name)] = key_id
            self._folds = None
        return known

    def row_name(self, known: StationKey, station: str, seq: int) -> str:
        """The name row SEQ of KNOWN's journal, sent under STATION, is held under: STATION,
        unless it names a former name of a station renamed before the row was judged (after
        renamed_seq) and longer than FORMER_GRACE ago: then its name now (a phone's device
        label kept)."""
        own = self.name_of(known.key_id)
        base = base_name(station)
        if (not own or base == own or base not in known.former or seq <= known.renamed_seq
                or self.clock() - known.renamed_at < FORMER_GRACE):
            return station
        return with_base(station, own)

    def rename(self, key_id: str, name: str, last_seq: int = 0) -> StationKey | RequestRefused | None:
        """The director renames the accepted station KEY_ID to NAME (its old name is free);
        a RequestRefused when NAME is another station's or looks like one; None for no such station.
        LAST_SEQ: its journal's last row as the hub heard it (rows up to it keep the name
        they were judged under: row_name)."""
        known = self.keys.get(key_id)
        if known is None or not known.accepted:
            return None
        name = base_name(name)
        if not name:
            return RequestRefused(400, "a station's name is not empty")
        holder = self.names.get(name) or self.claims.get(("name", name))
        if holder is not None and holder != key_id:
            return RequestRefused(409, f"{name!r} is another station's name: choose one that no "
                           "other station holds")
        other = self._look_alike(name)  # its own name in other letters is still its own
        if other and self.names.get(other) != key_id:
            return RequestRefused(409, f"{name!r} looks like {other!r}, another station's name: "
                           "choose one that reads differently")
        mixed = self.unreadable(name, key_id, ("", "choose one written in one script"))
        if mixed is not None:
            return mixed
        old = self.name_of(key_id)
        self._unname(key_id)
        self._release(known)
        self.names[name] = key_id
        self.claims[("name", name)] = key_id
        known.claimed = (known.claimed[0], name)
        known.former = (known.former | {old, base_name(known.name)}) - {name, ""}
        known.renamed_seq, known.renamed_at = max(known.renamed_seq, last_seq), self.clock()
        return known

    def reject(self, key_id: str) -> StationKey | None:
        """The director says KEY_ID is not one of the event's stations: it is refused from now
        on, the names it held are free, its rows count nowhere (they stay in the hub journal)."""
        known = self.keys.pop(key_id, None) or self.dropped.pop(key_id, None)
        if known is None or known.accepted:
            if known is not None:
                self.keys[key_id] = known  # an accepted station is not rejected from the page
            return None
        self._release(known)
        self._unname(key_id)
        known.state, known.takes = REJECTED, ""
        self.rejected[key_id] = known
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
