"""The event at the hub over HTTP: the join address, the lists it serves, the director's panel.

GET /join?code=C: the event and the hub lines for `adjudicator join` (the station token included;
never the PIN's hash, which goes to accepted stations only, in the event of the hub's answers);
GET /lexicon/<fingerprint>?code=C, or signed by a station the director accepted: a compiled list
the event names (never any other file, never to the hub_token alone);
GET /api/event?key=K and POST /api/event?key=K: the director's Event panel (the lists offered
are the hub's shelf's official ones, by name; a new PIN of 6 digits or more); a change is
written to hub.toml (comments kept), journaled in the hub journal (who, where, when, what) and
makes the event's version one higher; a save from a panel loaded at an older version is refused
with what changed since (two directors never undo each other's change unseen).
"""

from __future__ import annotations

import asyncio
import hmac
from dataclasses import replace

from aiohttp import web

from adjudicator import wire
from adjudicator.errors import AdjudicatorError, ConfigError
from adjudicator.event.setup import HEX64, MAX_DIVISIONS, Event, EventError, parse_event, to_dict
from adjudicator.event.history import EventHistory
from adjudicator.event.pin import SHORT_PIN, hash_event_pin, short_pin
from adjudicator.judging.rules import ChallengeRule
from adjudicator.text.visible import visible
from adjudicator.hub.refusals import RequestRefused
from adjudicator.hub.event_setup import describe_change, pin_hash_in, same, save_event, shelf_lists
from adjudicator.hub.routing import Hub, bound


HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer"}
MAX_PANEL_BODY = 16 * 1024  # a panel's change: 26 divisions of a few short fields
WRONG_CODE = ("wrong join code: use the whole `adjudicator join` line the hub printed "
              "(the code changes only with a new hub journal)")


def _code_ok(hub: Hub, request: web.Request) -> bool:
    given = request.query.get("code", "")
    return bool(given) and hmac.compare_digest(given.encode("utf-8", "replace"),
                                               hub.join_code.encode("ascii"))


def _error(status: int, why: str) -> web.Response:
    return web.json_response({"error": why}, status=status, headers=HEADERS)


async def join(hub: Hub, request: web.Request) -> web.Response:
    """What a joining station needs: the hub lines and the event (its lists by fingerprint)."""
    if not _code_ok(hub, request):
        hub.log(f"refused /join from {request.remote or '?'}: wrong join code")
        return _error(403, WRONG_CODE)
    if hub.event is None or not hub.event.divisions:
        return _error(409, "this hub runs no event yet: the director sets [event] and "
                      "[[division]] in hub.toml, or on the director's page")
    base = f"{request.scheme}://{request.host}"
    shape = to_dict(hub.event)  # never the PIN's hash: it goes to accepted stations only,
    shape["event"] = {**shape["event"], "pin_hash": ""}  # in the event of the hub's answers
    return web.json_response({"hub": base, "hub_token": hub.station_token, **shape},
                             headers=HEADERS)


def _accepted_station(hub: Hub, request: web.Request) -> web.Response | None:
    """None when an accepted station signed this GET (its key, a fresh stamp of the hub's: the
    hub_token alone opens nothing here, players may know it); else the refusal (401 with a
    stamp to sign again with, as wire.py says, or 403)."""
    auth = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not (auth and hmac.compare_digest(auth.encode("utf-8", "replace"),
                                         hub.station_token.encode("ascii"))):
        return _error(403, WRONG_CODE)
    key_id = str(request.headers.get(wire.KEY_ID, ""))[:40]
    key = hub.identities.keys.get(key_id)
    if key is None or not key.accepted:
        return _error(403, "a list goes to a station the director accepted, or with the "
                      "join code")
    stamp = str(request.headers.get(wire.STAMP, ""))[:wire.MAX_STAMP]
    signature = request.headers.get(wire.SIGNATURE)
    try:
        if not stamp:
            raise RequestRefused(401, "sign the request with the hub's stamp (this answer has one)")
        if not wire.signed_by(key.secret, request.path, b"", signature, stamp):
            return _error(403, "the request is not signed by the station's key")
        hub.stamps.check(key_id, stamp, signature)
    except RequestRefused as e:
        return web.json_response({"error": e.why, "stamp": hub.stamps.issue()},
                                 status=e.status, headers=HEADERS)
    return None


