"""The hub's alarms when it runs an event: each station's lists by division against the event's.

A heartbeat says, for each division the station serves, its list (name, fingerprint) and rule
(wire.LISTS, issue 32): each is compared with that division, so a wrong list in a station's
second division is named as one in its first; an older station's one list is compared with
every division it serves. They replace the majority vote (board.majority_fingerprint) where the
hub has an event (issue 27 item 3): a station judging with anything but its division's list is
named with both lists, as is any station on a list not for tournaments (ENABLE) or on an
unrecognised list the event does not pin, a station not locked (no director PIN), and one that
runs an older event version than the hub's for longer than BEHIND_AFTER (a station takes a
change at its next Ready: a challenge under way delays it a little). Stations the director has
not accepted are on no list here.
"""

from __future__ import annotations

from typing import NamedTuple

from adjudicator.event.setup import Division, Event
from adjudicator.lexicon.known import identify
from adjudicator.text.visible import visible

HEARTBEAT = 5.0  # seconds between a station's heartbeats (link/forward.py's HEARTBEAT)
BEHIND_AFTER = 2 * HEARTBEAT + 2.0  # seconds on an older event version before it is an alarm


class Listed(NamedTuple):
    """One division a station serves, as its heartbeat said (wire.check_lists): "" for a
    station serving no division (its one list)."""

    division: str
    lexicon: str
    fingerprint: str
    rule: str


def station_lists(said: list) -> tuple[Listed, ...]:
    """A heartbeat's lists (checked by wire.check_lists) as Listed entries, in its order."""
    return tuple(Listed(str(e["division"]), str(e["lexicon"]), str(e["fingerprint"]),
                        str(e["rule"])) for e in said if isinstance(e, dict))


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
    if view.lists and not following:
        said += _by_division(view.lists, event, view.divisions)
    elif not following:
        said += _one_list(view, event)
    if view.locked == "no":
        said.append("not locked: no director PIN")
    if behind:
        said.append(f"runs event version {view.event_version}, the hub's is "
                    f"{event.version}")
    return said


def _one_list(view, event: Event) -> list[str]:
    """The alarms of a station that said one list (a station older than lists by division)."""
    said = []
    divisions = served(event, view.divisions)
    lexicon = visible(view.lexicon[:60]) or view.fingerprint[:12]  # as its heartbeat said
    pinned = {d.fingerprint for d in divisions if d.fingerprint}
    unsaid = not view.divisions.strip() and len(pinned) > 1  # it names no division (a one-shot
    # `judge --config`): which list it should use is its table's, each row checked by the hub
    if view.fingerprint and pinned and view.fingerprint not in pinned and not unsaid:
        which = ", ".join(d.name for d in divisions)
        lists = ", ".join(dict.fromkeys(d.lexicon for d in divisions))
        one = len(divisions) == 1
        said.append(f"judges with {lexicon}, its "
                    f"division{'' if one else 's'} {which} use{'s' if one else ''} {lists}")
    return said + _odd_list(view.fingerprint, lexicon, event)


def _odd_list(fingerprint: str, lexicon: str, event: Event) -> list[str]:
    """A list not for tournaments, or one nobody recognises that the event does not pin."""
    known = identify(fingerprint) if fingerprint else None
    if known is not None and not known.tournament:
        return [f"judges with {known.id}: not a tournament word list"]
    if (fingerprint and known is None
            and fingerprint not in {d.fingerprint for d in event.divisions}):
        return [f"judges with an unrecognised list ({lexicon})"]
    return []


def _by_division(lists, event: Event, view_divisions: str) -> list[str]:
    """Each division a station serves (its heartbeat's lists) against the event's: a wrong list
    in its second division is named as one in its first."""
    said: list[str] = []
    for entry in lists:
        lexicon = visible(entry.lexicon[:60]) or entry.fingerprint[:12]
        if not entry.division:  # one list for every division it serves
            wanted = served(event, view_divisions)
        else:
            division = event.division(entry.division)
            if division is None:
                said.append(f"serves division {visible(entry.division[:40])}, which the event "
                            "does not have")
                continue
            wanted = (division,)
        one = len(wanted) == 1
        where = (f"its division{'' if one else 's'} {', '.join(d.name for d in wanted)} "
                 f"use{'s' if one else ''}")
        pinned = {d.fingerprint for d in wanted if d.fingerprint}
        rules = {d.challenge_rule.value for d in wanted}
        uses = ", ".join(dict.fromkeys(d.lexicon for d in wanted))
        if entry.fingerprint and pinned and entry.fingerprint not in pinned:
            said.append(f"judges with {lexicon}, {where} {uses}")
        elif entry.rule and len(rules) == 1 and entry.rule not in rules:
            said.append(f"judges under rule {visible(entry.rule[:40])}, {where} rule "
                        f"{next(iter(rules))}")
        for odd in _odd_list(entry.fingerprint, lexicon, event):
            if odd not in said:
                said.append(odd)
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
