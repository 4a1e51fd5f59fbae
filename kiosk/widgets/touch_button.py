"""TouchButton: a button for fingers and mice that never takes the keyboard focus from the entry."""

from __future__ import annotations

from textual.widgets import Button


class TouchButton(Button, can_focus=False):
    """Pressed by a tap or a click only; the keyboard stays with the players' entry line."""
