"""A journal file lost under a running station (deleted, replaced): the file that follows it.

A station never restarts its numbering silently (issue 42: a journal deleted while the station
ran took the next verdicts with it, the numbering began again at #1 after a restart, and
`journal verify` said intact). Where its journal was, with nothing there now, it makes a file
that CONTINUES that journal: the same journal id, its numbering and hash chain going on from
the last row it knew (the file it held, else the head file beside it). That file says it is
new (meta `follows`: the rows before it are elsewhere), and `journal verify` of it says rows
1-N are missing, as they are. A file at the path that is this journal put back (the same id,
with at least the rows the station knew) is used again. Anything else there (another journal,
another program's file, a folder) is never written: the station says JOURNAL NOT AVAILABLE
until the director moves it away.
"""

from __future__ import annotations

import os

from adjudicator.errors import JournalError
from adjudicator.journal import anchor

FOLLOWS = "follows"  # meta key: the last row of the journal this file continues (not in it)


def open_after(path: str, lost: anchor.Head | None, *, station: str, opener):
    """The journal to record in at PATH after LOST (the last row the station knew of the file
    it lost; None at a start): OPENER(path) -> Journal opens one. JournalError when the file
    there is not this journal's to write."""
    if os.path.lexists(path):
        journal = opener(path)
        if lost is None:
            return journal
        try:
            here = journal.last_head()
            ours = (here is not None and here.journal_id == lost.journal_id
                    and here.seq >= lost.seq)
        except JournalError:
            ours = False
        if not ours:
            journal.close()
            raise JournalError(
                f"another journal is now at {path}: the station does not write into it (the "
                f"file it recorded challenges 1-{lost.seq} in was lost); move it away, or "
                "put the station's own journal back")
        return journal
    follows = lost or anchor.read_head(path)  # a restart: the head file beside it says
    journal = opener(path)
    if follows is None:
        return journal
    try:
        journal.continue_from(follows, station, FOLLOWS)
    except JournalError:
        journal.close()
        raise
    return journal


def follows_note(journal) -> str:
    """What Ready says of a journal file that continues a lost one, else ""."""
    meta = getattr(journal, "meta", None)  # (a journal of another kind says nothing)
    try:
        info = meta() if meta is not None else {}
    except JournalError:
        return ""
    last = info.get(FOLLOWS, "")
    if not last.isdigit():
        return ""
    return (f"NEW JOURNAL FILE: challenges 1-{last} are not in it (the file they were in was "
            f"lost while the station ran); it goes on from #{int(last) + 1}. Call the director.")
