"""A station follows the hub's event: a change is prepared when the hub says it, taken at Ready.

The hub's answers carry the event (wire.event_of checks it); the sender hands it here on its own
thread (Station.follow), where its lists by table are made (lists.lists_for: found on the shelf
or fetched from the hub, loaded, checked), so taking it later costs nothing. A surface takes a
prepared change only when its station is at Ready (Station.at_ready), never during a challenge
(protocol.py): the config file is written (comments kept, config_save.save_config) so a restart
keeps it, the journal notes what changed, and the station says it on Ready for a while
(NOTE_FOR); the config names the event version taken (event_version), which the heartbeat
says. A station that cannot reach the hub keeps its last settings and says since when
(offline_text). The name the director gives the station on the hub's page comes the same way
(offer_name) and is taken at the same Ready: its screen, slips and rows say it from then on.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import datetime

from adjudicator.config.station import Config
from adjudicator.config.save import save_config
from adjudicator.errors import AdjudicatorError
from adjudicator.event.setup import Event, station_settings
from adjudicator.link.join import fetch_list
from adjudicator.link.key import of_journal
from adjudicator.station.lists import Fetch, TableLists, lists_for
from adjudicator.config.station_name import name_problem
from adjudicator.text.visible import visible

NOTE_FOR = 300.0  # seconds a change is said on Ready
RETRY_AFTER = 60.0  # seconds before a change taken only in part is tried again (a list fetched)
OFFLINE_AFTER = 15.0  # seconds without an answer of the hub before a station says it is offline


@dataclass(frozen=True)
class Change:
    """A prepared change: the settings to change (put onto the config as it is when taken: a
    director's edit meanwhile is kept), the lists by table for it (lists.py: loaded, fetched
    from the hub if need be, checked), what changed in words, and what could not be done (a
    division keeping its list: it is tried again after RETRY_AFTER)."""

    version: int
    changes: dict
    lists: TableLists | None
    said: tuple[str, ...]
    problem: str = ""


@dataclass
class Following:
    """One station's following of the event: the change waiting for Ready, the last one said."""

    version: int = 0  # the event version this station runs (its config's event_version at
    # the start; its heartbeat says it)
    checked: bool = False  # the hub's event was prepared in this process (not at the start)
    pending: Change | None = None
    note: str = ""  # what the last change did, said on Ready until note_until
    note_until: float = 0.0
    retry_at: float = 0.0  # a change taken only in part is prepared again from then on
    said: tuple[int, str] = (0, "")  # the version and words of the last change said
    name: str = ""  # the name the director gave this station, waiting for Ready ("" none)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def waiting(self) -> bool:
        """A change or a name waits for the next Ready."""
        return self.pending is not None or bool(self.name)

    def wants(self, version: int, now: float | None = None) -> bool:
        """The hub's event at VERSION is to be prepared (again): another version than the one
        run, or the first look in this process (a list kept at the last run is tried again),
        or a change taken only in part whose RETRY_AFTER has passed. The sender asks it at
        every answer (link/forward.py), so every surface retries alike (issue 40)."""
        if version != self.version or not self.checked:
            return True
        now = time.monotonic() if now is None else now
        return bool(self.retry_at) and now >= self.retry_at


def prepare(station, event: Event, fetch: Fetch | None = None) -> Change:
    """EVENT as a change to STATION's settings: its lists by table made now, off Ready, by the
    one function every surface uses (lists.lists_for), a list the shelf lacks fetched from the
    hub (FETCH, else the station's hub); a division whose list cannot be had keeps its own."""
    old = station.config
    names = tuple(d.name for d in event.served_by(old.divisions)
                  if any(d.name.casefold() == o.casefold() for o in old.divisions))
    try:  # the lists made for the event as it is (its name, divisions, PIN: no list chosen)
        lists = lists_for(old.with_changes(**station_settings(event, ()), divisions=names),
                          before=station.lists, fetch=fetch or hub_fetch(old))
    except AdjudicatorError as e:  # a division new to this station, its list not to be had
        return Change(event.version, {}, None, (f"the event's change could not be taken: {e}; "
                                                "this station keeps its settings",), str(e))
    # the settings as `join` writes them (event.station_settings), for the lists it judges
    # with now: a division that kept its list names that list (what it can start with again)
    changes = dict(station_settings(event, tuple(s.division for s in lists.served)),
                   divisions=names, event_divisions=lists.event_divisions())
    new = old.with_changes(**changes)
    said = [*_lists_said(station.lists, lists)]
    if new.event != old.event:
        said.append(f"event name {new.event}")
    if new.pin_hash != old.pin_hash:  # a station's first PIN is set, not changed
        said.append("director PIN " + ("set" if not old.pin_hash else
                                       "removed" if not new.pin_hash else "changed"))
    said.extend(lists.kept)
    return Change(event.version, changes, lists, tuple(said), "; ".join(lists.kept))


def _lists_said(before: TableLists, after: TableLists) -> list[str]:
    """What changed in the lists by table, in words: 'division B: list NWL2020 -> NWL2023'."""
    said = []
    for served in after.served:
        old = before.find(served.division.name) if before.by_division else before.served[0]
        where = f"division {served.division.name}: " if served.division.name else ""
        if old is None:
            said.append(f"{where}judged here now, with {served.lexicon.name}")
            continue
        if old.lexicon.fingerprint != served.lexicon.fingerprint:
            said.append(f"{where}list {old.lexicon.name} -> {served.lexicon.name}")
        if old.division.challenge_rule != served.division.challenge_rule:
            said.append(f"{where}challenge rule {old.division.challenge_rule.value} -> "
                        f"{served.division.challenge_rule.value}")
    return said


