"""The director's hub: what runs on the director's laptop, taking every station's rows.

hub_journal.py (the hub's merged journal, and the stations' keys it knows), identity.py (which
station key sent a request: trust on first use, new stations bounded; station_key.py: one key),
refusals.py (what the hub refuses, and its alarms), board.py (what the page
shows, alarms in words), stream.py (the page's live feed: what changed), server.py (the
aiohttp hub), run.py (serving it: caps, timeouts, one-line log), settings.py (hub.toml),
event_setup.py (the event in it: lists pinned, changes written back), event_routes.py (the join
address, the lists served, the director's Event panel), station_routes.py (the director's
Accept, Reject, Rename), routing.py (their handlers bound to the hub), tsh.py
and jsliteral.py (players' names at a table, from tsh's JavaScript files), handled.py (alarm
groups the director marked handled), page_routes.py (the page and its files: director.html,
director.css, director.js, director-actions.js, director-alarms.js, director-event.js).
The station's side is adjudicator/link/; the wire format between them is adjudicator/wire.py.
"""
