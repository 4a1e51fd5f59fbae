"""InOrder: the kiosk's keys, runs of letters and taps, each applied as it is read (issue 36).

Textual posts a key to the focused widget (or the screen) and a click down to the widget under
it, each handled in its own queue: a tap read with a key was applied after it (a NEXT click with
`r` rechecked; a RECHECK click with SPACE dropped the recheck), and the letters read with the key
that sent a verdict away went to the verdict, which was leaving. KioskApp.on_event hands each
one, as it arrives, to the box or screen that takes it now (`take_key`, `take_text`,
`take_paste`); a press and release on a TouchButton is its tap, now.
"""

from __future__ import annotations

from textual import events
from textual.errors import NoWidget

from kiosk.typed import Typed
from kiosk.widgets.touch_button import TouchButton


class InOrder:
    """For the App: where each key, run of letters and tap goes, now."""

    _button_down: TouchButton | None = None  # the TouchButton a mouse button went down on

    def _taker(self, name: str):
        """The focused box's NAME method (take_key, take_paste, take_text), else the screen's
        (the verdict takes its keys itself: it has no box)."""
        take = getattr(self.focused, name, None)
        if take is None and name == "take_key":
            take = getattr(self.screen, name, None)
        return take

    async def _take_typed(self, event: Typed) -> None:
        """A run of printable characters read together: an entry box takes it as one piece of
        text; anything else its keys one by one, in order, and what is left of the run goes to
        the box that has the keyboard once one does (the words typed after the key that sent a
        verdict away are Ready's: `" cat xu"` on a verdict, then TAB, judges CAT XU)."""
        text = event.text
        for i, ch in enumerate(text):
            take = self._taker("take_text")
            if take is not None:
                take(text[i:])
                return
            for key in event.keys_of(ch):
                await self.on_event(key)

    def _touch_button_at(self, event: events.MouseEvent) -> TouchButton | None:
        try:
            widget, _ = self.screen.get_widget_at(event.screen_x, event.screen_y)
        except NoWidget:
            return None
        return widget if isinstance(widget, TouchButton) else None

    def _release(self, event: events.MouseUp) -> None:
        """A press and release on the same button is its tap, applied now, in order with the
        keys read with it. Textual would post its Click down to the button, whose message
        came back after keys read later: a NEXT click with `r` rechecked, a RECHECK click with
        SPACE dropped the recheck (issue 36)."""
        button, self._button_down = self._button_down, None
        if button is not None and button is self._touch_button_at(event):
            button.press(now=True)
