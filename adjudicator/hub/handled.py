"""Alarm groups the director marked handled: shown greyed until their cause returns (issue 43).

A group is one station's alarms of one kind (alarmlist.group_of). The director marks it handled
(POST /api/handled); the mark is kept in the hub journal with the group's count of alarms then
(HubJournal.mark_handled), so it outlives a restart. It holds while the group stays on the board
and counts no more alarms: a new alarm of that kind for that station (its count grows), or the
group gone (its cause ended) and back later, un-greys it, and the mark is forgotten. Marks read
from the journal at a start are held for CARRY seconds even while their group is not on the
board yet (the stations' first heartbeats bring back their printer, their lock...).
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.hub.alarmlist import group_of

CARRY = 60.0  # seconds after a start a journaled mark waits for its group to show again
MAX_GROUP = 300  # characters of a group's name a director's POST may say


class Handled:
    """The marks: group -> its count when marked; FORGET(group) drops one from the journal."""

    def __init__(self, marks: dict[str, int], clock: Callable[[], float],
                 forget: Callable[[str], None] = lambda group: None):
        self.marks = dict(marks)
        self.clock = clock
        self.forget = forget
        self._carry_until = clock() + CARRY
        self._carried = set(marks)

    def annotate(self, alarms: list[dict]) -> list[dict]:
        """ALARMS (the page's, in order) each with its "group", its group's "handled" (bool);
        marks whose cause ended or came back are forgotten."""
        counts: dict[str, int] = {}
        for a in alarms:
            a["group"] = group_of(a)
            counts[a["group"]] = counts.get(a["group"], 0) + _count(a)
        carrying = self.clock() < self._carry_until
        if not carrying:
            self._carried.clear()
        for group, count in list(self.marks.items()):
            seen = counts.get(group)
            if (seen is None and not (carrying and group in self._carried)) or (
                    seen is not None and seen > count):
                del self.marks[group]
                self._carried.discard(group)
                self.forget(group)
        self._carried -= counts.keys()  # back on the board: held as any mark from now on
        for a in alarms:
            a["handled"] = a["group"] in self.marks
        return alarms

    def mark(self, group: str, alarms: list[dict]) -> int | None:
        """GROUP marked handled, at its count in ALARMS (the board's now); None when the board
        shows no such group (nothing marked)."""
        count = sum(_count(a) for a in alarms if group_of(a) == group)
        if not count:
            return None
        self.marks[group] = count
        self._carried.discard(group)
        return count

    def unmark(self, group: str) -> bool:
        """GROUP's mark taken back by the director; False when it had none."""
        self._carried.discard(group)
        return self.marks.pop(group, None) is not None


def _count(alarm: dict) -> int:
    n = alarm.get("count")
    return n if type(n) is int and n > 0 else 1  # noqa: E721
