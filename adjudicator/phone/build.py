"""Building the phone application from an event's config: lexicons (one per served division),
journal, one Station per device (all sharing them and one TableCounts). Reusable by any server
that hosts the page."""

from __future__ import annotations

from typing import TextIO

from adjudicator.config import Config
from adjudicator.divisions import load_division_lists
from adjudicator.net.token import TokenStore
from adjudicator.station import Station, TableCounts, load_lexicons, open_journal
from .limits import Limits
from .server import PhoneApp


def stations_for(config: Config, lexicon, secondary, journal, journal_problem: str = "",
                 divisions=None, leader: Station | None = None):
    """station_for(label) for PhoneApp: every device's Station shares the lexicons (DIVISIONS:
    each served division's, chosen by the phone's table), the journal and one TableCounts; its
    journal name is "<station> / <device label>". LEADER: the station whose sender follows the
    hub's event: each device's takes its change at a table's Ready."""
    counts = TableCounts()
    counts.count("", journal)  # read the journal's tables now, before any phone judges

    def station_for(label: str) -> Station:
        station = Station(config, lexicon, journal, secondary=secondary, session=label,
                          journal_problem=journal_problem, table_counts=counts,
                          divisions=divisions)
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
    divisions = load_division_lists(config)
    if divisions is None:
        lexicon, secondary = load_lexicons(config)
    else:
        from adjudicator.lexicon.library import load_lexicon

        lexicon, secondary = divisions.first, None
        if config.secondary_lexicon:
            secondary = load_lexicon(config.secondary_lexicon, dirs=list(config.lexicon_dirs))
    journal, problem = open_journal(config)
    if journal is None and warn is not None:
        warn(f"{problem}: verdicts will say NOT RECORDED")
    leader = Station(config, lexicon, journal, secondary=secondary, divisions=divisions)
    leader.takes_at_once = True  # each phone's station takes it at its table's next Ready
    app = PhoneApp(stations_for(config, lexicon, secondary, journal, problem, divisions, leader),
                   tokens=tokens, timers=config.timers, limits=limits, out=out)
    app.setup = setup_lines(config, divisions, lexicon)
    if journal is not None and config.hub:  # every phone's row to the director's hub
        from adjudicator.link.attach import forward_station

        sender = forward_station(leader)  # it follows the hub's event for every phone
        app.on_close.append(sender.stop)
    if journal is not None:
        app.on_close.append(journal.close)
    return app


def setup_lines(config: Config, divisions, lexicon) -> list[str]:
    """What `adjudicator serve` says at start: the event, each list (name, edition, fingerprint),
    the journal, the hub."""
    lines = [f"Event: {config.event}"]
    if divisions is None:
        lines.append(f"List: {_list_line(lexicon)} · {config.challenge_rule.value}")
    else:
        for s in divisions.served:
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
