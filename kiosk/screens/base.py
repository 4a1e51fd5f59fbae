"""LockedScreen and LockedModal: screens with no bindings of their own; each screen's .tcss loader."""

from __future__ import annotations

from pathlib import Path

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen, Screen


def screen_css(name: str) -> str:
    """The styles in kiosk/screens/NAME, for a screen's DEFAULT_CSS.

    Textual parses a screen's DEFAULT_CSS when the screen is first used, so only the Ready
    screen's styles (kiosk.tcss) stand between a cold start and its first paint.
    """
    return Path(__file__).with_name(name).read_text(encoding="utf-8")


def journal_said(station) -> str:
    """What a station's home screen says of its journal now ("" when all is well): not open,
    its file lost under the station, its last record failed, or a file continuing a lost one
    (issue 42). The file's place is checked first (a few stat calls; the journal is not read)."""
    if station.journal_pending:
        return ""
    station.check_journal()
    if station.journal is None or station.journal_alarm:
        problem = station.journal_alarm or station.journal_problem
        return f"JOURNAL NOT AVAILABLE: call the director ({problem})"
    return station.journal_note


# Seconds a screen's timer waits at least. Textual 8.2's one-shot timer never fires when more
# than its interval passes between two clock reads at its start (Timer._run skips the tick), and
# one of 0 s divides by zero there: a verdict whose hold had run out before it was mounted (a
# busy machine) stayed held for good. Well above a thread switch (5 ms), well below a person.
MIN_TIMER = 0.05


def timer_delay(protocol) -> float:
    """How long a screen's timer waits for the protocol's deadline: never 0 (MIN_TIMER)."""
    return max(protocol.remaining() or 0.0, MIN_TIMER)


class DismissedOnce:
    """A screen dismissed only while it is the one shown, so only once (issue 36).

    Textual's dismiss() pops whatever screen is on top: ESC and a click on "Back to the
    station" read together dismissed director mode, then the Ready screen under it, and the
    station stayed blank, taking no key, F12 or click, with its child alive. A second dismiss
    (ESC and a button, two clicks, ENTER twice) now does nothing.
    """

    def dismiss(self, result=None) -> AwaitComplete:
        if not self.is_active:
            return AwaitComplete.nothing()
        return super().dismiss(result)


class LockedScreen(DismissedOnce, Screen, inherit_bindings=False):
    """Players' screens: only the bindings a subclass declares, nothing inherited from Textual."""

    AUTO_FOCUS = None


class LockedModal(DismissedOnce, ModalScreen, inherit_bindings=False):
    """A modal that inherits no bindings either; a box in the middle of the screen."""

    DEFAULT_CSS = screen_css("boxes.tcss")
    AUTO_FOCUS = None