async def lexicon(hub: Hub, request: web.Request) -> web.StreamResponse:
    """A list the event names, compiled, to a holder of the join code, or to a station the
    director accepted (a signed request: a joined station fetching a list the director changed
    to); never to the hub_token alone."""
    if not _code_ok(hub, request):
        refused = _accepted_station(hub, request)
        if refused is not None:
            return refused
    fingerprint = request.match_info.get("fingerprint", "")
    named = {d.fingerprint for d in (hub.event.divisions if hub.event else ())}
    path = hub.event_lists.get(fingerprint) if HEX64.match(fingerprint) else None
    if fingerprint not in named or path is None:
        return _error(404, "no list of the event has that fingerprint")
    return web.FileResponse(path, headers={**HEADERS,
                                           "Content-Type": "application/octet-stream"})


async def panel(hub: Hub, request: web.Request) -> web.Response:
    """The Event panel's state: the event, the lists the hub can offer, the rules."""
    hub._director(request)
    hub.offered = await asyncio.get_running_loop().run_in_executor(None, shelf_lists)
    async with hub.event_lock:
        await _pin_from_hub_toml(hub)
    return web.json_response(_panel_state(hub), headers=HEADERS)


def _panel_state(hub: Hub) -> dict:
    event = to_dict(hub.event) if hub.event else None
    if event is not None:  # the page needs no hash: whether a PIN is set, and if too short
        event["event"] = {**event["event"], "pin_hash": ""}
    pin = hub.event.pin_hash if hub.event else ""
    return {"event": event, "lists": sorted(hub.offered),
            "rules": [r.value for r in ChallengeRule], "config": hub.config_path,
            "pin_set": bool(pin), "pin_warning": SHORT_PIN if short_pin(pin) else ""}


async def change(hub: Hub, request: web.Request) -> web.Response:
    """The director's change: {"version": the event's version the panel was loaded at, "name":
    ..., "pin": a new PIN or "", "divisions": [{name, lexicon, challenge_rule, tables}]}; each
    list chosen by name among the hub's shelf's official lists. A change from a panel loaded
    before another change is refused (409) with what changed since: nothing is overwritten."""
    hub._director(request)
    hub.offered = await asyncio.get_running_loop().run_in_executor(None, shelf_lists)
    if not hub.config_path:
        return _error(409, "this hub was started without a config file to keep the event in")
    try:
        said = wire.decode(await request.content.read(MAX_PANEL_BODY + 1))
        if not isinstance(said, dict) or len(str(said)) > MAX_PANEL_BODY:
            raise EventError("the change must be the panel's fields")
        loaded, pin = _version_and_pin(said)
        if pin:
            pin = await asyncio.get_running_loop().run_in_executor(None, hash_event_pin, pin)
    except (wire.WireError, EventError, ConfigError) as e:
        return _error(400, visible(str(e))[:300])
    async with hub.event_lock:  # two directors' changes: one after the other, each versioned
        await _pin_from_hub_toml(hub)
        current = hub.event.version if hub.event else 0
        if loaded != current:
            return _stale(hub, loaded)
        try:
            new = _event_from_panel(hub, said, pin)
        except EventError as e:
            return _error(400, visible(str(e))[:300])
        return await _make(hub, request, new)


def _version_and_pin(said: dict) -> tuple[int, str]:
    """The version the panel was loaded at, and the new PIN typed ("" for none), checked."""
    version = said.get("version")
    if type(version) is not int or not 0 <= version < 10**12:  # noqa: E721 - not a bool
        raise EventError("the save carries the event's version the panel was loaded at")
    pin = said.get("pin", "")
    if type(pin) is not str:  # noqa: E721
        raise EventError("the new PIN must be text")
    return version, pin  # checked by pin.check_event_pin as it is hashed


def _stale(hub: Hub, loaded: int) -> web.Response:
    """A save from a panel loaded at version LOADED, since changed: refused, with the changes."""
    since = [c for c in hub.ledger.event_changes()
             if isinstance(c.get("version"), int) and c["version"] > loaded]
    what = "; ".join(f"version {c['version']} by the {c.get('who', '?')}: {c.get('what', '')}"
                     for c in since[-5:]) or "the event was set again"
    current = hub.event.version if hub.event else 0
    return web.json_response({
        "error": visible(f"the event changed since this panel was loaded (version {loaded}, "
                         f"now {current}): {what}. Nothing was saved: the panel shows the "
                         "event as it is now; make the change again")[:900],
        "stale": True, **_panel_state(hub)}, status=409, headers=HEADERS)


async def _pin_from_hub_toml(hub: Hub) -> None:
    """A PIN set with `set-pin --config hub.toml` since the hub read it: taken now, journaled
    as hub.toml's (never as the page's act)."""
    if hub.event is None or not hub.config_path:
        return
    pin = pin_hash_in(hub.config_path)
    if pin is None or pin == hub.event.pin_hash:
        return
    new = replace(hub.event, pin_hash=pin, version=hub.event.version + 1)
    who = f"hub.toml ({hub.config_path}): set-pin --config or a hand edit"
    loop = asyncio.get_running_loop()
    try:
        await loop.run_in_executor(hub._writer, hub.ledger.record_event, to_dict(new), who,
                                   "director PIN changed")
    except AdjudicatorError:
        return  # not journaled: not taken (read again at the next look)
    hub.event = new
    hub.log(f"event changed (version {new.version}) by {who}: director PIN changed")
    hub.board.version += 1
    hub._notify()


