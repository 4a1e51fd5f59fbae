"""EntryInput and OrderedInput: ONE key handler applies every key in the order typed; TAB judges.

Why one handler: Textual gives a printable key to the focused Input at once, but runs a binding
(BACKSPACE, TAB, ENTER) only after the key has bubbled back up to the App, by which time the
letters typed after it have already been inserted: "zax", BACKSPACE, " qi" became "zax q". And
Widget.focus() waits its turn behind the keys already read, so at the runner's desk the letters
typed after ENTER landed in the Table box (an "r" there asked for a recheck). Here the App hands
each key, as it arrives, to `take_key` of the focused box, which applies it at once; messages
that move the focus or change the screen are delivered at once too (`deliver`), so the key after
them already goes where the typist meant it.
"""

from __future__ import annotations

import inspect
import re

from rich.cells import cell_len, get_character_cell_size
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Input

from adjudicator.text.entry import MAX_ENTRY_CHARS, too_long_message
from adjudicator.text.visible import visible

# Editing keys a box keeps, and the Input method each one runs. Nothing else edits.
EDITING_KEYS = {
    "backspace": "action_delete_left",
    "delete": "action_delete_right",
    "left": "action_cursor_left",
    "right": "action_cursor_right",
    "home": "action_home",
    "end": "action_end",
}


# What the terminal driver makes of bytes that are not UTF-8 (kiosk/terminal.py): never typed.
UNDECODABLE = "\ufffd"
# Where a paste is cut: its first line is typed. Only real line ends: every other character
# that Python's splitlines() also cuts at (U+001C-001E, VT, FF, NEL, U+2028...) is kept and
# shown, and the entry is refused naming it, never cut silently.
LINE_END = re.compile(r"\r\n|\r|\n")
# A key held with one of these is a chord, never a letter typed (docs/station.md: every Alt
# chord does nothing). The terminal driver drops an ESC-prefixed Alt chord before any box sees
# it; this stops one that came another way (e.g. the kitty keyboard protocol).
CHORD_MODIFIERS = frozenset({"alt", "ctrl", "super", "hyper", "meta"})


def is_chord(event: events.Key) -> bool:
    """True when EVENT is a key pressed with Alt, Ctrl, Super, Hyper or Meta."""
    return any(part in CHORD_MODIFIERS for part in event.key.split("+")[:-1])


def deliver(widget, message: Message) -> bool:
    """Hand MESSAGE to the nearest ancestor (up to the screen) that handles it, now; True if so.

    Posting would run it after every key already read; a focus move or a verdict decided by
    this key must be in place before the next key is applied. Async handlers are not called.
    """
    if not widget.is_attached:
        return False
    screen = widget.screen
    node = widget.parent
    while node is not None:
        handler = getattr(node, message.handler_name, None)
        if handler is not None and not inspect.iscoroutinefunction(handler):
            handler(message)
            return True
        if node is screen:
            break
        node = node.parent
    return False


class VisibleInput(Input):
    """An Input that never writes what it holds to the terminal as a control (issue 21).

    It draws its value through adjudicator.text.visible (ESC as ␛, a bidi override or a zero-width
    space as ␦...): one character, one cell, so the cursor, a click and a selection land on the
    character they show. The value itself is kept as typed; the entry is refused for it.
    """

    @property
    def _value(self) -> Text:
        if self.password:
            return super()._value
        return Text(visible(self.value), no_wrap=True, overflow="ignore", end="")

    def _position_to_cell(self, position: int) -> int:
        if self.password:
            return super()._position_to_cell(position)
        return cell_len(visible(self.value[:position]))

    def _cell_offset_to_index(self, offset: int) -> int:
        if self.password:
            return super()._cell_offset_to_index(offset)
        offset += self.scroll_offset.x
        cell = 0
        for index, char in enumerate(visible(self.value)):
            width = get_character_cell_size(char)
            if cell <= offset < cell + width:
                return index
            cell += width
        return max(0, min(offset, len(self.value)))


