"""TouchButton: a button for fingers and mice that never takes the keyboard focus from the entry."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import Static

from kiosk.widgets.entry_input import deliver


class TouchButton(Static, can_focus=False):
    """Pressed by a tap or a click only; the keyboard stays with the players' entry line.

    Built on Static, not Textual's Button: the kiosk needs one look and one message, and Button's
    many variants cost its Ready screen several milliseconds of style parsing at every start.
    """

    DEFAULT_CSS = """
    TouchButton {
        width: auto;
        min-width: 16;
        height: 3;
        padding: 0 2;
        content-align: center middle;
        text-style: bold;
        color: $foreground;
        background: $surface-lighten-1;
        border-top: tall $surface-lighten-2;
        border-bottom: tall $surface-darken-1;
    }
    TouchButton:hover {
        background: $primary 40%;
    }
    TouchButton.-pressed {
        background: $primary;
        border-top: tall $surface-darken-1;
        border-bottom: tall $surface-lighten-2;
    }
    """

    class Pressed(Message):
        """The button was tapped or clicked (handled as on_touch_button_pressed)."""

        def __init__(self, button: TouchButton) -> None:
            super().__init__()
            self.button = button

        @property
        def control(self) -> TouchButton:
            return self.button

    def __init__(self, label: str, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(label, id=id, classes=classes, markup=False)
        # presses the App made (at a release): Textual's Click of each is not taken again. A
        # Click Textual never made (the screen changed under the pointer) leaves a count that
        # only a Click of a later App press takes back: every terminal Click follows one.
        self._taken = 0

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if self._taken:  # the App pressed it at the mouse button's release (kiosk/app.py)
            self._taken -= 1
            return
        self.press()

    def press(self, *, now: bool = False) -> None:
        """Show the press briefly and tell the screen; a hidden or disabled button does nothing.

        NOW (the App, at a press and release read from the terminal): the screen is told at
        once, before the next key or tap read with it, and the Click Textual makes of the same
        press and release is not taken again.
        """
        if self.disabled or not self.display:
            return
        self.add_class("-pressed")
        self.set_timer(0.15, lambda: self.remove_class("-pressed"))
        if now:
            self._taken += 1
            if deliver(self, self.Pressed(self)):
                return
        self.post_message(self.Pressed(self))
