"""How a station service starts forwarding to the hub: now, or when its deferred journal opens.

Light on purpose (no network or SQLite imports): the kiosk calls it before its first paint, and
the sender (forward.py, with urllib) is only imported once the journal is open, just after.
"""

from __future__ import annotations


def forward_station(station):
    """Start STATION's sender (one per journal in this process): now when its journal is open
    (the Forwarder, to stop at close), else as soon as the journal is opened (the kiosk opens it
    just after the first paint; None here)."""
    if station.journal_pending:
        opener = station._opener

        def open_and_forward():
            opened = opener()
            start(station)
            return opened
        station._opener = open_and_forward
        return None
    return start(station)


def start(station):
    from .forward import forward_journal
    from .status import station_status

    config = station.config
    forwarder = forward_journal(config.journal, config.hub, config.hub_token,
                                station_status(station), pin=config.hub_fingerprint)
    station.hub_link = forwarder  # its describe(): the link's state, for any surface to show
    forwarder.on_event = station.follow  # the hub's event, taken at the next Ready (issue 27)
    forwarder.event_wanted = station.following.wants  # and again when a retry is due (40)
    forwarder.on_name = station.renamed  # the name the director gave it, taken there too
    return forwarder
