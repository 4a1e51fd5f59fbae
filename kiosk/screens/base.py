"""LockedScreen and LockedModal: screens with no bindings of their own; each screen's .tcss loader."""

from __future__ import annotations

from pathlib import Path

from textual.screen import ModalScreen, Screen


def screen_css(name: str) -> str:
    """The styles in kiosk/screens/NAME, for a screen's DEFAULT_CSS.

    Textual parses a screen's DEFAULT_CSS when the screen is first used, so only the Ready
    screen's styles (kiosk.tcss) stand between a cold start and its first paint.
    """
    return Path(__file__).with_name(name).read_text(encoding="utf-8")


class LockedScreen(Screen, inherit_bindings=False):
    """Players' screens: only the bindings a subclass declares, nothing inherited from Textual."""

    AUTO_FOCUS = None


class LockedModal(ModalScreen, inherit_bindings=False):
    """A modal that inherits no bindings either; a box in the middle of the screen."""

    DEFAULT_CSS = screen_css("boxes.tcss")
    AUTO_FOCUS = None
