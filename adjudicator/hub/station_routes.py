"""The director's Accept, Reject and Rename of a station (POST with the director's key).

Each is idempotent where the director may press twice: a second Accept (or two pages pressing it
at once, or a POST sent again) answers 200 and changes no count (issue 41 item 5). A name is
checked as people read it (identity.unreadable): Accept refuses a station waiting under a name
that reads like an accepted one's or mixes scripts, Rename refuses such a new name.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

from adjudicator import wire
from adjudicator.hub.refusals import RequestRefused
from adjudicator.hub.routing import Hub, bound, director_said

HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}  # every page's


def printable(text: str) -> str:
    """TEXT for the hub's log: anything not printable as "?"."""
    return "".join(c if c.isprintable() else "?" for c in text)


async def _said_key(hub: Hub, request: web.Request) -> str | None:
    """The station key id a director's POST names ({"station": key id}), or None."""
    key_id = (await director_said(hub, request, 1024)).get("station")
    return key_id if type(key_id) is str else None  # noqa: E721

async def accept_station(hub: Hub, request: web.Request) -> web.Response:
    """The director accepts a new station (POST with the director's key): its rows join
    the board from the hub journal, and it counts from now on."""
    key_id = await _said_key(hub, request)
    held = hub.identities.keys.get(key_id or "")
    if held is not None and held.accepted:  # a second Accept, concurrent or replayed:
        return web.json_response({"accepted": held.key_id, "already": True},  # no count
                                 headers=HEADERS)  # changes (its rows are on the board)
    known = hub.identities.accept(key_id) if key_id else None
    if known is None:
        return web.json_response({"error": "no such new station"}, status=404,
                                 headers=HEADERS)
    if isinstance(known, RequestRefused):
        return web.json_response({"error": known.why}, status=409, headers=HEADERS)
    known.stored = True  # the director vouched for it: kept, even before its first row
    takes, known.takes = known.takes, ""
    loop = asyncio.get_running_loop()
    meanwhile = hub._accepting[known.key_id] = []
    try:
        await loop.run_in_executor(hub._writer, hub.ledger.keep_key, known,
                                   hub.identities.name_of(known.key_id) or takes)
        rows = await loop.run_in_executor(hub._writer, hub.ledger.rows_of,
                                          known.journal_id)
        hub.board.accepted(known.key_id, known)
        # Rows stored while it was being accepted: its first ones bind its journal, which
        # rows_of may have been asked for before they did (a station heard first by its
        # heartbeat). Each row once.
        journal_id, held = known.journal_id, {r["origin_seq"] for r in rows}
        for sent_to, batch in meanwhile:
            if sent_to == journal_id:
                rows += [r for r in batch if r["origin_seq"] not in held]
                held.update(r["origin_seq"] for r in batch)
        if journal_id:
            hub.board.add_rows(journal_id, rows, key=known, live=False)
    finally:
        hub._accepting.pop(known.key_id, None)
    hub._notify()
    return web.json_response({"accepted": known.key_id}, headers=HEADERS)

async def rename_station(hub: Hub, request: web.Request) -> web.Response:
    """The director renames an accepted station (POST {"station": key id, "name": new}
    with the director's key): the one way an accepted station's name changes."""
    said = await director_said(hub, request, 1024)
    key_id, name = said.get("station"), said.get("name")
    if type(key_id) is not str or type(name) is not str:  # noqa: E721
        return web.json_response({"error": "say the station's key and its new name"},
                                 status=400, headers=HEADERS)
    try:
        name = wire.check_text(name, "the new name", wire.MAX_NAME)
    except wire.WireError as e:
        return web.json_response({"error": str(e)}, status=400, headers=HEADERS)
    last = max((max(v.last_seq, v.acked) for v in hub.board.stations.values()
                if v.key_id == key_id), default=0)  # rows judged before the rename
    known = hub.identities.rename(key_id, name, last)
    if known is None:
        return web.json_response({"error": "no such accepted station"}, status=404,
                                 headers=HEADERS)
    if isinstance(known, RequestRefused):
        return web.json_response({"error": known.why}, status=409, headers=HEADERS)
    bound = hub.identities.name_of(known.key_id)
    await asyncio.get_running_loop().run_in_executor(hub._writer, hub.ledger.rename_key,
                                                     known, bound)
    hub.board.renamed(known.key_id, bound)
    hub.log(f"the director renamed a station {printable(bound)[:60]} (from "
             f"{known.address})")
    hub._notify()
    return web.json_response({"renamed": known.key_id, "name": bound}, headers=HEADERS)

async def reject_station(hub: Hub, request: web.Request) -> web.Response:
    """The director rejects a waiting station (POST with the director's key): its key is
    refused from now on, its rows count nowhere (they stay in the hub journal)."""
    key_id = await _said_key(hub, request)
    known = hub.identities.reject(key_id) if key_id else None
    if known is None:
        return web.json_response({"error": "no such waiting station"}, status=404,
                                 headers=HEADERS)
    await asyncio.get_running_loop().run_in_executor(hub._writer, hub.ledger.set_state,
                                                     known)
    hub.board.rejected(known.key_id)
    hub.log(f"the director rejected the station {printable(known.name)[:60]} "
             f"(from {known.address})")
    hub._notify()
    return web.json_response({"rejected": known.key_id}, headers=HEADERS)


def add_routes(app: web.Application, hub: Hub) -> None:
    app.router.add_post("/api/accept", bound(hub, accept_station))
    app.router.add_post("/api/reject", bound(hub, reject_station))
    app.router.add_post("/api/rename", bound(hub, rename_station))
