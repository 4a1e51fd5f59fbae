"""Typed: a run of plain characters read together, handed on as one event (issue 28).

Textual made one Key event of every character typed, and each cost about 0.15 ms to dispatch and
apply: 600 KB of plain typing (a held key, a stuck keyboard, bytes written at the station)
stalled the kiosk's input for a minute or more. The terminal driver (kiosk/terminal.py) now
hands on a run of printable characters that came in one read as one Typed event. The entry box
takes it as one piece of text with one length check (kiosk/widgets/entry_input.py); any other
box or screen is given the very keys the characters stand for, in order (kiosk/app.py). A run
never holds a control (TAB, ENTER, BACKSPACE...) or an escape sequence: those cut it, so every
key keeps its place among the characters typed around it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual import events

class Typed(events.Event, bubble=False):
    """TEXT: printable characters typed one after another, read together (never empty)."""

    def __init__(self, text: str, keys_of: Callable[[str], Iterable[events.Key]]) -> None:
        super().__init__()
        self.text = text
        self._keys_of = keys_of

    def keys(self) -> list[events.Key]:
        """The Key events the characters stand for, one a character, in order."""
        return list(self._keys_of(self.text))

    def keys_of(self, text: str) -> list[events.Key]:
        """The Key events of TEXT (a part of this run), in order."""
        return list(self._keys_of(text))


def plain_runs(text: str) -> list[tuple[bool, str]]:
    """TEXT cut into (plain, part): runs of printable characters (str.isprintable: what an
    entry box types from a key), and runs of the others (controls, DEL, format characters...),
    which stay keys of their own, in order."""
    if text.isprintable():
        return [(True, text)] if text else []
    parts: list[tuple[bool, str]] = []
    start, plain = 0, text[0].isprintable()
    for i, ch in enumerate(text):
        if ch.isprintable() != plain:
            parts.append((plain, text[start:i]))
            start, plain = i, not plain
    parts.append((plain, text[start:]))
    return parts
