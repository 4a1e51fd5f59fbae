"""PinModal: asks for the director's PIN; says how to set one if none is set; shows the lockout."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from adjudicator.station.pin_gate import MAX_TRIES, NO_PIN
from kiosk.widgets.touch_button import TouchButton
from kiosk.screens.base import LockedModal


class PinModal(LockedModal):
    """Dismisses with True when the PIN is right, False when cancelled or shut."""

    BINDINGS = [Binding("escape", "cancel", show=False)]

    def compose(self) -> ComposeResult:
        gate = self.app.pin_gate
        with Vertical(id="pin-box"):
            yield Static("DIRECTOR", id="pin-title")
            if not gate.configured:
                yield Static(NO_PIN, id="pin-message", classes="alarm")
            else:
                yield Static("Enter the director's PIN, then ENTER.", id="pin-message")
                yield Input(password=True, id="pin-input", max_length=64)
            yield TouchButton("Cancel", id="pin-cancel")

    def on_mount(self) -> None:
        self._show_lock()
        self.set_interval(1.0, self._show_lock)
        self.set_timer(self.app.station.config.timers.entry_idle, self.action_cancel)
        if self.query("#pin-input"):
            self.query_one("#pin-input", Input).focus()

    def _show_lock(self) -> None:
        left = self.app.pin_gate.seconds_locked()
        if self.query("#pin-input"):
            pin_input = self.query_one("#pin-input", Input)
            pin_input.disabled = bool(left)
            if left:
                self._say(f"Too many wrong PINs: locked for {left} s.", alarm=True)
            elif "locked" in str(self.query_one("#pin-message", Static).content):
                self._say("Enter the director's PIN, then ENTER.", alarm=False)
                pin_input.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        pin = event.value
        event.input.value = ""
        result = self.app.pin_gate.check(pin)
        if result == "ok":
            self.dismiss(True)
        elif result == "wrong":
            left = MAX_TRIES - self.app.pin_gate.wrong
            tries = "1 try" if left == 1 else f"{left} tries"
            self._say(f"Wrong PIN. {tries} left before a 60 s lockout.", alarm=True)
        else:
            self._show_lock()

    def _say(self, text: str, *, alarm: bool) -> None:
        message = self.query_one("#pin-message", Static)
        message.update(text)
        message.set_class(alarm, "alarm")

    def on_touch_button_pressed(self, event: TouchButton.Pressed) -> None:
        event.stop()
        self.action_cancel()

    def action_cancel(self) -> None:
        if self.is_current:
            self.dismiss(False)
