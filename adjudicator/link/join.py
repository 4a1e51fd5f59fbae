"""Joining an event: the hub's event fetched with the join code, the lists the shelf lacks fetched.

`fetch_event(url)` reads `GET /join?code=C` over TLS with the certificate whose SHA-256 the join
address carries (`https://H:P/join?code=C#sha256=F`: pins.py; the code is never sent to any
other certificate, nor in clear), the hub lines and the event checked by parse_event as
anything from a peer is; `fetch_list(hub, code, fingerprint)` fetches one compiled list the
event names, checks it is that list (its fingerprint, recomputed from its words) before it is
put on the shelf. Every failure is one line with the README's exit code: a hub not reached 4, a
wrong code 2, a list that is not the one asked for 3.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, urlsplit

from adjudicator import wire
from adjudicator.errors import AdjudicatorError, EntryError, FileAccessError, LexiconError
from adjudicator.event.setup import HEX64, Event, EventError, parse_event
from adjudicator.lexicon import store as shelves
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.text.visible import visible
from adjudicator.link import pins
from adjudicator.link.deadline import Deadline, urlopen

TIMEOUT = 10.0  # seconds the event's answer may take
LIST_TIMEOUT = 120.0  # seconds one compiled list may take (a CSW list is ~3 MB)
MAX_ANSWER = 256 * 1024  # bytes of the event's answer read at most
MAX_LIST = 64 * 1024 * 1024  # bytes of a compiled list read at most
TOKEN = re.compile(r"[A-Za-z0-9_-]{8,200}")  # a station token as hub_journal.py makes it
SHELF_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # as shelf.py names its files


class HubNotReached(FileAccessError):
    """The hub did not answer, or not as a hub does (exit 4)."""


class WrongCode(EntryError):
    """The join address's code is not this hub's (exit 2: the command line's argument)."""

    def __init__(self, message: str):
        super().__init__("join-code", message)


@dataclass(frozen=True)
class Joined:
    """What the hub said: its address, the station token, the event (checked), the code, and
    the SHA-256 of the hub's certificate (pinned: the config keeps it as hub_fingerprint)."""

    hub: str
    hub_token: str
    event: Event
    code: str
    fingerprint: str = ""


def parse_join_url(url: str) -> tuple[str, str, str]:
    """(hub base address, join code, certificate fingerprint) from
    `https://H:P/join?code=C#sha256=F` (or `&sha256=F`); EntryError otherwise (an old hub's
    http:// line too: it would send the code in clear to whoever answers)."""
    parts = urlsplit(url.strip())
    query = parse_qs(parts.query)
    code = query.get("code", [""])[0]
    if parts.scheme not in ("http", "https") or not parts.netloc or not code:
        raise EntryError("join-url", f"{url!r} is not a join address: use the line "
                         "`adjudicator hub` printed (https://H:P/join?code=...#sha256=...)")
    pinned = parse_qs(parts.fragment).get("sha256") or query.get("sha256") or [""]
    fingerprint = pins.normal(pinned[0])
    if parts.scheme != "https" or not fingerprint:
        raise EntryError("join-url", f"{url.split('?')[0]!r} carries no certificate "
                         "fingerprint (https://...#sha256=...): use the join line the hub "
                         "prints now; the code is sent to no hub without it")
    return f"{parts.scheme}://{parts.netloc}", code, fingerprint


def _signed(url: str, token: str, key: bytes | None, stamp: str = "") -> dict:
    """The headers of a station's GET of URL: the station token, and signed with KEY (and the
    hub's STAMP) as wire.py says, so the hub knows which accepted station asks."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if key is not None:
        path = urlsplit(url).path
        headers.update({wire.KEY_ID: wire.key_id(key),
                        wire.SIGNATURE: wire.sign(key, path, b"", stamp)})
        if stamp:
            headers[wire.STAMP] = stamp
    return headers


def _get(url: str, timeout: float, limit: int, into=None, token: str = "",
         key: bytes | None = None) -> bytes:
    """GET URL within TIMEOUT; the body (at most LIMIT bytes), or written to INTO. TOKEN: the
    station token, sent as a station sends it; KEY: the station's key, to sign with (asked
    again once, signed with the stamp the hub's 401 gives, as a station's sender does)."""
    deadline = Deadline(timeout)
    headers = _signed(url, token, key)
    for _ in range(2):
        try:
            return _read(urllib.request.Request(url, headers=headers), deadline, limit, into)
        except urllib.error.HTTPError as e:
            said = _said(e)
            stamp = wire.stamp_of(said) if key is not None and e.code == 401 else ""
            if stamp and wire.STAMP not in headers:
                headers = _signed(url, token, key, f"{stamp}.1")
                continue
            why = wire.refusal(said)
            why = "".join(c for c in why if c.isprintable())
            if e.code == 403:
                raise WrongCode(why or "wrong join code") from None
            raise HubNotReached(f"the hub at {url.split('?')[0]} refused: {why or e.code}"
                                ) from None
        except (urllib.error.URLError, OSError, ValueError) as e:
            reason = getattr(e, "reason", e)
            if isinstance(reason, pins.LinkRefused):
                raise HubNotReached(str(reason)) from None
            raise HubNotReached(f"cannot reach the hub at {url.split('?')[0]}: "
                                f"{getattr(reason, 'strerror', None) or reason}") from None
    raise HubNotReached(f"the hub at {url.split('?')[0]} did not take the station's signature")


def _read(request, deadline: Deadline, limit: int, into) -> bytes:
    with urlopen(request, deadline) as answer:
        if into is None:
            data = answer.read(limit + 1)
            if len(data) > limit:
                raise HubNotReached(f"{request.full_url.split('?')[0]} answered more than a "
                                    "hub does")
            return data
        total = 0
        while chunk := answer.read(1 << 20):
            total += len(chunk)
            if total > limit:
                raise LexiconError("the hub sent a list larger than any word list; refused")
            into.write(chunk)
        return b""


def _said(e: urllib.error.HTTPError):
    """A refusal's JSON body (None when it is not JSON)."""
    try:
        return json.loads(e.read(4096))
    except (ValueError, OSError):
        return None


