"""The director's board: what every station is doing, and its alarms in words, from rows and beats.

Pure bookkeeping (no network, no files): the hub feeds it the rows it has just added to its
journal and each station's heartbeat, and serves snapshot() to the director's page. What it shows
per challenge is what the journal already holds for the director (the words, the ONE verdict,
the flags); nothing per word, ever.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta, timezone

from adjudicator.event.history import (
    AGREES,
    DISAGREES,
    Check,
    EventHistory,
    local_time,
)
from adjudicator.config.station_name import of_station, with_base
from adjudicator.event.tables import group_key, shown
from adjudicator.text.visible import visible
from adjudicator.hub.alarmlist import (
    WORDS_SHOWN,
    WRONG_ROWS,
    flags_of,
    shown_flags,
)
from adjudicator.hub.eventalarms import beat as event_beat
from adjudicator.hub.eventalarms import station_lists
from adjudicator.hub.handled import Handled
from adjudicator.hub.kept import FlagCounts, keep_wrong
from adjudicator.hub.hub_journal import CHECK
from adjudicator.hub.pagestate import FROM, LEVELS, majority_fingerprint, page_state, shown_entries
from adjudicator.hub.refusals import Refusals
from adjudicator.hub.stationview import Newest, StationView
from adjudicator.hub.table_rows import TableBook
from adjudicator.hub.waiting import Waiting

SILENT_AFTER = 15.0  # seconds without a heartbeat before a station is "silent"
SPLIT_WINDOW = 90.0  # seconds: the same table at two stations this close is a possible split
CLOCK_AHEAD = timedelta(minutes=5)  # a row dated further ahead of the hub's clock is flagged
CLOCK_AHEAD_FLAG = "clock ahead"
LATEST = 25  # challenges listed on the page
TABLE_LATEST = 5  # challenges kept for each table
SPLIT_FLAG = "possible split look-up"


class Board:
    """Everything the director's page shows; version changes with every update."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
                 silent_after: float = SILENT_AFTER,
                 names: Callable[[str, str], str] | None = None,
                 names_warning: Callable[[], dict | None] | None = None):
        """NAMES(table, round) -> the players at that table (tsh.py), when the hub knows;
        NAMES_WARNING() -> why tsh's file does not read now, and since when (None: it does)."""
        self.clock, self.wall, self.silent_after = clock, wall, silent_after
        self.names, self.names_warning = names, names_warning
        self.stations: dict[str, StationView] = {}
        self.tables = TableBook(lambda: Newest(TABLE_LATEST))  # hub/tables.py
        self.latest = Newest(LATEST)
        self.flagged = FlagCounts()  # flagged challenges, counted per station and table (kept.py)
        self._last_at_table: dict[str, tuple[str, str, datetime]] = {}
        self.refusals = Refusals(clock)  # refused requests as alarms (refusals.py)
        self.waiting = Waiting(wall)  # stations the director has not accepted (waiting.py)
        self.event_of = lambda: None  # the hub's event (Hub.event): its alarms replace the vote
        self.bound_name: Callable[[str], str] = lambda key_id: ""  # Identities.name_of: the
        # name the director accepted (or renamed) a station under, whatever it sends under
        self.history = EventHistory()  # its versions and since when (Hub: the journal's)
        self.wrong_lists: dict[tuple, list] = {}  # rows the hub's check flagged: counted alarms
        self._order = 0  # rows taken into wrong_lists, counted: the hub's own order of them
        self.checks: Counter = Counter()  # accepted stations' rows by the hub's check (audit.py)
        self.handled = Handled({}, clock)  # alarm groups marked handled (Hub: the journal's)
        self.version = 0

    def station(self, journal_id: str) -> StationView:
        if journal_id not in self.stations:
            self.stations[journal_id] = StationView(journal_id)
        return self.stations[journal_id]

    def add_rows(self, journal_id: str, rows: Iterable[Mapping], acked: int | None = None,
                 key=None, live: bool = True) -> None:
        """Rows the hub has just added for station JOURNAL_ID (hub journal columns); KEY: the
        station's key (identity.StationKey) when known. LIVE: the station sent them now (it is
        heard now); else they come from the hub's journal at a restart, and the station was
        last heard when its latest row was judged. A station the director has not accepted
        counts nowhere: its rows go to the waiting panel only (waiting.py)."""
        rows = list(rows)
        if key is not None and not key.accepted:
            if getattr(key, "state", 0) >= 0:  # a rejected or dropped key's rows: ignored
                self.waiting.rows(key, journal_id, rows, acked, live)
            self.version += 1
            return
        if journal_id not in self.stations and (rows or key is not None):
            self._forget_empty(str(rows[0]["station"]) if rows else "", journal_id, key)
        view = self.station(journal_id)
        self._keyed(view, key)
        for row in rows:
            self._add(view, row)
        if acked is not None:
            view.acked = max(view.acked, acked)
        if rows:
            view.refused = ""
        if live:
            view.last_beat, view.heard = self.clock(), self.wall()
        else:
            latest = max((w for w in (_parse(r.get("time_utc")) for r in rows)
                          if w and w <= self.wall() + CLOCK_AHEAD), default=None)
            if latest is not None:
                ago = max(0.0, (self.wall() - latest).total_seconds())
                heard = self.clock() - ago
                if view.last_beat is None or heard > view.last_beat:
                    view.last_beat, view.heard = heard, min(latest, self.wall())
        self.version += 1

    def restore(self, rows: Iterable[Mapping], acked: Mapping[str, int],
                keys: Mapping | None = None) -> None:
        """The board after a restart, from every row of the hub's journal, in the time each was
        judged: stations with what they judge with and when they were last heard, the latest
        challenges, split look-ups; ACKED: each station journal's acknowledged sequence; KEYS:
        journal id -> its station key (identity.StationKey), as the hub journal binds them."""
        keys = keys or {}
        for row in sorted(rows, key=lambda r: (_parse(r.get("time_utc")) or _EPOCH,
                                               r.get("seq") or 0)):
            journal_id = str(row.get("origin_journal") or "")
            self.add_rows(journal_id, [row], key=keys.get(journal_id), live=False)
        for journal_id, seq in acked.items():
            if journal_id in self.stations:
                self.stations[journal_id].acked = max(self.stations[journal_id].acked, seq)

    def wrong_token(self, address: str, station: str) -> None:
        """A sender at ADDRESS used a wrong hub_token (shown for a minute after its last try)."""
        self.refusals.wrong_token(address, station)
        self.version += 1

    def intruder(self, address: str, station: str, text: str, key: str = "",
                 kind: str = "") -> None:
        """A request the hub refused (a forgery, a key conflict, a message no station sends):
        one alarm per sender and KIND, counted (refusals.py)."""
        self.refusals.refused(address, station, text, key, kind)
        self.version += 1

    def forget(self, key_id: str) -> None:
        """The hub forgot this key (it never sent a row, or the waiting list needed its room):
        its station goes from the page."""
        if self.waiting.forget(key_id):
            self.version += 1
        for journal_id, view in list(self.stations.items()):
            if view.key_id == key_id and view.challenges == 0:
                del self.stations[journal_id]
                self.version += 1

    def accepted(self, key_id: str, key=None) -> None:
        """The director accepted the station with this key: it leaves the waiting panel (the
        server then adds its rows), its last heartbeat is taken as heard when it came, and what
        it was refused for is settled."""
        entry = self.waiting.entries.pop(key_id, None)
        if entry is not None and entry.beat is not None and key is not None:
            self.heartbeat(entry.journal_id, entry.beat, key)
            view = self.stations[entry.journal_id]
            ago = max(0.0, (self.wall() - entry.heard).total_seconds())
            view.last_beat, view.heard = self.clock() - ago, entry.heard
        for view in self.stations.values():
            if view.key_id == key_id:
                view.new = False
        self.refusals.settled(key_id)
        self.version += 1

    def renamed(self, key_id: str, name: str) -> None:
        """The director renamed the station with this key: shown under NAME, the challenges
        and alarms already on the page too (a phone's device label kept)."""
        def rename(old: str) -> str:
            return with_base(old, name)

        for view in [v for v in self.stations.values() if v.key_id == key_id]:
            self.flagged.renamed(view.name, rename)
            view.name, journal_id = name, view.journal_id
            self.tables.renamed(journal_id, rename)
            kept = [*self.latest, *(e for t in self.tables.by_station.get(journal_id, ())
                                    for e in self.tables.groups[t].recent)]
            seen_as = visible(name)
            for entry in kept:  # a table's latest are the page's own entries, or older ones
                if entry[FROM] == journal_id:
                    entry["station"] = with_base(entry["station"], seen_as)
            for table in self.tables.by_station.get(journal_id, ()):  # (its own tables only)
                last = self._last_at_table.get(table)
                if last is not None and last[0] == journal_id:
                    self._last_at_table[table] = (journal_id, rename(last[1]), last[2])
            for where, seen in self.wrong_lists.items():
                if where[0] == journal_id:
                    seen[0] = rename(seen[0])
        self.refusals.settled(key_id)
        self.version += 1

    def rejected(self, key_id: str) -> None:
        """The director rejected the station with this key: gone from the page."""
        self.forget(key_id)
        for journal_id, view in list(self.stations.items()):
            if view.key_id == key_id:
                del self.stations[journal_id]
                for where in [w for w in self.wrong_lists if w[0] == journal_id]:
                    del self.wrong_lists[where]
                self.flagged.forget(journal_id)
        self.refusals.settled(key_id)
        self.version += 1

    def _keyed(self, view: StationView, key) -> None:
        if key is not None:
            view.key_id, view.new = key.key_id, not key.accepted
            view.address, view.joined = key.address, key.joined
            view.name = self.bound_name(key.key_id) or view.name or key.name

    def refuse(self, journal_id: str, station: str, why: str, key=None) -> None:
        """The hub would not take this station's rows (a chain that does not hold): said."""
        if key is not None and not key.accepted:
            self.intruder(key.address, station, f"rows refused: {why}"[:200],
                          kind="rows refused")
            return
        if journal_id not in self.stations and key is not None:
            self._forget_empty(station, journal_id, key)
        view = self.station(journal_id)
        self._keyed(view, key)
        view.name = view.name or station
        view.refused = why
        self.version += 1

    def _shown_name(self, view: StationView, name: str) -> str:
        """A row's station as the page names it: under the name the director gave the station
        (a row judged before it heard its new name too), a phone's device label kept."""
        bound = self.bound_name(view.key_id) if view.key_id else ""
        return with_base(name, bound) if bound else name

    def _add(self, view: StationView, row: Mapping) -> None:
        name = self._shown_name(view, str(row["station"]))
        written = row.get("game_table")
        table = group_key(written)
        view.name = view.name or name
        view.mode = view.mode or str(row.get("mode") or "")
        when = _parse(row["time_utc"])
        if row.get("fingerprint") and (view.said_at is None or (when and when >= view.said_at)):
            view.lexicon = str(row.get("lexicon_name") or view.lexicon)  # what it judged with
            view.fingerprint = str(row["fingerprint"])
            view.said_at = when or view.said_at
        view.challenges += 1
        view.acked = max(view.acked, int(row.get("origin_seq") or 0))
        order = int(row.get("seq") or 0)  # when the hub received it (its journal's order)
        flags = list(flags_of(row.get("flags")))
        if isinstance(written, str) and not written.isascii() and table != written:
            flags.append(f"table written otherwise ({shown(written)!r}, read as {table})")
        if when and when > self.wall() + CLOCK_AHEAD:
            flags.append(CLOCK_AHEAD_FLAG)  # its station's clock: shown, never first in line
        if table and row.get("recheck_of") is None and SPLIT_FLAG not in flags:
            before = self._last_at_table.get(table)
            if (before is not None and before[0] != view.journal_id and when and before[2]
                    and abs((when - before[2]).total_seconds()) <= SPLIT_WINDOW):
                flags.append(f"{SPLIT_FLAG} (table {shown(table)} at {shown(before[1])} and "
                             f"{shown(name)})")
        if table and when:
            self._last_at_table[table] = (view.journal_id, name, when)
        self.history.note(self.event_of(), self.wall())
        check = Check.from_json(row.get(CHECK)) if row.get(CHECK) else None
        if flags:
            self.flagged.add(shown_flags(flags), table, name, str(row["time_utc"]),
                             view.journal_id)
        if check is not None:  # the hub's own judgement (audit.py), made when it arrived
            self.checks[check.state] += 1
            if check.state != AGREES and check.version:  # (no event yet: counted, no flag)
                said = check.text(local_time)
                flags.insert(0, f"the hub's check: {said}" if check.state == DISAGREES
                             else said)
                where = (view.journal_id, table, check.state, check.division, check.list_name,
                         check.why if check.state != DISAGREES else "")
                self._wrong_list(where, name, said, str(row["time_utc"]), LEVELS[check.state])
        else:  # a row held before the hub judged rows itself: its list and rule, as before
            finding = self.history.check(row.get("game_table"), row["time_utc"],
                                         row.get("fingerprint"), row.get("rule"),
                                         visible(str(row.get("lexicon_name") or "")[:60]))
            if finding is not None:
                said = finding.text(local_time)
                flags.insert(0, said)
                d = finding.division
                self._wrong_list((view.journal_id, table, finding.judged_list,
                                  finding.judged_rule, d.name, d.fingerprint, d.challenge_rule),
                                 name, said, str(row["time_utc"]), WRONG_ROWS)
        entry = {"time": row["time_utc"], "station": visible(name), "table": shown(table),
                 "words": shown(row["words"], WORDS_SHOWN), "verdict": "ACCEPTABLE"
                 if row["acceptable"] else "UNACCEPTABLE",
                 "recheck": row.get("recheck_of") is not None, "flags": shown_flags(flags),
                 "seq": row.get("seq"), FROM: view.journal_id}
        self.latest.add(order, entry)
        self.tables.add(view.journal_id, name, row, when, entry, order)

    def _wrong_list(self, where: tuple, name: str, said: str, time_utc: str, level: int
                    ) -> None:
        """One alarm for each station, table and finding, counted; MAX_WRONG kept per station,
        ordered by when the hub took the row (its own count), never by the row's own time."""
        self._order += 1
        keep_wrong(self.wrong_lists, where, name, said, time_utc, level, self._order)

    def heartbeat(self, journal_id: str, beat: Mapping, key=None) -> int:
        """A station's heartbeat; the rows the hub holds of it (the answer's acked)."""
        if key is not None and not key.accepted:
            acked = self.waiting.heartbeat(key, beat)
            self.version += 1
            return acked
        if journal_id not in self.stations:
            self._forget_empty(str(beat.get("station") or ""), journal_id, key)
        view = self.station(journal_id)
        view.name = str(beat.get("station") or view.name)
        self._keyed(view, key)
        view.sender = str(beat.get("sender") or "")
        view.last_beat, view.heard = self.clock(), self.wall()
        view.mode = str(beat.get("mode") or view.mode)
        view.last_seq = int(beat.get("last_seq") or 0)
        if beat.get("fingerprint") or beat.get("lexicon"):  # a one-shot push says less
            view.lexicon = str(beat.get("lexicon") or view.lexicon)
            view.fingerprint = str(beat.get("fingerprint") or view.fingerprint)
            view.said_at = self.wall()
        view.printer = str(beat.get("printer") or view.printer)
        if isinstance(beat.get("lists"), list):
            view.lists = station_lists(beat["lists"])
        event_beat(view, self.event_of(), beat, self.clock())
        station_time = _parse(beat.get("clock"))
        if station_time:
            view.skew = (station_time - self.wall()).total_seconds()
        self.version += 1
        return view.acked

    def _forget_empty(self, name: str, journal_id: str, key=None) -> None:
        """A station heard under a new journal id forgets its old one if that never held a row
        (a journal's id is fixed at its first row, so an empty station announces itself twice);
        what its heartbeat said carries over. With its KEY known, only that key's view goes (so
        one key keeps at most one empty view: heartbeats cannot add ghost stations)."""
        for old_id, view in list(self.stations.items()):
            if key is not None:
                same = view.key_id == key.key_id
            else:
                same = name and of_station(name, view.name)
            if same and view.challenges == 0 and view.last_seq == 0:  # or a phone's row
                del self.stations[old_id]
                new = self.station(journal_id)
                for heard in ("name", "mode", "last_beat", "heard", "lexicon", "fingerprint",
                              "printer", "skew", "said_at", "divisions", "locked",
                              "event_version", "behind_since", "lists"):
                    setattr(new, heard, getattr(view, heard))

    def _players(self, table: str, round_: str) -> str:
        if self.names is None or not table:
            return ""
        try:
            return self.names(table, round_)
        except Exception:  # noqa: BLE001 - tsh's file is another program's: never fail the page
            return ""

    def _shown(self, entries: Newest) -> list[dict]:
        return shown_entries(self.stations, entries)

    def _is_new(self, journal_id: str) -> bool:
        view = self.stations.get(journal_id)
        return bool(view is not None and view.new)

    def majority_fingerprint(self) -> str | None:
        """The fingerprint most live stations judge with; None when they all agree."""
        return majority_fingerprint(self.stations.values())

    def snapshot(self) -> dict:
        """The page's whole state as JSON-ready data (pagestate.py)."""
        return page_state(self)


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _parse(text) -> datetime | None:
    try:
        when = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except (TypeError, ValueError):
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)
