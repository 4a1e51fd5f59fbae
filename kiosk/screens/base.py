"""LockedScreen: a screen with no bindings of its own (no TAB focus hopping, no copy, no exit)."""

from __future__ import annotations

from textual.screen import ModalScreen, Screen


class LockedScreen(Screen, inherit_bindings=False):
    """Players' screens: only the bindings a subclass declares, nothing inherited from Textual."""

    AUTO_FOCUS = None


class LockedModal(ModalScreen, inherit_bindings=False):
    """A modal that inherits no bindings either."""

    AUTO_FOCUS = None