def hub_fetch(config: Config) -> Fetch | None:
    """How a station gets a pinned list its shelf lacks: from its hub, with its station token,
    the request signed with its journal's key (the hub_token alone fetches no list: issue 33),
    the list checked by fingerprint before it is shelved (link/join.py); None without a hub."""
    if not (config.hub and config.hub_token):
        return None
    return lambda fingerprint: fetch_list(config.hub, "", fingerprint, token=config.hub_token,
                                          key=of_journal(config.journal),
                                          pin=config.hub_fingerprint)


def offer(station, event: Event, now: float | None = None) -> None:
    """The hub's EVENT, on the sender's thread: prepared for the next Ready (the sender hands
    each version once; a version taken only in part is prepared again after RETRY_AFTER)."""
    following = station.following  # any other version than the one run: a hub started
    if not following.wants(event.version, now):  # again may count anew
        return
    with following.lock:
        if following.pending is not None and following.pending.version == event.version:
            return
    change = prepare(station, event)
    with following.lock:
        following.pending = change
        following.retry_at = 0.0


def offer_name(station, name: str) -> None:
    """The name the director gave this station on the hub's page (the hub's answers carry it),
    on the sender's thread: taken at the next Ready. ValueError for a name no config may hold
    (the hub refuses those when the director types them)."""
    problem = name_problem(name)
    if problem:
        raise ValueError(f"the station name the hub gives {problem}")
    with station.following.lock:
        station.following.name = name


def take(station, now: float | None = None) -> str:
    """The change waiting, taken now (the surface is at Ready): the station's settings and lists,
    its name, its config file, its journal's note; what changed in words ("" when nothing did)."""
    following = station.following
    if not following.waiting():
        return ""
    with following.lock:
        change, following.pending = following.pending, None
        name, following.name = following.name, ""
    now = time.monotonic() if now is None else now
    notes = []  # (the journal's note, its detail, what Ready says)
    old_name, save = station.config.station, False
    if name and name != old_name:
        station.config = station.config.with_changes(station=name)
        notes.append(("renamed by the director", f"{old_name} -> {name}",
                      f"The director renamed this station: {name}"))
        save = True
    if change is not None:
        before = station.config.event_version
        station.config = station.config.with_changes(**change.changes)
        if change.lists is not None:
            station.lists = change.lists
        following.version, following.checked = change.version, True
        # the config says which version it runs (a heartbeat, a hub out of reach), whatever
        save = save or (bool(change.changes) and station.config.event_version != before)
        following.retry_at = now + RETRY_AFTER if change.problem else 0.0
        said = "; ".join(change.said)
        if change.said and (change.version, said) != following.said:
            following.said = (change.version, said)  # a retry that changed nothing is not
            notes.append(("event changed by the director",  # said or journaled again
                          f"version {change.version}: {said}",
                          f"The director changed the event: {said}"))
            save = save or bool(change.changes)
    if not (notes or save):
        return ""
    try:
        if save:
            save_config(station.config)
    except AdjudicatorError as e:  # a version alone not saved: its next start prepares it anew
        notes = [(what, f"{detail} (not saved: {e})", f"{shown} (not saved: {e})")
                 for what, detail, shown in notes]
    if not notes:
        return ""
    if station.journal is not None:
        try:
            for what, detail, _ in notes:
                station.journal.note_event(what, detail)
        except Exception:  # noqa: BLE001 - a note never stops the station
            pass
    following.note = "  ".join(f"{shown}." for _, _, shown in notes)
    following.note_until = now + NOTE_FOR
    return following.note


def ready_text(station, now: float | None = None) -> str:
    """What Ready says of the event: the last change for a while, or that the hub is out of
    reach and since when (its settings kept); "" otherwise."""
    following = station.following
    offline = offline_text(station)
    now = time.monotonic() if now is None else now
    note = following.note if now < following.note_until else ""
    kept = ""
    if station.lists.kept:  # said until the event's list is had: the hub alarms meanwhile
        kept = "Not the event's list: " + "; ".join(station.lists.kept) + "."
    return "  ".join(t for t in (note, kept, offline) if t)


def offline_text(station) -> str:
    """"Hub not reached since 13:02: settings kept." when the sender has no answer lately; what
    the hub said when it refused this station (the director rejected it, say)."""
    link = station.hub_link
    if link is None or not getattr(link, "problem", ""):
        return ""
    refused = getattr(link, "refused", "")
    if refused:  # reached, and refused: not the cable (issue 33: words that are true)
        return (f"The hub refused this station ({visible(refused)[:120]}): it keeps its last "
                "settings.")
    last = getattr(link, "last_answer", None)
    if last is not None and (datetime.now(last.tzinfo) - last).total_seconds() < OFFLINE_AFTER:
        return ""
    since = last.astimezone().strftime("%H:%M") if last is not None else "the start"
    return f"Hub not reached since {since}: this station keeps its last settings."
