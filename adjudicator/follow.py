"""A station follows the hub's event: a change is prepared when the hub says it, taken at Ready.

The hub's answers carry the event (wire.event_of checks it); the sender hands it here on its own
thread (Station.follow), where the new list is found on the shelf and loaded, so taking it later
costs nothing. A surface takes a prepared change only when its station is at Ready
(Station.at_ready), never during a challenge (protocol.py): the config file is written (comments
kept, config_save.save_config) so a restart keeps it, the journal notes what changed, and the station
says it on Ready for a while (NOTE_FOR). A station that cannot reach the hub keeps its last
settings and says since when (offline_text).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import datetime

from .config import Config
from .event import Division, Event

NOTE_FOR = 300.0  # seconds a change is said on Ready
OFFLINE_AFTER = 15.0  # seconds without an answer of the hub before a station says it is offline


@dataclass(frozen=True)
class Change:
    """A prepared change: the settings to change (put onto the config as it is when taken: a
    director's edit meanwhile is kept), the list loaded for it (None: the same), what changed
    in words, and what could not be done (a list not on the shelf)."""

    version: int
    changes: dict
    lexicon: object | None
    said: tuple[str, ...]
    problem: str = ""


@dataclass
class Following:
    """One station's following of the event: the change waiting for Ready, the last one said."""

    version: int = 0  # the event version this station runs (its heartbeat says it)
    pending: Change | None = None
    note: str = ""  # what the last change did, said on Ready until note_until
    note_until: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


def served(config: Config, event: Event) -> tuple[Division, ...]:
    """The divisions of EVENT this station serves: the ones it names that the event still has,
    else every division."""
    named = tuple(d for d in (event.division(n) for n in config.divisions) if d is not None)
    return named or event.divisions


def prepare(station, event: Event) -> Change:
    """EVENT as a change to STATION's settings (the list found and loaded now, off Ready)."""
    old = station.config
    divisions = served(old, event)
    names = tuple(n for n in (d.name for d in divisions)  # the named ones the event still has
                  if any(n.casefold() == o.casefold() for o in old.divisions))
    changes = dict(event=event.name or old.event, pin_hash=event.pin_hash or old.pin_hash,
                   event_divisions=event.divisions, divisions=names)
    said, problem, lexicon = [], "", None
    rules = {d.challenge_rule for d in divisions}
    if len(rules) == 1:
        changes["challenge_rule"] = rules.pop()
    lists = {(d.lexicon, d.fingerprint) for d in divisions}
    if len(lists) == 1:  # several lists: the table chooses (Config.event_divisions)
        (name, fingerprint), = lists
        if fingerprint and fingerprint == str(station.lexicon.fingerprint):
            changes["lexicon"] = name if name != old.lexicon and _named(name) else old.lexicon
        elif name != old.lexicon or fingerprint:
            lexicon, problem = _load(name, fingerprint, old)
            if lexicon is not None:
                changes["lexicon"] = name
    new = old.with_changes(**changes)
    if lexicon is not None:
        said.append(f"list {station.lexicon.name} -> {lexicon.name}")
    if new.challenge_rule != old.challenge_rule:
        said.append(f"challenge rule {old.challenge_rule.value} -> {new.challenge_rule.value}")
    if new.event != old.event:
        said.append(f"event name {new.event}")
    if new.pin_hash != old.pin_hash:
        said.append("director PIN changed")
    if problem:
        said.append(problem)
    return Change(event.version, changes, lexicon, tuple(said), problem)


def _named(name: str) -> bool:
    return "/" not in name and "\\" not in name  # a file's path stays as written


def _load(name: str, fingerprint: str, config: Config):
    """(the list NAME from the shelf, "") when it is there and is the event's; else (None, why)."""
    from .errors import AdjudicatorError
    from .resolve import load_lexicon

    try:
        lexicon = load_lexicon(name, dirs=list(config.lexicon_dirs))
    except AdjudicatorError:
        lexicon = _fetched(name, fingerprint, config)
        if lexicon is None:
            return None, (f"the event's list {name} is not on this station's shelf and the hub "
                          "could not send it: it keeps its list")
    if fingerprint and str(lexicon.fingerprint) != fingerprint:
        return None, (f"the list {name} on this station's shelf is not the event's (another "
                      "fingerprint): it keeps its list")
    return lexicon, ""


def _fetched(name: str, fingerprint: str, config: Config):
    """The event's list FINGERPRINT fetched from the station's hub onto its shelf (checked by
    fingerprint there, link/join.py) and loaded; None when it cannot be had."""
    if not (fingerprint and config.hub and config.hub_token):
        return None
    from .errors import AdjudicatorError
    from .lexicon import Lexicon
    from .link.join import fetch_list
    from .link.key import of_journal

    try:  # signed with the station's key: the hub_token alone fetches no list (issue 33)
        return Lexicon.load(fetch_list(config.hub, "", fingerprint, token=config.hub_token,
                                       key=of_journal(config.journal)))
    except AdjudicatorError:
        return None


def offer(station, event: Event) -> None:
    """The hub's EVENT, on the sender's thread: prepared for the next Ready (the sender hands
    each version once)."""
    following = station.following  # any other version than the one run: a hub started
    if event.version == following.version and following.version:  # again may count anew
        return
    with following.lock:
        if following.pending is not None and following.pending.version == event.version:
            return
    change = prepare(station, event)
    with following.lock:
        following.pending = change


def take(station, now: float | None = None) -> str:
    """The change waiting, taken now (the surface is at Ready): the station's settings, its
    config file, its journal's note; what changed in words ("" when nothing did)."""
    following = station.following
    if following.pending is None:
        return ""
    with following.lock:
        change, following.pending = following.pending, None
    if change is None:
        return ""
    station.config = config = station.config.with_changes(**change.changes)
    if change.lexicon is not None:
        station.lexicon = change.lexicon
    kept = ""
    if config.event_divisions and station.divisions is not None:
        kept = _divisions_again(station, change)
    following.version = change.version
    if not change.said and not kept:
        return ""
    said = "; ".join((*change.said, kept) if kept else change.said)
    from .errors import AdjudicatorError
    from .config_save import save_config

    try:
        save_config(config)
    except AdjudicatorError as e:
        said += f" (not saved: {e})"
    if station.journal is not None:
        try:
            station.journal.note_event("event changed by the director",
                                       f"version {change.version}: {said}")
        except Exception:  # noqa: BLE001 - a note never stops the station
            pass
    following.note = f"The director changed the event: {said}."
    following.note_until = (time.monotonic() if now is None else now) + NOTE_FOR
    return following.note


def _divisions_again(station, change) -> str:
    """The lists by table (divisions.py) for the changed event: the lists already in memory
    kept, the new ones loaded; the old ones kept, and said, when a new one cannot be had."""
    from .divisions import load_division_lists
    from .errors import LexiconError

    loaded = station.divisions.loaded()
    if change.lexicon is not None:
        loaded[change.lexicon.name] = change.lexicon
    try:
        station.divisions = load_division_lists(station.config, loaded)
    except LexiconError as e:
        return f"the lists by table are unchanged ({e})"
    return ""


def ready_text(station, now: float | None = None) -> str:
    """What Ready says of the event: the last change for a while, or that the hub is out of
    reach and since when (its settings kept); "" otherwise."""
    following = station.following
    offline = offline_text(station)
    now = time.monotonic() if now is None else now
    note = following.note if now < following.note_until else ""
    return "  ".join(t for t in (note, offline) if t)


def offline_text(station) -> str:
    """"Hub not reached since 13:02: settings kept." when the sender has no answer lately."""
    link = station.hub_link
    if link is None or not getattr(link, "problem", ""):
        return ""
    last = getattr(link, "last_answer", None)
    if last is not None and (datetime.now(last.tzinfo) - last).total_seconds() < OFFLINE_AFTER:
        return ""
    since = last.astimezone().strftime("%H:%M") if last is not None else "the start"
    return f"Hub not reached since {since}: this station keeps its last settings."
