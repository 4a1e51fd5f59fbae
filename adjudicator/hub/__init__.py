"""The director's hub: what runs on the director's laptop, taking every station's rows.

ledger.py (the hub's merged journal, and the stations' keys it knows), identity.py (which
station key sent a request: trust on first use, new stations bounded), board.py (what the page
shows, alarms in words), server.py (the aiohttp hub), quiet.py (its log, repeats counted),
settings.py (hub.toml), tsh.py (players' names at a table, from tsh's files), director.html.
The station's side is adjudicator/link/; the wire format between them is adjudicator/wire.py.
"""
