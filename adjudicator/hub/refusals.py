"""What the hub refuses (errors.HubRefusal: requests, rows), and the director's alarms of it.

RequestRefused: a station's request the hub will not take (its HTTP status, reason and alarm);
RowsRefused (Claimed, Full): rows the hub journal will not take. Neither is a journal's error:
nothing failed, nothing was recorded. The alarms, one per sender and kind, counted, bounded:
three lists, none able to push another out: a wrong hub_token (one alarm for every sender of the
last minute, the latest named), key conflicts (a key that came with a name another key holds:
the director may "Accept in its place"; one per key, at most MAX_CONFLICTS), and every other
refusal (a forgery, a message no station sends, a replay: one per address or key and kind,
however often and whatever it carried, at most MAX_INTRUDERS, the rest counted in one line).
Names and addresses are drawn with every invisible character as its picture.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from adjudicator.errors import HubRefusal
from adjudicator.text.visible import visible
from adjudicator.hub.waiting import MAX_PER_ADDRESS, MAX_WAITING

WRONG_TOKEN_SHOWN = 60.0  # seconds a sender with a wrong hub_token stays on the page
INTRUDER_SHOWN = 600.0  # seconds a refused request (a forgery, a key conflict) stays on the page
MAX_INTRUDERS = 50  # refusals kept on the page at once (more are counted)
MAX_CONFLICTS = 64  # key conflicts kept (each is a waiting key: identity.MAX_NEW bounds them)
FULL = "waiting list full"  # identity.py's kind of a refusal for want of room
MAX_WRONG_TOKEN = 50  # senders with a wrong token remembered (one alarm says how many)


class RequestRefused(HubRefusal):
    """A station's request the hub will not take (identity.py, stamps.py): STATUS, the HTTP
    status answered; WHY, the reason sent back; ALARM, the alarm's text; KIND names the alarm for
    counting (one alarm per address or key and kind, however often)."""

    def __init__(self, status: int, why: str, alarm: str = "", register: bool = False,
                 takes: str = "", kind: str = ""):
        super().__init__(why)
        self.status, self.why, self.alarm, self.register = status, why, alarm, register
        self.takes = takes  # the name another key holds, when that is the refusal
        self.kind = kind or alarm
        self.key_id = ""  # the key that asked for it, once known (the director may accept it)


class RowsRefused(HubRefusal):
    """A batch of rows the hub journal will not take (hub_journal.py): a row that is not the
    station's chained row (HTTP 422)."""


class Claimed(RowsRefused):
    """A batch for a journal or a station name another station's key holds (HTTP 409)."""


class Full(RowsRefused):
    """A batch from a station the director has not accepted, which holds its most rows (429)."""


class Refusals:
    """The refusal alarms; the board's snapshot shows alarms()."""

    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self._wrong_token: dict[str, tuple[str, float]] = {}  # address -> (station, when)
        self._intruders: dict[tuple[str, str], list] = {}  # (address, kind) -> [name, when,
        #                                                     n, text, address]
        self._conflicts: dict[str, list] = {}  # key id -> [name, when, n, text, address]
        self.dropped = 0

    def wrong_token(self, address: str, station: str) -> None:
        now = self.clock()
        self._expire(now)
        if address not in self._wrong_token and len(self._wrong_token) >= MAX_WRONG_TOKEN:
            oldest = min(self._wrong_token, key=lambda a: self._wrong_token[a][1])
            del self._wrong_token[oldest]  # the alarm names the latest; the count stays
        self._wrong_token[address] = (station, now)

    def refused(self, address: str, station: str, text: str, key: str = "",
                kind: str = "") -> None:
        """One refusal; KEY: a key the director may accept in the place of the name's holder."""
        now = self.clock()
        self._expire(now)
        if key:
            table, where, cap = self._conflicts, key, MAX_CONFLICTS
        else:
            table, where, cap = self._intruders, (address, kind or text), MAX_INTRUDERS
        seen = table.get(where)
        if seen is not None:
            seen[1], seen[2], seen[3], seen[4] = now, seen[2] + 1, text, address
            seen[0] = seen[0] or station
            return
        if len(table) >= cap:
            if table is self._conflicts:  # the oldest conflict goes: its key is long quiet
                del table[min(table, key=lambda k: table[k][1])]
            else:
                self.dropped += 1
                return
        table[where] = [station, now, 1, text, address]

    def settled(self, key_id: str) -> None:
        """The director accepted or rejected KEY_ID: its conflict is no longer an alarm."""
        self._conflicts.pop(key_id, None)

    def _expire(self, now: float) -> None:
        for address, (_, when) in list(self._wrong_token.items()):
            if now - when > WRONG_TOKEN_SHOWN:
                del self._wrong_token[address]
        for table in (self._intruders, self._conflicts):
            for where, seen in list(table.items()):
                if now - seen[1] > INTRUDER_SHOWN:
                    del table[where]

    def room(self, waiting) -> None:
        """A "waiting list full" refusal goes once the list has room again (WAITING: the
        waiting panel, waiting.Waiting): its cause has ended."""
        entries = list(getattr(waiting, "entries", {}).values())
        here = Counter(e.address for e in entries)
        for where in [w for w in self._intruders if w[1] == FULL]:
            if here[where[0]] < MAX_PER_ADDRESS and len(entries) < MAX_WAITING:
                del self._intruders[where]

    def alarms(self, waiting=None) -> list[dict]:
        self._expire(self.clock())
        if waiting is not None:
            self.room(waiting)
        said = []
        for key, (name, _, n, text, address) in self._conflicts.items():
            said.append({"station": _shown(name or address), "text": _text(text, address, n),
                         "key": key, "count": n})
        if self._wrong_token:
            address, (name, _) = max(self._wrong_token.items(), key=lambda i: i[1][1])
            more = len(self._wrong_token) - 1
            said.append({"station": _shown(name or address), "text": (
                f"wrong hub_token (from {visible(address)}"
                + (f", and {more} more sender{'s' if more > 1 else ''} in the last minute"
                   if more else "") + ")")})
        for name, _, n, text, address in self._intruders.values():
            said.append({"station": _shown(name or address), "text": _text(text, address, n),
                         "key": "", "count": n})
        if self.dropped:
            said.append({"station": "hub", "text": f"{self.dropped} more refused requests "
                         "(see the hub's log)"})
        return said


def _shown(name: str) -> str:
    return visible(name[:60])


def _text(text: str, address: str, n: int) -> str:
    return (f"refused: {visible(text[:200])} (from {visible(address)}"
            f"{f', {n} times' if n > 1 else ''})")
