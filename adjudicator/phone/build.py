"""Building the phone application from an event's config: its lists by table (lists.py),
journal, one Station per device (all sharing them and one TableCounts). Reusable by any server
that hosts the page."""

from __future__ import annotations

from typing import TextIO

from adjudicator.config.station import Config
from adjudicator.station.lists import TableLists
from adjudicator.net.token import TokenStore
from adjudicator.station.service import Station, TableCounts, open_station
from adjudicator.phone.limits import Limits
from adjudicator.phone.server import PhoneApp


def stations_for(config: Config, lists: TableLists, journal, journal_problem: str = "",
                 leader: Station | None = None):
    """station_for(label) for PhoneApp: every device's Station shares the lists by table (each
    served division's, chosen by the phone's table), the journal and one TableCounts; its
    journal name is "<station> / <device label>". LEADER: the station whose sender follows the
    hub's event: each device's takes its change at a table's Ready."""
    counts = TableCounts()
    counts.count("", journal)  # read the journal's tables now, before any phone judges

    def station_for(label: str) -> Station:
        station = Station(config, leader.lists if leader else lists, journal, session=label,
                          journal_problem=journal_problem, table_counts=counts)
        station.leader = leader
        return station

    return station_for


def build_phone_app(config: Config, *, tokens: TokenStore, limits: Limits | None = None,
                    out: TextIO | None = None, warn=None) -> PhoneApp:
    """The PhoneApp for CONFIG in smart-device mode (WESPA 3.11.1(b)); its journal is closed by
    PhoneApp.close(). WARN(text) is told when the journal cannot be opened (verdicts then say
    NOT RECORDED). Serve it with PhoneServer, or mount `app.make_app(routes)` elsewhere.
    With the event's divisions in CONFIG it serves every division: a phone's table decides the
    list (a list not the one a division pins: LexiconError, exit 3, before anything listens)."""
    config = config.with_changes(mode="smart-device")
    # its lists by table, journal and sender made as every surface's (station.open_station):
    # the leader's sender follows the hub's event for every phone (each takes it at its Ready)
    leader = open_station(config)
    lists = leader.lists
    journal, problem = leader.journal, leader.journal_problem
    if journal is None and warn is not None:
        warn(f"{problem}: verdicts will say NOT RECORDED")
    leader.takes_at_once = True
    app = PhoneApp(stations_for(config, lists, journal, problem, leader),
                   tokens=tokens, timers=config.timers, limits=limits, out=out)
    app.setup = setup_lines(config, lists)
    if leader.hub_link is not None:  # every phone's row to the director's hub
        app.on_close.append(leader.hub_link.stop)
    if journal is not None:
        app.on_close.append(journal.close)
    return app


def setup_lines(config: Config, lists: TableLists) -> list[str]:
    """What `adjudicator serve` says at start: the event, each list (name, edition, fingerprint),
    the journal, the hub."""
    lines = [f"Event: {config.event}"]
    if not lists.by_division:
        lines.append(f"List: {_list_line(lists.first)} · {config.challenge_rule.value}")
    else:
        for s in lists.served:
            tables = f" (tables {s.division.tables_text})" if s.division.tables else ""
            lines.append(f"Division {s.division.name}{tables}: {_list_line(s.lexicon)} · "
                         f"{s.division.challenge_rule.value}")
    lines.append(f"Journal: {config.journal}")
    lines.append(f"Hub: {config.hub or 'none (rows stay in this journal)'}")
    return lines


def _list_line(lexicon) -> str:
    identity = lexicon.identity
    edition = identity.known.title if identity.known else "UNRECOGNISED LIST"
    return f"{identity.name} — {edition} — {identity.short_fingerprint}"
