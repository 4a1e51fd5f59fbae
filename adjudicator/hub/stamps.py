"""The hub's stamps: a signed request is taken only while young and only once (issue 26, item 9).

Every answer gives the station a stamp: the hub's clock in milliseconds and a MAC of it under a
secret of the hub's (derived from the director's token, so a restarted hub knows its stamps). A
station signs its next requests with the latest stamp it holds (wire.py). A request is refused
when its stamp is missing, not the hub's, older than WINDOW seconds by the hub's own clock (a
request captured and sent again later: a replay), or when its signature was already taken (the
same request sent again at once). The refusal carries a fresh stamp: an honest station (one that
slept, or a hub it has not talked to) signs again at once; a replayer cannot sign.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections import deque
from collections.abc import Callable

from adjudicator import wire
from adjudicator.hub.refusals import RequestRefused

WINDOW = 60.0  # seconds a stamp is good for (a station is given a new one with every answer)
AHEAD = 5.0  # seconds a stamp may seem ahead of the hub's clock (the clock stepped back)
SEEN = 1024  # signatures remembered per key (a station sends a few a second at most)


class Stamps:
    def __init__(self, secret: str, wall: Callable[[], float] = time.time):
        self._secret = hmac.new(secret.encode("utf-8"), b"adjudicator hub stamps",
                                hashlib.sha256).digest()
        self.wall = wall
        self._seen: dict[str, tuple[deque, set]] = {}  # key id -> (ms, signature)s, signatures

    def _mac(self, ms: str) -> str:
        return hmac.new(self._secret, ms.encode("ascii"), hashlib.sha256).hexdigest()[:16]

    def issue(self) -> str:
        ms = str(int(self.wall() * 1000))
        return f"{ms}.{self._mac(ms)}"

    def check(self, key_id: str, stamp: str, signature) -> None:
        """A RequestRefused unless STAMP is a young stamp of this hub's and SIGNATURE is new."""
        parts = stamp.split(".")
        hub_part = ".".join(parts[:2])
        if len(parts) != 3 or not wire.STAMP_FORM.match(hub_part) or not parts[2].isascii() \
                or not parts[2].isdigit() or not hmac.compare_digest(
                    self._mac(parts[0]), parts[1]):
            raise RequestRefused(401, "sign the request with the hub's stamp (this answer has one)")
        now = int(self.wall() * 1000)
        age = now - int(parts[0])
        if age > WINDOW * 1000 or age < -AHEAD * 1000:
            raise RequestRefused(401, "the request's stamp is too old: a replayed request, or a "
                          "station that was asleep (it signs again with this answer's stamp)",
                          "a request sent again later (a replay, or a station that slept)",
                          kind="a stale or replayed request")
        times, signatures = self._seen.setdefault(key_id, (deque(), set()))
        while times and (now - times[0][0] > (WINDOW + AHEAD) * 1000 or len(times) >= SEEN):
            signatures.discard(times.popleft()[1])
        signature = str(signature)
        if signature in signatures:
            raise RequestRefused(401, "this request was already taken (sent again: a replay)",
                          "a request sent twice (a replay)", kind="a stale or replayed request")
        times.append((now, signature))
        signatures.add(signature)
