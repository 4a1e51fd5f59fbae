"""EntryInput: the line players type into; TAB adjudicates, every editing chord is switched off."""

from __future__ import annotations

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input


# The only editing keys an entry box keeps (inherit_bindings=False drops Input's chords).
EDITING_BINDINGS = [
    Binding("backspace", "delete_left", show=False),
    Binding("delete", "delete_right", show=False),
    Binding("left", "cursor_left", show=False),
    Binding("right", "cursor_right", show=False),
    Binding("home", "home", show=False),
    Binding("end", "end", show=False),
]


class EntryInput(Input, inherit_bindings=False):
    """Letters, spaces, backspace, delete and arrows only; TAB asks for the adjudication.

    The TAB binding is deliberately NOT a priority binding on the App: a priority binding runs as
    soon as the key arrives, before the letters typed just ahead of it have reached this Input, so
    a burst "qi za<TAB>" would judge an incomplete entry. A plain binding here is handled in turn,
    after every letter queued before it (DESIGN.md; tests/kiosk/test_pty_burst.py proves it).
    """

    BINDINGS = [
        Binding("tab", "adjudicate", "Adjudicate", show=False),
        Binding("enter", "press_tab_hint", show=False),
        *EDITING_BINDINGS,
    ]

    class Adjudicate(Message):
        """The opponent pressed TAB (or the button): judge exactly this text."""

        def __init__(self, text: str):
            super().__init__()
            self.text = text

    class Hint(Message):
        """ENTER was pressed: tell the players that TAB adjudicates."""

    def action_adjudicate(self) -> None:
        self.post_message(self.Adjudicate(self.value))

    def action_press_tab_hint(self) -> None:
        self.post_message(self.Hint())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        allowed = {"adjudicate", "press_tab_hint", "delete_left", "delete_right",
                   "cursor_left", "cursor_right", "home", "end"}
        return action in allowed
