"""The hub's HTTP client: one signed POST to the hub, over within its deadline; its failures.

Every failure of a request (no answer, a broken or foreign answer, a refusal) is one
HubUnreachable line (HubRefused for a 4xx); the sender (sender.py) retries them.
"""

from __future__ import annotations

import http.client
import urllib.error
import urllib.request
from urllib.parse import quote

from adjudicator import wire
from adjudicator.errors import AdjudicatorError
from adjudicator.link import pins
from adjudicator.link.deadline import Deadline, urlopen

TIMEOUT = 5.0  # seconds one request may take, whole (deadline.py: a trickling hub too)
MAX_ANSWER = 64 * 1024  # bytes of an answer read at most (an ack is a few dozen)


class HubUnreachable(AdjudicatorError):
    """The hub did not answer, answered with something that is not an answer, or refused (its
    message says why). Every failure of the link is this: the sender retries it."""


class HubRefused(HubUnreachable):
    """The hub answered 4xx: it will not take this (the reason is the hub's)."""

    def __init__(self, message: str, status: int, why: str, stamp: str = ""):
        super().__init__(message)
        self.status, self.why = status, why
        self.stamp = stamp  # the hub's fresh stamp in its refusal (wire.py), if it gave one



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