async def _make(hub: Hub, request: web.Request, new: Event) -> web.Response:
    if same(new, hub.event):
        return web.json_response({"changed": False, **_panel_state(hub)}, headers=HEADERS)
    before = hub.event
    new = replace(new, version=(before.version if before else 0) + 1)
    what = describe_change(before, new)
    who = f"director (from {request.remote or '?'}) on the director's page"
    lists = {**hub.event_lists, **{fp: path for fp, path in hub.offered.values()}}
    loop = asyncio.get_running_loop()
    try:
        await loop.run_in_executor(hub._writer, save_event, hub.config_path, new, before,
                                   hub.tables_from_tsh)
    except AdjudicatorError as e:
        return _error(503, f"the change was not made: {e}")
    try:
        await loop.run_in_executor(hub._writer, hub.ledger.record_event, to_dict(new), who, what)
    except AdjudicatorError as e:  # not journaled: not made (hub.toml put back as it was)
        if before is not None:
            await loop.run_in_executor(hub._writer, save_event, hub.config_path, before, new,
                                       hub.tables_from_tsh)
        return _error(503, f"the change was not made: the hub journal did not take it ({e})")
    hub.event = new
    hub.event_lists = {d.fingerprint: lists[d.fingerprint] for d in new.divisions}
    changes = await loop.run_in_executor(hub._writer, hub.ledger.event_changes)
    hub.board.history = EventHistory.from_changes(changes)  # the rows' check: since when
    hub.log(f"event changed (version {new.version}) by the {who}: {what}")
    hub.board.version += 1
    hub._notify()
    return web.json_response({"changed": True, "what": what, **_panel_state(hub)},
                             headers=HEADERS)


def _event_from_panel(hub: Hub, said: dict, pin: str = "") -> Event:
    """The event the panel's fields say; PIN: the new PIN's hash ("" keeps the event's)."""
    divisions = said.get("divisions")
    if not isinstance(divisions, list) or not divisions or len(divisions) > MAX_DIVISIONS:
        raise EventError(f"an event has 1 to {MAX_DIVISIONS} divisions")
    table = []
    for d in divisions:
        if not isinstance(d, dict):
            raise EventError("a division must be its fields")
        chosen = d.get("lexicon")
        if not isinstance(chosen, str) or chosen not in hub.offered:
            raise EventError(f"division {visible(str(d.get('name')))[:40]}: choose its list "
                             "among the hub's lists (adjudicator lexicon add FILE on the hub)")
        table.append({"name": d.get("name", ""), "lexicon": chosen,
                      "fingerprint": hub.offered[chosen][0],
                      "challenge_rule": d.get("challenge_rule", "5-per-word"),
                      "tables": d.get("tables", "")})
    pin = pin or (hub.event.pin_hash if hub.event else "")
    return parse_event({"name": said.get("name", ""), "pin_hash": pin}, table)


def add_routes(app: web.Application, hub: Hub) -> None:
    app.router.add_get("/join", bound(hub, join))
    app.router.add_get("/lexicon/{fingerprint}", bound(hub, lexicon))
    app.router.add_get("/api/event", bound(hub, panel))
    app.router.add_post("/api/event", bound(hub, change))


def load_event(hub: Hub, event: Event | None, lists: dict[str, str], config_path: str,
               tables_from_tsh: frozenset[str] = frozenset()) -> None:
    """Hub.event at start: hub.toml's (lists pinned), its version one past the last journaled
    when it differs from it (a hand edit of hub.toml is journaled as the director's too).
    TABLES_FROM_TSH: the divisions whose tables tsh gave (never written into hub.toml)."""
    hub.config_path = config_path
    hub.tables_from_tsh = tables_from_tsh
    hub.event_lists = dict(lists)
    if event is None:
        return
    last = hub.ledger.last_event()
    previous = parse_event(last["event"], last["division"]) if last else None
    version = previous.version if previous else 0
    if same(previous, event):
        hub.event = replace(event, version=version)
        return
    hub.event = replace(event, version=version + 1)
    hub.ledger.record_event(to_dict(hub.event), f"hub.toml ({config_path})",
                            describe_change(previous, hub.event))
    hub.board.history = EventHistory.from_changes(hub.ledger.event_changes())