def fetch_event(url: str, timeout: float = TIMEOUT) -> Joined:
    """The event at the join address URL, checked whole (never trusted unchecked)."""
    base, code, fingerprint = parse_join_url(url)
    pins.trust(base, fingerprint)
    data = _get(f"{base}/join?code={quote(code, safe='')}", timeout, MAX_ANSWER)
    try:
        said = json.loads(data)
        if not isinstance(said, dict):
            raise ValueError
        token = said.get("hub_token")
        event = parse_event(said.get("event"), said.get("division"), "the hub's event")
    except (ValueError, EventError) as e:
        why = f": {e}" if isinstance(e, EventError) else ""
        raise HubNotReached(f"{base} did not answer with an event{why}") from None
    if not isinstance(token, str) or not TOKEN.fullmatch(token):
        raise HubNotReached(f"{base} did not answer with a hub's station token")
    if not event.divisions or any(not HEX64.match(d.fingerprint) for d in event.divisions):
        raise HubNotReached(f"{base} answered an event without its lists pinned")
    return Joined(base, token, event, code, fingerprint)  # the address typed, whatever it says


def shelved(fingerprint: str, shelf: str | None = None) -> str | None:
    """The shelf's file holding the list with FINGERPRINT, or None (SHELF: the shelf's folder,
    default the user's)."""
    return next((e.path for e in shelves.entries(shelf)
                 if e.identity is not None and e.identity.fingerprint == fingerprint), None)


def fetch_list(hub: str, code: str, fingerprint: str, shelf: str | None = None,
               timeout: float = LIST_TIMEOUT, token: str = "", key: bytes | None = None,
               pin: str = "") -> str:
    """The list FINGERPRINT fetched from HUB onto the shelf (SHELF: its folder, default the
    user's), when not there already: checked to be that very list before it is shelved (its
    fingerprint, then its words against it). Its path on the shelf. CODE: the join code; or
    TOKEN and KEY: the station token and the station's key of a joined station the director
    accepted (following a change of list: the request is signed with the key). PIN: the SHA-256
    of the hub's certificate (none: the one pinned before, pins.py)."""
    pins.trust(hub, pin)
    if not HEX64.match(fingerprint):
        raise LexiconError(f"{fingerprint[:70]!r} is not a list's fingerprint")
    held = shelved(fingerprint, shelf)
    if held is not None:
        return held
    with tempfile.TemporaryDirectory(prefix="adjudicator-join-") as folder:
        got = os.path.join(folder, "fetched.lex")
        with open(got, "wb") as f:
            _get(f"{hub}/lexicon/{fingerprint}?code={quote(code, safe='')}", timeout, MAX_LIST,
                 into=f, token=token, key=key)
        try:
            lex = Lexicon.load(got)
        except LexiconError as e:
            raise LexiconError(f"the list the hub sent for {fingerprint[:12]} is not a usable "
                               f"list ({str(e).split(': ', 1)[-1]}); nothing was shelved") from None
        if lex.fingerprint != fingerprint:
            raise LexiconError(f"the hub sent another list ({visible(lex.name)[:40]}, "
                               f"{lex.fingerprint[:12]}) for {fingerprint[:12]}; nothing was "
                               "shelved")
        known = lex.identity.known
        if known is None or not known.tournament or not SHELF_NAME.fullmatch(lex.name):
            raise LexiconError(f"the hub sent {visible(lex.name)[:40]} ({fingerprint[:12]}), "
                               "which is not an official tournament list; nothing was shelved")
        named = os.path.join(folder, f"{lex.name}.lex")
        os.replace(got, named)
        try:
            return shelves.add(named, folder=shelf).path  # its words checked there too
        except AdjudicatorError:
            raise
        except OSError as e:
            raise FileAccessError(f"cannot shelve {lex.name}: {e.strerror or e}") from None
