"""The hub as a second adjudicator: each row judged again with its table's division's list and rule.

Issue 40: a station's word about itself is not evidence. The hub holds every list the event names
(it serves them), so it judges each row's words itself and compares the station's verdict, list
and rule with what the row's table's division had when the row was judged. "When" is the hub's
to decide, on its own clock, never the station's:

- the row was judged before the hub received it (R), and after the last heartbeat that said the
  station's journal held fewer rows than this one's number (L: the row did not exist then);
- so the event versions that may have judged it are those in force at some moment of
  [L - GRACE, R] (GRACE: a challenge under way when a change came, taken at the next Ready);
- the row names the version it was judged under (sent beside it, outside its chain): a version
  in that window narrows it to that one; an older one is stale, and is said when it mattered.

The row agrees when some version of the window (the named one, if it is in the window) gives
its table's division the row's list and rule, and that list gives the row's verdict. Otherwise:
DISAGREES (the hub's verdict is the other one: the most serious alarm), OTHER_LIST (the same
verdict, another list or rule), or UNCHECKED (no event then, a division nobody can tell, a list
the hub lacks, words that are not a play), said in words, never silently passed.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta, timezone

from adjudicator.text.entry import EntryError, parse_entry
from adjudicator.event.history import (
    AGREES,
    DISAGREES,
    OTHER_LIST,
    SERIOUS,
    UNCHECKED,
    Check,
    EventHistory,
)
from adjudicator.lexicon.library import load_lexicon
from adjudicator.event.tables import shown
from adjudicator.judging.verdict import all_found
from adjudicator.text.visible import visible

GRACE = timedelta(seconds=120)  # a challenge under way at a change (taken at the next Ready)
MAX_HEARD = 64  # row counts heard per station journal, each at the latest time it was heard
MAX_STATIONS = 4096  # station journals remembered (a flood of journal ids forgets the oldest)


def _now() -> datetime:
    return datetime.now(timezone.utc)


class Audit:
    """Every row judged again; each station's heartbeats remembered on the hub's clock."""

    def __init__(self, history: Callable[[], EventHistory],
                 list_path: Callable[[str], str | None], wall: Callable[[], datetime] = _now):
        """HISTORY() -> the event's versions (board.history); LIST_PATH(fingerprint) -> the
        compiled file of a list the hub holds (None: it lacks it)."""
        self.history, self.list_path, self.wall = history, list_path, wall
        self._heard: dict[str, tuple[list, list]] = {}  # journal id -> (hub times, last_seqs)
        self._served: dict[str, tuple[str, ...]] = {}  # journal id -> divisions it serves
        self._lock = threading.Lock()  # heartbeats on the loop, rows on the writer thread
        self._lists: dict[tuple[str, str], object] = {}  # (fingerprint, path) -> Lexicon

    def heard(self, journal_id: str, last_seq, divisions=()) -> None:
        """A heartbeat of JOURNAL_ID: its journal held LAST_SEQ rows now (the hub's clock)."""
        if type(last_seq) is not int:  # noqa: E721 - a peer's field: only a number counts
            return
        with self._lock:
            if journal_id not in self._heard and len(self._heard) >= MAX_STATIONS:
                oldest = next(iter(self._heard))
                self._heard.pop(oldest)
                self._served.pop(oldest, None)
            times, seqs = self._heard.setdefault(journal_id, ([], []))
            if seqs and last_seq == seqs[-1]:
                times[-1] = self.wall()  # the latest time its journal held that many rows
            elif not seqs or last_seq > seqs[-1]:  # (fewer than before: not its journal's)
                times.append(self.wall())
                seqs.append(last_seq)
                if len(seqs) > MAX_HEARD:
                    del times[0], seqs[0]
            names = tuple(str(d) for d in divisions if str(d))[:16]
            if names:
                self._served[journal_id] = names

    def _not_before(self, journal_id: str, seq: int) -> datetime | None:
        """The latest hub time at which this station's journal did not hold row SEQ yet."""
        with self._lock:
            times, seqs = self._heard.get(journal_id, ((), ()))
            i = bisect_left(seqs, seq) - 1
            return times[i] if i >= 0 else None

    def check(self, journal_id: str, row: Mapping, claimed=None,
              received: datetime | None = None) -> Check:
        """ROW (a station row: words, acceptable, game_table, fingerprint, lexicon_name, rule,
        origin_seq or seq) judged again; CLAIMED: the event version it said; RECEIVED: when the
        hub got it (now)."""
        history = self.history()  # (first: the version in force now is in it by now)
        received = received or self.wall()
        claimed = claimed if type(claimed) is int and claimed > 0 else 0  # noqa: E721
        seq = row.get("origin_seq") or row.get("seq") or 0
        since = self._not_before(journal_id, int(seq) if type(seq) is int else 0)  # noqa: E721
        window = history.in_force(since - GRACE if since else None, received)
        if not window:
            return Check(UNCHECKED, "not checked: the event named no list when it was judged",
                         claimed=claimed)
        versions = [history.versions[i][1].version for i in window]
        named = [i for i in window if history.versions[i][1].version == claimed]
        stale = bool(claimed) and claimed < min(versions)
        try:
            words = parse_entry(str(row.get("words") or ""))
        except EntryError:
            return Check(UNCHECKED, "not checked: its words are not a play", claimed=claimed)
        said = bool(row.get("acceptable"))
        found: list[Check] = []
        for i in reversed(named or window):
            one = self._against(history, i, journal_id, row, words, said, claimed)
            if one.state == AGREES:
                return one
            found.append(one)
        worst = min(found, key=lambda c: SERIOUS[c.state])  # the newest of the worst kind
        if stale and worst.state != UNCHECKED:
            worst = worst._replace(why=worst.why + f" (it says it was judged under event "
                                   f"version {claimed}, older than the one in force)")
        return worst

    def _against(self, history: EventHistory, i: int, journal_id: str, row: Mapping,
                 words: tuple[str, ...], said: bool, claimed: int) -> Check:
        """ROW against version I of HISTORY: AGREES or why not."""
        event = history.versions[i][1]
        table = row.get("game_table")
        division = history.division_at(i, table)
        if division is None and not str(table or "").strip():
            with self._lock:
                served = self._served.get(journal_id, ())
            mine = {d.name for d in (event.division(n) for n in served) if d is not None}
            division = event.division(mine.pop()) if len(mine) == 1 else None
        if division is None:
            where = (f"table {shown(str(table))!r} is in no division" if str(table or "").strip()
                     else "it names no table and its station serves several divisions")
            return Check(UNCHECKED, f"not checked: {where} of event version {event.version}",
                         version=event.version, claimed=claimed)
        judged_rule = row.get("rule")
        judged_rule = judged_rule if isinstance(judged_rule, str) and judged_rule else None
        same_list = row.get("fingerprint") == division.fingerprint
        same_rule = judged_rule is None or judged_rule == division.challenge_rule.value
        hub_says = self._judge(division, words)
        agrees = history.agrees_at(i, division, claimed)  # (made once: most rows agree)
        if hub_says is said and same_list and same_rule:
            return agrees
        base = {f: getattr(agrees, f) for f in ("division", "list_name", "version", "since",
                                                  "claimed")}
        if isinstance(hub_says, str):  # the hub cannot judge it: why
            if not (same_list and same_rule):
                return Check(OTHER_LIST, _other(row, division, same_list, same_rule), **base)
            return Check(UNCHECKED, f"not checked: {hub_says}", **base)
        if hub_says != said:
            table_text = f" at table {shown(str(table))}" if str(table or "").strip() else ""
            return Check(DISAGREES, f"said {_verdict(said)} for {shown(' '.join(words), 60)}"
                         f"{table_text}; division {division.name}'s {division.lexicon} says "
                         f"{_verdict(hub_says)}", **base)
        return Check(OTHER_LIST, _other(row, division, same_list, same_rule), **base)

    def _judge(self, division, words: tuple[str, ...]) -> bool | str:
        """The hub's verdict on WORDS with DIVISION's list, or why it cannot give one."""
        path = self.list_path(division.fingerprint) if division.fingerprint else None
        if path is None:
            return f"the hub lacks division {division.name}'s list {division.lexicon}"
        lexicon = self._lists.get((division.fingerprint, path))
        if lexicon is None:  # loaded once: its words checked against the fingerprint pinned
            try:
                lexicon = load_lexicon(path, pin=division.fingerprint)
            except Exception as e:  # noqa: BLE001 - a list gone bad on the hub's disk: said
                return (f"division {division.name}'s list {division.lexicon} cannot be read on "
                        f"the hub ({str(e)[:120]})")
            self._lists[(division.fingerprint, path)] = lexicon
        return all_found(lexicon, words)


def _other(row: Mapping, division, same_list: bool, same_rule: bool) -> str:
    """Why a row's list or rule is not its division's ("{since}" filled in when shown)."""
    rule, judged_rule = division.challenge_rule.value, row.get("rule")
    judged = visible(str(row.get("lexicon_name") or str(row.get("fingerprint"))[:12])[:60])
    if same_list:
        return (f"judged under rule {judged_rule}; division {division.name} uses rule {rule} "
                "since {since}")
    if not same_rule:
        return (f"judged with {judged} under rule {judged_rule}; division {division.name} "
                f"uses {division.lexicon} with rule {rule} since {{since}}")
    return f"judged with {judged}; division {division.name} uses {division.lexicon} since " \
           "{since}"


def _verdict(acceptable: bool) -> str:
    return "ACCEPTABLE" if acceptable else "UNACCEPTABLE"
