"""The station's side of the link to the director's hub: what runs in a station.

forward.py (the sender: the outbox's rows and a heartbeat, on its own thread), attach.py (starts
it for a station service), status.py (what a heartbeat carries), key.py (the station's secret
key, made on first contact and kept in its journal, that signs what it sends). The wire format
between the station and the hub is adjudicator/wire.py.
"""