class OrderedInput(VisibleInput, inherit_bindings=False):
    """An Input with no bindings: the App gives it each key in order through `take_key`."""

    BINDINGS: list = []
    COMMAND_KEYS: dict[str, str] = {}  # key -> name of a method that posts the key's message

    def __init__(self, *args, **kwargs):
        # Input selects all its text when its Focus event is handled, which is after the keys
        # already read: at the runner's desk "car rap" typed just after ENTER moved the focus
        # was selected and replaced by the next letters ("AP" judged). Never here.
        kwargs.setdefault("select_on_focus", False)
        super().__init__(*args, **kwargs)

    def take_key(self, event: events.Key) -> None:
        """Apply EVENT now. Keys that are not editing, a command or a character are ignored."""
        self._restart_blink()
        action = EDITING_KEYS.get(event.key)
        if action is not None:
            getattr(self, action)()
        elif event.key in self.COMMAND_KEYS:
            getattr(self, self.COMMAND_KEYS[event.key])()
        elif (event.is_printable and event.character not in (None, UNDECODABLE)
              and not is_chord(event)):
            self.type_text(event.character)

    def tell(self, message: Message) -> None:
        """MESSAGE to the screen now (deliver), else posted as usual."""
        if not deliver(self, message):
            super().post_message(message)

    def post_message(self, message: Message) -> bool:
        # Input posts Changed on every edit: it is handled now, in key order, so that a
        # screen never sees an entry's change after the TAB (or verdict) that followed it.
        if isinstance(message, Input.Changed) and deliver(self, message):
            return True
        return super().post_message(message)

    def take_paste(self, event: events.Paste) -> None:
        """A bracketed paste: its first line, typed in at the cursor as one edit.

        Controls and invisible characters in it are kept (the box shows them, VisibleInput):
        the entry is then refused naming each, never judged with a character dropped.
        """
        line = LINE_END.split(event.text, 1)[0].replace(UNDECODABLE, "")
        if line:
            self.type_text(line)

    def type_text(self, text: str, *, partly: bool = False) -> None:
        """TEXT at the cursor (over a selection), unless the box refuses it (restricted()).

        Text that would make the value longer than max_length is refused whole (too_long),
        before anything is inserted or drawn: a paste of any size costs one length check.
        PARTLY (keys typed one after another): what fits is taken, as each key would have been,
        and only the rest refused, with the same one check.
        """
        if not text:
            return
        selection = self.selection
        room = (self.max_length - len(self.value) + abs(selection.end - selection.start)
                if self.max_length else len(text))
        if len(text) > room:
            if not partly or room <= 0:
                self.too_long(text)
                return
            self.type_text(text[:room])
            self.too_long(text[room:])
            return
        if selection.is_empty:
            self.insert_text_at_cursor(text)
        else:
            self.replace(text, *selection)

    def too_long(self, text: str) -> None:
        """TEXT was refused: the box would be too long. Silent here; EntryInput says so."""

    def restricted(self) -> None:
        """Silent, always (WESPA 3.11.1(b)): Input would ring the bell."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return False  # no binding, no markup action: keys come through take_key only

    # Textual's own handlers stay out: a key or paste reaching the box by another road
    # (one the App did not route) is applied by the same handler, never by Input's.
    async def _on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.take_key(event)

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()
        self.take_paste(event)


class EntryInput(OrderedInput):
    """Letters, spaces, backspace, delete and arrows only; TAB asks for the adjudication."""

    COMMAND_KEYS = {"tab": "action_adjudicate", "enter": "action_press_tab_hint"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, max_length=MAX_ENTRY_CHARS, **kwargs)

    class Refused(Message):
        """Typed or pasted text was not taken: the entry would be longer than a play forms."""

        def __init__(self, text: str):
            super().__init__()
            self.text = text

    def take_text(self, text: str) -> None:
        """TEXT, printable characters typed one after another (kiosk/typed.py), as its keys
        would be taken one by one (take_key), with one length check: what fits is typed, the
        rest refused (Refused). The box has no key command a printable character could be."""
        self._restart_blink()
        self.type_text(text.replace(UNDECODABLE, ""), partly=True)

    def too_long(self, text: str) -> None:
        self.tell(self.Refused(too_long_message(len(text))))

    class Adjudicate(Message):
        """The opponent pressed TAB (or the button): judge exactly this text."""

        def __init__(self, text: str):
            super().__init__()
            self.text = text

    class Hint(Message):
        """ENTER was pressed: tell the players that TAB adjudicates."""

    def action_adjudicate(self) -> None:
        self.tell(self.Adjudicate(self.value))

    def action_press_tab_hint(self) -> None:
        self.tell(self.Hint())
