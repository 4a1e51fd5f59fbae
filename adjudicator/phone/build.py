"""Building the phone application from an event's config: lexicons, journal, one Station per
device (all sharing them and one TableCounts). Reusable by any server that hosts the page."""

from __future__ import annotations

from typing import TextIO

from adjudicator.config import Config
from adjudicator.net.token import TokenStore
from adjudicator.station import Station, TableCounts, load_lexicons, open_journal
from .limits import Limits
from .server import PhoneApp


def stations_for(config: Config, lexicon, secondary, journal, journal_problem: str = ""):
    """station_for(label) for PhoneApp: every device's Station shares the lexicons, the journal
    and one TableCounts; its journal name is "<station> / <device label>"."""
    counts = TableCounts()
    counts.count("", journal)  # read the journal's tables now, before any phone judges

    def station_for(label: str) -> Station:
        return Station(config, lexicon, journal, secondary=secondary, session=label,
                       journal_problem=journal_problem, table_counts=counts)

    return station_for


def build_phone_app(config: Config, *, tokens: TokenStore, limits: Limits | None = None,
                    out: TextIO | None = None, warn=None) -> PhoneApp:
    """The PhoneApp for CONFIG in smart-device mode (WESPA 3.11.1(b)); its journal is closed by
    PhoneApp.close(). WARN(text) is told when the journal cannot be opened (verdicts then say
    NOT RECORDED). With a hub in the config, the journal's rows are forwarded to it. Serve it
    with PhoneServer, or mount `app.make_app(routes)` elsewhere."""
    config = config.with_changes(mode="smart-device")
    lexicon, secondary = load_lexicons(config)
    journal, problem = open_journal(config)
    if journal is None and warn is not None:
        warn(f"{problem}: verdicts will say NOT RECORDED")
    app = PhoneApp(stations_for(config, lexicon, secondary, journal, problem), tokens=tokens,
                   timers=config.timers, limits=limits, out=out)
    if journal is not None and config.hub:  # every row to the director's hub (docs/hub.md)
        forwarder = _forward(config, Station(config, lexicon, journal, secondary=secondary))
        app.on_close.append(lambda: forwarder.stop(1.0))
    if journal is not None:
        app.on_close.append(journal.close)
    return app


def _forward(config: Config, station: Station):
    """The journal's one sender to the hub (off the verdict path), its heartbeat saying what
    STATION (the server's config and lexicon) says."""
    from adjudicator.hub.forward import forward_journal
    from adjudicator.hub.status import station_status

    return forward_journal(config.journal, config.hub, config.hub_token, station_status(station))
