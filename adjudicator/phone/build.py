"""Building the phone application from an event's config: lexicons, journal, one Station per
device (all sharing them and one TableCounts). Reusable by any server that hosts the page."""

from __future__ import annotations

from typing import TextIO

from adjudicator.config import Config
from adjudicator.net.token import TokenStore
from adjudicator.station import Station, TableCounts, load_lexicons, open_journal
from .limits import Limits
from .server import PhoneApp


def stations_for(config: Config, lexicon, secondary, journal, journal_problem: str = "",
                 leader: Station | None = None):
    """station_for(label) for PhoneApp: every device's Station shares the lexicons, the journal
    and one TableCounts; its journal name is "<station> / <device label>". LEADER: the station
    whose sender follows the hub's event: each device's takes its change at a table's Ready."""
    counts = TableCounts()
    counts.count("", journal)  # read the journal's tables now, before any phone judges

    def station_for(label: str) -> Station:
        station = Station(config, lexicon, journal, secondary=secondary, session=label,
                          journal_problem=journal_problem, table_counts=counts)
        station.leader = leader
        return station

    return station_for


def build_phone_app(config: Config, *, tokens: TokenStore, limits: Limits | None = None,
                    out: TextIO | None = None, warn=None) -> PhoneApp:
    """The PhoneApp for CONFIG in smart-device mode (WESPA 3.11.1(b)); its journal is closed by
    PhoneApp.close(). WARN(text) is told when the journal cannot be opened (verdicts then say
    NOT RECORDED). Serve it with PhoneServer, or mount `app.make_app(routes)` elsewhere."""
    config = config.with_changes(mode="smart-device")
    lexicon, secondary = load_lexicons(config)
    journal, problem = open_journal(config)
    if journal is None and warn is not None:
        warn(f"{problem}: verdicts will say NOT RECORDED")
    leader = Station(config, lexicon, journal, secondary=secondary)
    leader.takes_at_once = True  # each phone's station takes it at its table's next Ready
    app = PhoneApp(stations_for(config, lexicon, secondary, journal, problem, leader),
                   tokens=tokens, timers=config.timers, limits=limits, out=out)
    if journal is not None and config.hub:  # every phone's row to the director's hub
        from adjudicator.link.attach import forward_station

        sender = forward_station(leader)  # it follows the hub's event for every phone
        app.on_close.append(sender.stop)
    if journal is not None:
        app.on_close.append(journal.close)
    return app
