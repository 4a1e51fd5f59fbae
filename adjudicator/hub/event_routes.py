"""The event at the hub over HTTP: the join address, the lists it serves, the director's panel.

GET /join?code=C: the event and the hub lines for `adjudicator join` (the station token included);
GET /lexicon/<fingerprint>?code=C: a compiled list the event names (never any other file);
GET /api/event?key=K and POST /api/event?key=K: the director's Event panel (the lists offered
are the hub's shelf's official ones, by name); a change is written to hub.toml (comments kept),
journaled in the hub journal (who, when, what) and makes the event's version one higher.
"""

from __future__ import annotations

import asyncio
import hmac
from dataclasses import replace
from typing import Any

from aiohttp import web

from .. import wire
from ..errors import AdjudicatorError
from ..event import HEX64, MAX_DIVISIONS, Event, EventError, parse_event, to_dict
from ..event_history import EventHistory
from ..rules import ChallengeRule
from ..visible import visible
from .event_setup import describe_change, pin_hash_in, same, save_event, shelf_lists

Hub = Any  # server.Hub (which imports this module)

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
    return web.json_response({"hub": base, "hub_token": hub.station_token,
                              **to_dict(hub.event)}, headers=HEADERS)


async def lexicon(hub: Hub, request: web.Request) -> web.StreamResponse:
    """A list the event names, compiled, to a holder of the join code, or to a station of the
    event (its station token: a joined station fetching a list the director changed to)."""
    auth = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    station = bool(auth) and hmac.compare_digest(auth.encode("utf-8", "replace"),
                                                 hub.station_token.encode("ascii"))
    if not station and not _code_ok(hub, request):
        return _error(403, WRONG_CODE)
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
    return web.json_response(_panel_state(hub), headers=HEADERS)


def _panel_state(hub: Hub) -> dict:
    return {"event": to_dict(hub.event) if hub.event else None,
            "lists": sorted(hub.offered), "rules": [r.value for r in ChallengeRule],
            "config": hub.config_path}


async def change(hub: Hub, request: web.Request) -> web.Response:
    """The director's change: {"name": ..., "divisions": [{name, lexicon, challenge_rule,
    tables}]}; each list chosen by name among the hub's shelf's official lists."""
    hub._director(request)
    hub.offered = await asyncio.get_running_loop().run_in_executor(None, shelf_lists)
    if not hub.config_path:
        return _error(409, "this hub was started without a config file to keep the event in")
    try:
        said = wire.decode(await request.content.read(MAX_PANEL_BODY + 1))
        if not isinstance(said, dict) or len(str(said)) > MAX_PANEL_BODY:
            raise EventError("the change must be the panel's fields")
        new = _event_from_panel(hub, said)
    except (wire.WireError, EventError) as e:
        return _error(400, visible(str(e))[:300])
    async with hub.event_lock:  # two directors' changes: one after the other, each versioned
        return await _make(hub, request, new)


async def _make(hub: Hub, request: web.Request, new: Event) -> web.Response:
    if same(new, hub.event):
        return web.json_response({"changed": False, **_panel_state(hub)}, headers=HEADERS)
    before = hub.event
    new = replace(new, version=(before.version if before else 0) + 1)
    what = describe_change(before, new)
    who = f"director (from {request.remote or '?'})"
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


def _event_from_panel(hub: Hub, said: dict) -> Event:
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
    pin = pin_hash_in(hub.config_path)  # set-pin --config hub.toml since the start: taken
    if pin is None:
        pin = hub.event.pin_hash if hub.event else ""
    return parse_event({"name": said.get("name", ""), "pin_hash": pin}, table)


def add_routes(app: web.Application, hub: Hub) -> None:
    def bound(handler):
        async def handle(request: web.Request) -> web.StreamResponse:
            return await handler(hub, request)
        return handle
    app.router.add_get("/join", bound(join))
    app.router.add_get("/lexicon/{fingerprint}", bound(lexicon))
    app.router.add_get("/api/event", bound(panel))
    app.router.add_post("/api/event", bound(change))


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
