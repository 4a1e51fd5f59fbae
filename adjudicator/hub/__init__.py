"""The director's hub: stations forward their journal rows and heartbeats; one page shows the hall.

forward.py (station side: the outbox's sender; attach.py starts it for a station service,
status.py says what its heartbeat carries), ledger.py (the hub's merged journal), board.py
(what the page shows, alarms in words), server.py (the aiohttp hub), settings.py (hub.toml),
tsh.py (players' names at a table, from tsh's files), director.html (the page).
"""
