"""A station's hub link, made one way for every surface: live (a sender thread) or once (a pass).

Light on purpose (no network or SQLite imports): the kiosk calls it before its first paint, and
the sender (forward.py, with urllib) is only imported once the journal is open, just after.
LIVE: the kiosk, the runner's desk, the phone server (one running sender a journal, following
the hub's event at Ready). ONCE: a terminal command (`judge`, `judge --config`, `journal
push`): a sender not started, asked (Forwarder.ask) or pushed (Forwarder.push) within a limit,
then stopped; a station's change is taken as it comes (no screen, no challenge under way).
"""

from __future__ import annotations

LIVE, ONCE, NO_LINK = "live", "once", "none"
LINKS = (LIVE, ONCE, NO_LINK)


def attach(station, how: str = LIVE, *, timeout: float | None = None, follow: bool = True):
    """STATION's link to the hub its config names (station.hub_link; None without a hub, or
    while a deferred journal is not open yet: it starts as soon as it is, on_journal_open).
    HOW: LIVE or ONCE (module docstring); TIMEOUT: seconds one request may take, whole;
    FOLLOW False: the hub's event and name are not taken (a list given on the command line)."""
    if how not in LINKS:
        raise ValueError(f"a station's link is one of {', '.join(LINKS)}, not {how!r}")
    if how == NO_LINK or not station.config.hub:
        return None
    if how == ONCE:
        station.takes_at_once = True  # no screen, no challenge under way: taken as it comes
        forwarder = open_link(station.config, station=station, timeout=timeout)
        if not follow:
            station.hub_link = forwarder
            return forwarder
        return _follow(station, forwarder)
    station.on_journal_open(lambda: _follow(station, open_link(station.config, LIVE,
                                                               station=station)))
    return station.hub_link


def open_link(config, how: str = ONCE, *, station=None, timeout: float | None = None):
    """The sender for CONFIG's journal and hub: LIVE, the one running for that journal in this
    process (forward.forward_journal); ONCE, a new one not started. Its heartbeat says what
    STATION judges with (status.py), else only what the config says (`journal push`)."""
    from adjudicator.link.status import config_status, station_status

    status = station_status(station) if station is not None else config_status(config)
    if how == LIVE:
        from adjudicator.link.forward import forward_journal

        return forward_journal(config.journal, config.hub, config.hub_token, status,
                               pin=config.hub_fingerprint)
    from adjudicator.link.forward import Forwarder
    from adjudicator.link.hubclient import TIMEOUT

    return Forwarder(config.journal, config.hub, config.hub_token, status=status,
                     timeout=TIMEOUT if timeout is None else timeout, pin=config.hub_fingerprint)


def _follow(station, forwarder):
    """FORWARDER hands STATION the hub's event and the name it gives (follow.py, issue 27)."""
    station.hub_link = forwarder  # its describe(): the link's state, for any surface to show
    forwarder.on_event = station.follow  # the hub's event, taken at the next Ready (issue 27)
    forwarder.event_wanted = station.following.wants  # and again when a retry is due (40)
    forwarder.on_name = station.renamed  # the name the director gave it, taken there too
    return forwarder
