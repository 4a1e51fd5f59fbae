"""A station's hold on its journal: opened, kept the file at its path, or let go and continued.

Issue 42: a journal deleted, replaced, made a folder or immutable under a running station was
written into (the verdicts lost), or killed the kiosk (SIGBUS). The Station asks here before and
after each record, and Ready asks once a second (docs/journal.md says what each case does).
"""

from __future__ import annotations

from adjudicator.config.station import Config
from adjudicator.errors import (AdjudicatorError, JournalError, JournalLostError,
                                JournalUnwritableError)

# Seconds a station's verdict waits for a journal another program holds locked, then NOT
# RECORDED; with SQLite's own wait (journal/db.py BUSY_TIMEOUT) about 5 s at most in all
# (docs/station.md). The kiosk says "recording..." meanwhile (issue 36: it froze up to 120 s).
STATION_LOCK_PATIENCE = 3.0


class JournalKeeping:
    """For the Station: the journal to record in, its alarms, and what Ready says of it."""

    _journal = None
    _reopener = None
    journal_problem = ""
    _lost = None  # the last row known of a journal file lost under the station
    journal_alarm = ""  # the open journal failed its last record (disk full...)
    _alarm_clears = False  # ...and the alarm goes once its files can be written
    _note: tuple[object, str] | None = None  # (journal, what Ready says of it)
    # A surface that shows each verdict and then calls settle_journal() (the kiosk, once the
    # verdict is painted): its rows' head file and checkpoint wait till then (journal/settle.py)
    settle_after_show = False

    @property
    def journal(self):
        """The open journal, or None (the Station's opens a deferred one on first use)."""
        return self._journal

    @property
    def journal_pending(self) -> bool:
        """True until a deferred journal has been opened (the Station's)."""
        return False

    def _journal_to_record(self):
        """The journal, opened again now if it could not be opened before (or its file was
        lost: then the one that continues it, journal/successor.py)."""
        journal = self.journal
        if journal is None and self._reopener is not None:
            journal, problem = self._reopener(self._lost)
            self._journal, self.journal_problem = journal, ("" if journal else problem)
        if journal is not None and self.settle_after_show and hasattr(journal, "settle"):
            journal.settle_later = True  # (each journal: one reopened, one that continues)
        return journal

    def settle_journal(self) -> None:
        """The verdict recorded last is shown: its head file and checkpoint now (a journal
        lost or unwritable meanwhile is left as it is: journal/settle.py)."""
        settle = getattr(self._journal, "settle", None)
        if settle is not None:
            try:
                settle()
            except Exception:  # noqa: BLE001 - the row is committed; this is its bookkeeping
                pass

    def check_journal(self) -> None:
        """Is the journal open still the file at its path, and writable? Asked at Ready (a
        few stat calls, nothing read): a file deleted or replaced is let go (JOURNAL NOT
        AVAILABLE until it is recreated or put back); an alarm of files that could not be
        written goes once they can be (issue 42)."""
        journal = self._journal
        if self.journal_pending:
            return
        if journal is None:
            import os

            # nothing where the journal was (deleted, or a folder there taken away): the file
            # that continues it is made now, not only at the next verdict; never waits
            if self._lost is not None and self._reopener is not None and not os.path.lexists(
                    self.config.journal):
                self._journal_to_record()
            return
        check = getattr(journal, "check", None)  # (a journal of another kind: nothing to ask)
        if check is None:
            return
        try:
            check()
        except JournalLostError as e:
            self._lose(journal, str(e))
        except JournalUnwritableError as e:
            self.journal_alarm, self._alarm_clears = str(e), True
        else:
            if self._alarm_clears:
                self.journal_alarm, self._alarm_clears = "", False

    def _lose(self, journal, why: str) -> None:
        """JOURNAL's file is no longer at its path: nothing more is written into it."""
        self._lost = journal.last_head() or self._lost
        try:
            getattr(journal, "let_go", journal.close)()
        except Exception:  # noqa: BLE001 - let go whatever it says
            pass
        self._journal, self.journal_problem = None, why
        self.journal_alarm, self._alarm_clears = "", False

    @property
    def journal_note(self) -> str:
        """What Ready says of the open journal itself: a file that continues a lost one."""
        journal = self._journal
        if journal is None or self.journal_pending:
            return ""
        if self._note is None or self._note[0] is not journal:
            from adjudicator.journal.successor import follows_note

            self._note = (journal, follows_note(journal))
        return self._note[1]

    def export_csv(self) -> str:
        """Write the whole journal as CSV beside it (the director's copy); returns its path."""
        import datetime as dt
        import os

        if self.journal is None:
            raise JournalError(f"no journal is open ({self.journal_problem})")
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        folder = os.path.dirname(os.path.abspath(self.journal.path))
        out = os.path.join(folder, f"journal-export-{stamp}.csv")
        try:
            with open(out, "w", encoding="utf-8", newline="") as f:
                self.journal.export("csv", out=f)  # streamed: any size in little memory
        except OSError as e:
            raise JournalError(f"cannot write {out}: {e.strerror or e}") from e
        return out


def open_journal(config: Config, lost=None):
    """(journal, problem): the open journal, or None and why (the kiosk still judges, loudly).
    Where the journal was lost (LOST: its last row known; or its head file left beside an
    empty path), the file that continues it (journal/successor.py), never one from #1."""
    try:
        from adjudicator.journal import Journal
        from adjudicator.journal.successor import open_after
    except ImportError as e:  # pragma: no cover - only while the journal package is missing
        return None, f"journal package missing: {e}"
    try:
        from adjudicator.journal.db import default_journal_path

        path = config.journal or default_journal_path()
        return open_after(path, lost, station=config.station, opener=lambda p: Journal.open(
            p, split_window=config.split_window, timeout=STATION_LOCK_PATIENCE)), ""
    except AdjudicatorError as e:
        return None, str(e)
    except OSError as e:
        return None, f"cannot open journal {config.journal}: {e.strerror or e}"
