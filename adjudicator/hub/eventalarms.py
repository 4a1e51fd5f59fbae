"""The hub's alarms when it runs an event: each station against its division's pinned list.

They replace the majority vote (board.majority_fingerprint) where the hub has an event (issue 27
item 3): a station judging with anything but its division's list is named with both lists, as is
any station on a list not for tournaments (ENABLE) or on an unrecognised list the event does not
pin, a station not locked (no director PIN), and one that runs an older event version than the
hub's for longer than BEHIND_AFTER (a station takes a change at its next Ready: a challenge under
way delays it a little). Stations the director has not accepted are on no list here.
"""

from __future__ import annotations

from ..event import Division, Event
from ..lexicon.known import identify
from ..visible import visible

HEARTBEAT = 5.0  # seconds between a station's heartbeats (link/forward.py's HEARTBEAT)
BEHIND_AFTER = 2 * HEARTBEAT + 2.0  # seconds on an older event version before it is an alarm


def served(event: Event, said: str) -> tuple[Division, ...]:
    """The divisions a station's heartbeat names ("A,B"), else every division of the event."""
    names = [n.strip() for n in said.split(",") if n.strip()]
    named = tuple(d for d in (event.division(n) for n in names) if d is not None)
    return named or event.divisions


def event_alarms(view, event: Event, now: float) -> list[str]:
    """VIEW's (board.StationView) alarms against EVENT, in words (the page names the station
    before each: "Desk 4: judges with CSW21, its division A uses CSW24")."""
    said = []
    behind = view.behind_since is not None and now - view.behind_since > BEHIND_AFTER
    following = view.behind_since is not None and not behind  # taking the change: no alarm yet
    divisions = served(event, view.divisions)
    lexicon = visible(view.lexicon[:60]) or view.fingerprint[:12]  # as its heartbeat said
    pinned = {d.fingerprint for d in divisions if d.fingerprint}
    if view.fingerprint and pinned and view.fingerprint not in pinned and not following:
        which = ", ".join(d.name for d in divisions)
        lists = ", ".join(dict.fromkeys(d.lexicon for d in divisions))
        one = len(divisions) == 1
        said.append(f"judges with {lexicon}, its "
                    f"division{'' if one else 's'} {which} use{'s' if one else ''} {lists}")
    known = identify(view.fingerprint) if view.fingerprint and not following else None
    if known is not None and not known.tournament:
        said.append(f"judges with {known.id}: not a tournament word list")
    elif (view.fingerprint and known is None and not following
          and view.fingerprint not in {d.fingerprint for d in event.divisions}):
        said.append(f"judges with an unrecognised list "
                    f"({lexicon})")
    if view.locked == "no":
        said.append("not locked: no director PIN")
    if behind:
        said.append(f"runs event version {view.event_version}, the hub's is "
                    f"{event.version}")
    return said


def beat(view, event: Event | None, said: dict, now: float) -> None:
    """What a heartbeat SAID of the event, onto VIEW: its divisions, PIN, event version (and
    since when it is behind the hub's)."""
    for key in ("divisions", "locked"):
        if key in said:
            setattr(view, key, str(said[key]))
    version = said.get("event_version")
    if isinstance(version, str) and version.isascii() and version.isdigit() \
            and len(version) < 12:  # "²".isdigit() is True, int("²") fails (wire.py refuses it)
        view.event_version = int(version)
    if event is None or view.event_version is None or view.event_version >= event.version:
        view.behind_since = None
    elif view.behind_since is None:
        view.behind_since = now
