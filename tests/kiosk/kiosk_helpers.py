"""Helpers for the kiosk tests: a fixed clock, the tiny list, a failing journal, screen text."""

from __future__ import annotations

import datetime as dt

from adjudicator.errors import JournalError

FIXED_TIME = dt.datetime(2026, 11, 22, 14, 3, 22, tzinfo=dt.timezone.utc)

# Not a real word list: QI ZA CAT are "words", XYZZY is not.
TINY = ["QI", "ZA", "CAT"]


class BrokenJournal:
    """A journal whose disk has failed: every write raises JournalError."""

    def record(self, *args, **kwargs):
        raise JournalError("disk I/O error writing /tmp/journal.db")

    def count(self):
        raise JournalError("disk I/O error")

    def recent(self, n=20):
        return []

    def close(self):
        pass


def screen_name(app) -> str:
    return type(app.screen).__name__


def text_of(app, selector: str) -> str:
    """The plain text a Static shows."""
    return str(app.screen.query_one(selector).render())


def screen_lines(app) -> list[str]:
    """The characters of every row of the terminal, as the compositor draws them."""
    return [strip.text for strip in app.screen._compositor.render_strips()]
