"""KioskDriver: Textual's Linux terminal driver, with input that no byte sequence can end.

Textual decodes the terminal's bytes as strict UTF-8 in its input thread: one invalid byte
(a Latin-1 "é" is e9) raised UnicodeDecodeError there and Textual ended the app with a
traceback on the players' screen. Here undecodable bytes become U+FFFD, which no entry box
takes (kiosk/widgets/entry_input.py), and a parser failure on anything else the terminal sends
is logged and the parser started afresh: the station keeps judging.

Bracketed pastes are cut out of the input here, before Textual's parser, which reads them one
character at a time (a 100 KB paste held the keys typed after it for seconds) and never found
the paste's end when the pasted text held an ESC (every key after it was pasted, for ever).
A paste ends at its end marker, or after PASTE_QUIET seconds with no input; at most
PASTE_KEEP characters of it are kept (the entry box refuses anything that long anyway).

Sizes come from the terminal device only (SIGWINCH), clamped to what a screen can be: a
window-size report written into the input ("ESC [ 48 ; 0 ; 0 ; 0 ; 0 t") set a zero pixel size
that the next click divided by (ZeroDivisionError), and a huge one would have Textual draw
billions of cells. Such a report now only makes the driver read the real size again.
"""

from __future__ import annotations

import logging
import os
import selectors
import time
from codecs import getincrementaldecoder

from textual import events
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver
from textual.geometry import Size
from textual.messages import InBandWindowResize

log = logging.getLogger("adjudicator.kiosk")

READ_SIZE = 4096
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
PASTE_QUIET = 0.5  # seconds of silence that end a paste whose end marker never came
PASTE_KEEP = 1 << 20  # characters of one paste kept; the rest is counted out, never stored
MAX_COLUMNS = 1000  # no real screen is wider or taller than this, in character cells
MAX_ROWS = 500


def held_back(text: str, marker: str) -> int:
    """How many characters at the end of TEXT could begin MARKER (kept for the next read)."""
    for n in range(min(len(marker) - 1, len(text)), 0, -1):
        if marker.startswith(text[-n:]):
            return n
    return 0


class Pastes:
    """Splits decoded input into text for the parser and whole bracketed pastes."""

    def __init__(self, clock=time.monotonic) -> None:
        self._clock = clock
        self.pasting = False
        self._chunks: list[str] = []
        self._kept = 0
        self._held = ""  # the start of a marker, cut by the read
        self._last = 0.0

    def split(self, text: str) -> list[str | events.Paste]:
        """TEXT (may be "") as parser text (str) and Paste events, in order."""
        now = self._clock()
        out: list[str | events.Paste] = []
        if text:
            self._last = now
        elif self._held and not self.pasting:
            text, self._held = self._held, ""  # a lone ESC (say) waited one tick: it is a key
            out.append(text)
            return out
        text, self._held = self._held + text, ""
        while text:
            if not self.pasting:
                i = text.find(PASTE_START)
                if i < 0:
                    keep = held_back(text, PASTE_START)
                    text, self._held = text[: len(text) - keep], text[len(text) - keep:]
                    if text:
                        out.append(text)
                    break
                if i:
                    out.append(text[:i])
                self.pasting, text = True, text[i + len(PASTE_START):]
            else:
                j = text.find(PASTE_END)
                if j < 0:
                    keep = held_back(text, PASTE_END)
                    self._add(text[: len(text) - keep])
                    self._held = text[len(text) - keep:]
                    break
                self._add(text[:j])
                out.append(self._end())
                text = text[j + len(PASTE_END):]
        if self.pasting and not text and now - self._last >= PASTE_QUIET:
            self._add(self._held)
            self._held = ""
            out.append(self._end())  # the end marker never came: the paste is what came
        return out

    def _add(self, text: str) -> None:
        if self._kept < PASTE_KEEP and text:
            text = text[: PASTE_KEEP - self._kept]
            self._chunks.append(text)
            self._kept += len(text)

    def _end(self) -> events.Paste:
        text = "".join(self._chunks).replace("\x00", "")  # as Textual does (its issue 1661)
        self.pasting, self._chunks, self._kept = False, [], 0
        return events.Paste(text)


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """WIDTH x HEIGHT within 1..MAX_COLUMNS and 1..MAX_ROWS (80 x 25 when unknown)."""
    return (min(max(width or 80, 1), MAX_COLUMNS), min(max(height or 25, 1), MAX_ROWS))


class KioskParser(XTermParser):
    """Textual's parser, with mouse reports always read as cells (never scaled by pixels)."""

    def parse_mouse_code(self, code: str):
        self.mouse_pixels = False  # set by any "ESC [ 48 ; ... t" in the input
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
        """Read, decode (invalid bytes replaced) and parse the terminal's input until exit."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        decode = getincrementaldecoder("utf-8")(errors="replace").decode
        parser = KioskParser(self._debug)
        pastes = Pastes()
        try:
            while not self.exit_event.is_set():
                data = self._read() if selector.select(0.1) else b""
                # "" for an incomplete UTF-8 sequence: the rest comes with the next read
                for part in pastes.split(decode(data)) or [""]:
                    if isinstance(part, events.Paste):
                        self.process_message(part)
                    else:
                        parser = self._parse(parser, part)
        finally:
            selector.close()

    def _read(self) -> bytes:
        try:
            data = os.read(self.fileno, READ_SIZE)
        except OSError:
            data = b""
        if not data:  # end of input (the terminal went away): wait, never spin
            self.exit_event.wait(0.1)
        return data

    def _parse(self, parser: KioskParser, text: str) -> KioskParser:
        """Feed TEXT (or only tick when empty); the parser to go on with."""
        try:
            for event in parser.feed(text) if text else ():
                self.process_message(event)
            for event in parser.tick():
                self.process_message(event)
            return parser
        except Exception:  # noqa: BLE001 - the terminal's bytes must never end the kiosk
            log.exception("terminal input not understood: %d characters dropped", len(text))
            return KioskParser(self._debug)
