"""The verdict a station recorded and never showed, as every screen of it meets it: one rule."""

from __future__ import annotations

import datetime as dt

from adjudicator.text.entry import parse_entry
from adjudicator.station.service import Outcome, Station
from adjudicator.event.tables import check_table
from adjudicator.station.unseen import find_unseen, mark_shown, rechallenge_of


class UnseenVerdict:
    """A station's verdict recorded and never shown (unseen.py), for the players' station and the
    runner's desk alike: looked for once, before anything is judged; challenged again (the same
    words at the same table, within the split window) it is rechecked (WESPA 3.10.9), never
    recorded as a second challenge; it is forgotten once another challenge is judged. Every
    verdict painted is marked shown, so no restart shows it again."""

    def __init__(self, station: Station, state_file: str | None) -> None:
        self.station = station
        self.state_file = state_file  # beside the journal; None: nothing is marked or found
        self.outcome: Outcome | None = None  # the verdict never shown, while it may be rechecked
        self.looked = False

    def look(self) -> Outcome | None:
        """Once: the verdict never shown, if any (and the marks of what is shown set up); None
        at every later call."""
        if self.looked:
            return None
        self.looked = True
        self.outcome = find_unseen(self.station, self.state_file)
        return self.outcome

    def rechallenged(self, text: str, table: str = "",
                     now: dt.datetime | None = None) -> Outcome | None:
        """The verdict never shown when TEXT typed at TABLE, NOW, is its challenge again; else
        None. EntryError (a TableError too) for words or a table that are not one."""
        again = rechallenge_of(self.outcome, parse_entry(text),
                               now or dt.datetime.now().astimezone(),
                               self.station.config.split_window)
        if again is None or check_table(table) != again.table:
            return None
        return again

    def judge(self, text: str, *, table: str = "", round: str = "",
              now: dt.datetime | None = None) -> Outcome:
        """TEXT judged and recorded: the recheck of the verdict never shown when it is its
        challenge again, else a new challenge (Station.submit; EntryError as it raises). The
        verdict never shown is forgotten then, unless another program held the journal locked:
        nothing was recorded, and the players' retry may still be its recheck."""
        again = self.rechallenged(text, table, now)
        outcome = (self.station.recheck(again) if again is not None
                   else self.station.submit(text, table=table, round=round))
        if not outcome.locked:
            self.outcome = None
        return outcome

    def shown(self, seq: int | None) -> None:
        """Challenge SEQ is on the screen, painted: no restart shows it again (None: nothing)."""
        mark_shown(self.state_file, seq)
