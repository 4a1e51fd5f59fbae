"""A station's hold on its journal: still the file at its path, writable, or let go and continued.

Issue 42: a journal deleted, replaced, made a folder or immutable under a running station was
written into (the verdicts lost), or killed the kiosk (SIGBUS). The Station asks here before and
after each record, and Ready asks once a second (docs/journal.md says what each case does).
"""

from __future__ import annotations

from adjudicator.errors import JournalLostError, JournalUnwritableError


class JournalKeeping:
    """For the Station: the journal to record in, its alarms, and what Ready says of it."""

    _journal = None
    _opener = None
    _reopener = None
    journal_problem = ""
    _lost = None  # the last row known of a journal file lost under the station
    journal_alarm = ""  # the open journal failed its last record (disk full...)
    _alarm_clears = False  # ...and the alarm goes once its files can be written
    _note: tuple[object, str] | None = None  # (journal, what Ready says of it)
    # A surface that shows each verdict and then calls settle_journal() (the kiosk, once the
    # verdict is painted): its rows' head file and checkpoint wait till then (journal/settle.py)
    settle_after_show = False

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
        if self._opener is not None:
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
        if journal is None or self._opener is not None:
            return ""
        if self._note is None or self._note[0] is not journal:
            from adjudicator.journal.successor import follows_note

            self._note = (journal, follows_note(journal))
        return self._note[1]

