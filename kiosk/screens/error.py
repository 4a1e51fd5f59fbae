"""ErrorModal: one plain message for the director (an AdjudicatorError's text) and an OK."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from kiosk.widgets.touch_button import TouchButton
from kiosk.screens.base import LockedModal


class ErrorModal(LockedModal):
    """Shows what went wrong; nothing was changed. Any of ENTER, ESCAPE or OK closes it."""

    BINDINGS = [Binding("enter,escape", "close", show=False)]

    def __init__(self, message: str, title: str = "NOT DONE") -> None:
        super().__init__()
        self.message = message
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="error-box"):
            yield Static(self.title_text, id="error-title")
            yield Static(self.message, id="error-message")
            yield TouchButton("OK", id="error-ok")

    def on_touch_button_pressed(self, event: TouchButton.Pressed) -> None:
        event.stop()
        self.action_close()

    def action_close(self) -> None:
        self.dismiss(None)
