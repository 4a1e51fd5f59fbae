"""KioskDriver: Textual's Linux terminal driver, with input that no byte sequence can end.

Textual decodes the terminal's bytes as strict UTF-8 in its input thread: one invalid byte
(a Latin-1 "é" is e9) raised UnicodeDecodeError there and Textual ended the app with a
traceback on the players' screen. Here undecodable bytes become U+FFFD, which no entry box
takes (kiosk/widgets/entry_input.py), and a failure on anything else the terminal sends is
logged and the input started afresh: the station keeps judging.

The input is cut into text, whole escape sequences and bracketed pastes by kiosk/sequences.py
(TerminalInput), however the reads cut them; only then does KioskParser turn them into events:
each character of text into its key, a whole sequence into the one key, mouse report or report
it stands for. A sequence the kiosk does not use, and every Alt chord, is dropped whole: Textual
typed an unknown sequence's characters ("ESC [ 8 ; 0 ; 0 t" put "[8;0;0t" into the entry) and
Alt+X as "x" (issue 21).

Sizes come from the terminal device only (SIGWINCH), clamped to what a screen can be: a
window-size report written into the input ("ESC [ 48 ; 0 ; 0 ; 0 ; 0 t") set a zero pixel size
that the next click divided by (ZeroDivisionError), and a huge one would have Textual draw
billions of cells. Such a report now only makes the driver read the real size again.
"""

from __future__ import annotations

import logging
import os
import selectors
from codecs import getincrementaldecoder

from textual import events, messages
from textual._xterm_parser import (
    FOCUSIN,
    FOCUSOUT,
    XTermParser,
    _re_in_band_window_resize,
    _re_mouse_event,
    _re_terminal_mode_response,
)
from textual.drivers.linux_driver import LinuxDriver
from textual.geometry import Size
from textual.keys import Keys
from textual.message import Message
from textual.messages import InBandWindowResize

from .sequences import Sequence, TerminalInput

log = logging.getLogger("adjudicator.kiosk")

READ_SIZE = 4096
MAX_COLUMNS = 1000  # no real screen is wider or taller than this, in character cells
MAX_ROWS = 500


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """WIDTH x HEIGHT within 1..MAX_COLUMNS and 1..MAX_ROWS (80 x 25 when unknown)."""
    return (min(max(width or 80, 1), MAX_COLUMNS), min(max(height or 25, 1), MAX_ROWS))


class KioskParser(XTermParser):
    """Textual's tables of keys and mouse reports, given whole sequences (never a guess)."""

    def text_events(self, text: str) -> list[Message]:
        """The keys of TEXT (no ESC in it), one a character, as Textual's parser makes them."""
        return [key for ch in text for key in self._sequence_to_key_events(ch)
                if key.key != Keys.Ignore]

    def sequence_events(self, seq: str) -> list[Message]:
        """What the whole sequence SEQ stands for; [] for one the kiosk does not use."""
        if len(seq) <= 2:
            return []  # ESC and one character: an Alt chord (never typed: docs/station.md)
        if seq == FOCUSIN:
            return [events.AppFocus()]
        if seq == FOCUSOUT:
            return [events.AppBlur()]
        if _re_in_band_window_resize.fullmatch(seq):
            return [events.Resize(Size(80, 24), Size(80, 24))]  # the driver reads the real size
        if (match := _re_terminal_mode_response.fullmatch(seq)) is not None:
            if match["mode_id"] == "2026" and int(match["setting_parameter"]) > 0:
                return [messages.TerminalSupportsSynchronizedOutput()]
            return []
        if _re_mouse_event.match(seq):
            event = self.parse_mouse_code(seq)
            return [] if event is None else [event]
        return [key for key in self._sequence_to_key_events(seq) if key.key != Keys.Ignore]

    def parse_mouse_code(self, code: str):
        self.mouse_pixels = False  # mouse reports are always read as cells, never pixels
        return super().parse_mouse_code(code)


class KioskDriver(LinuxDriver):
    """LinuxDriver whose input thread never fails on what the terminal sends."""

    def _get_terminal_size(self) -> tuple[int, int]:
        return clamp_size(*super()._get_terminal_size())

    def _query_in_band_window_resize(self) -> None:
        """Never asked for: the terminal device's size (SIGWINCH) is the only one believed."""

    def process_message(self, message) -> None:
        if isinstance(message, InBandWindowResize):
            return  # a forged mode report would turn SIGWINCH off and mouse pixels on
        if isinstance(message, events.Resize):
            size = Size(*self._get_terminal_size())
            message = events.Resize(size, size)
        super().process_message(message)

    def run_input_thread(self) -> None:
        """Read, decode (invalid bytes replaced), split and parse the terminal's input."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        decode = getincrementaldecoder("utf-8")(errors="replace").decode
        parser = KioskParser(self._debug)
        terminal_input = TerminalInput()
        try:
            while not self.exit_event.is_set():
                data = self._read() if selector.select(0.1) else b""
                # "" for an incomplete UTF-8 sequence: the rest comes with the next read
                try:
                    for part in terminal_input.split(decode(data)):
                        for message in self._messages(parser, part):
                            self.process_message(message)
                except Exception:  # noqa: BLE001 - the terminal's bytes must never end the kiosk
                    log.exception("terminal input not understood: %d bytes dropped", len(data))
                    parser, terminal_input = KioskParser(self._debug), TerminalInput()
        finally:
            selector.close()

    @staticmethod
    def _messages(parser: KioskParser, part) -> list:
        if isinstance(part, Sequence):
            return parser.sequence_events(part)
        if isinstance(part, str):
            return parser.text_events(part)
        return [part]  # a Paste, or the Escape key

    def _read(self) -> bytes:
        try:
            data = os.read(self.fileno, READ_SIZE)
        except OSError:
            data = b""
        if not data:  # end of input (the terminal went away): wait, never spin
            self.exit_event.wait(0.1)
        return data
