"""The runner's desk's boxes: table and round numbers, the slip's words, the slips not printed."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList

from kiosk.widgets.entry_input import EntryInput, OrderedInput, is_chord


class RunnerEntry(EntryInput):
    """The slip's words: TAB judges; ESCAPE or SHIFT+TAB goes back to Table, the words kept."""

    COMMAND_KEYS = {**EntryInput.COMMAND_KEYS, "escape": "action_back", "shift+tab": "action_back"}

    class Back(Message):
        """Back to the Table box."""

    def action_back(self) -> None:
        self.tell(self.Back())


class UnprintedList(OptionList):
    """Every slip not printed; ENTER (or a click) prints the one chosen; ESCAPE back to Table."""

    BINDINGS = [Binding("escape", "back", show=False)]

    class Back(Message):
        """Back to the Table box."""

    def action_back(self) -> None:
        self.post_message(self.Back())


class NumberInput(OrderedInput):
    """Table or round: digits only; TAB or ENTER moves on, SHIFT+TAB or ESCAPE back; P prints
    the slips not printed (else the last again), R rechecks, L goes to the list."""

    COMMAND_KEYS = {"tab": "action_next", "enter": "action_next",
                    "shift+tab": "action_back", "escape": "action_back"}

    class Next(Message):
        """Go on to the next box."""

        def __init__(self, box: NumberInput):
            super().__init__()
            self.box = box

        @property
        def control(self) -> NumberInput:
            return self.box

    class Reprint(Message):
        """P was pressed: print the slips not printed, else the last slip again."""

    class Recheck(Message):
        """R was pressed: re-adjudicate the last challenge (WESPA 3.10.9; 003 4.6.7)."""

    def __init__(self, **kwargs):
        super().__init__(restrict=r"[0-9]*", max_length=4, **kwargs)

    class List(Message):
        """L was pressed: go to the list of slips not printed."""

    class Back(Message):
        """SHIFT+TAB or ESCAPE: back to the box before."""

        def __init__(self, box: NumberInput):
            super().__init__()
            self.box = box

    def action_back(self) -> None:
        self.tell(self.Back(self))

    def take_key(self, event: events.Key) -> None:
        """P, R and L are commands here (the screen refuses P and R while words are typed)."""
        commands = {"p": self.Reprint, "r": self.Recheck, "l": self.List}
        message = None if is_chord(event) else commands.get((event.character or "").lower())
        if message is not None:
            self.tell(message())  # in turn: never typed, never after a later key
        else:
            super().take_key(event)

    def action_next(self) -> None:
        self.tell(self.Next(self))
