"""What a pty kiosk's screen shows now (pyte fed every byte it wrote), and waiting for a text on it.

Waiting for bytes after a mark is not enough where a screen may be painted before the mark (a
verdict's hint, a count already shown): this reads the screen as a terminal would show it.
"""

from __future__ import annotations

import time

import pyte


class Shown:
    """The screen of a PtyApp of COLS x ROWS, fed incrementally."""

    def __init__(self, app, cols: int = 80, rows: int = 24):
        self.app = app
        self.screen = pyte.Screen(cols, rows)
        self._stream = pyte.ByteStream(self.screen)
        self._fed = 0

    def lines(self) -> list[str]:
        data = bytes(self.app.screen[self._fed:])
        self._fed += len(data)
        self._stream.feed(data)
        return self.screen.display

    def has(self, text: str) -> bool:
        return any(text in line for line in self.lines())

    def wait(self, text: str, *more: str, timeout: float = 30.0, absent: str = "") -> list[str]:
        """Read until TEXT and MORE are on the screen (and ABSENT is not); the screen's lines.
        (Textual paints a screen in parts: one line may show before the next is drawn.)"""
        deadline = time.monotonic() + timeout
        while True:
            lines = self.lines()
            if all(any(t in line for line in lines) for t in (text, *more)) and not (
                    absent and any(absent in line for line in lines)):
                return lines
            if time.monotonic() > deadline or self.app.proc.poll() is not None:
                raise AssertionError(f"{text!r} not on screen:\n" + "\n".join(lines))
            self.app.drain(0.1)
