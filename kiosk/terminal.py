"""KioskDriver: Textual's Linux terminal driver, with input that no byte sequence can end.

Textual decodes the terminal's bytes as strict UTF-8 in its input thread: one invalid byte
(a Latin-1 "é" is e9) raised UnicodeDecodeError there and Textual ended the app with a
traceback on the players' screen. Here undecodable bytes become U+FFFD, which no entry box
takes (kiosk/widgets/entry_input.py), except raw 8-bit C1 controls (bytes 80-9f), read as the
controls they are, so a sequence they begin is cut whole (decoder()); a failure on anything
else the terminal sends is written to the kiosk log (keep_log) and only that part dropped: the
station keeps judging.
Keys reported as codes (kitty, modifyOtherKeys) are read by kiosk/keyreports.py; the kitty
protocol itself is not asked for.

The input is cut into text, whole escape sequences and bracketed pastes by kiosk/sequences.py
(TerminalInput), however the reads cut them; only then does KioskParser turn them into events:
a run of printable characters into one Typed (kiosk/typed.py), each other character of text
into its key, a whole sequence into the one key, mouse report or report
it stands for. A sequence the kiosk does not use, and every Alt chord, is dropped whole: Textual
typed an unknown sequence's characters ("ESC [ 8 ; 0 ; 0 t" put "[8;0;0t" into the entry) and
Alt+X as "x" (issue 21).

Sizes come from the terminal device only (SIGWINCH), clamped to what a screen can be: a
window-size report written into the input ("ESC [ 48 ; 0 ; 0 ; 0 ; 0 t") set a zero pixel size
that the next click divided by (ZeroDivisionError), and a huge one would have Textual draw
billions of cells. Such a report now only makes the driver read the real size again.
"""

from __future__ import annotations

import codecs
import logging
import os
import re
import selectors

from textual import events, messages
from textual._xterm_parser import (
    FOCUSIN,
    FOCUSOUT,
    XTermParser,
    _re_extended_key,
    _re_in_band_window_resize,
    _re_mouse_event,
    _re_terminal_mode_response,
)
from textual.drivers.linux_driver import LinuxDriver
from textual.geometry import Size
from textual.keys import Keys
from textual.message import Message
from textual.messages import InBandWindowResize

from adjudicator.text.visible import visible

from kiosk.keyreports import reported_keys
from kiosk.sequences import Sequence, TerminalInput
from kiosk.typed import Typed, plain_runs

log = logging.getLogger("adjudicator.kiosk")

KITTY_REQUEST = re.compile(r"\x1b\[>[0-9]+u")  # push flags of the kitty keyboard protocol
READ_SIZE = 4096
MAX_COLUMNS = 1000  # no real screen is wider or taller than this, in character cells
MAX_ROWS = 500


def c1_or_replacement(error: UnicodeDecodeError) -> tuple[str, int]:
    """A codec error handler: each byte that is not UTF-8 becomes U+FFFD, but 80-9f, which are
    the 8-bit C1 controls (CSI 9b, OSC 9d, DCS 90, SOS 98, PM 9e, APC 9f, ST 9c...), become
    those controls, so kiosk/sequences.py cuts the whole sequence they begin, as it does the
    7-bit form (ESC [, ESC ]...). Replaced, they were dropped and the rest of the sequence was
    typed: `ca` 9d `0;ACCEPTABLE` BEL `t` made the entry `ca0;ACCEPTABLEt` (issue 36)."""
    bad = error.object[error.start:error.end]
    return "".join(chr(b) if 0x80 <= b <= 0x9F else "\ufffd" for b in bad), error.end


C1_ERRORS = "adjudicator-kiosk-c1"
codecs.register_error(C1_ERRORS, c1_or_replacement)


def decoder():
    """The terminal's bytes as text, incrementally: UTF-8, raw C1 bytes as C1 controls, any
    other byte that is not UTF-8 as U+FFFD (which no box types)."""
    return codecs.getincrementaldecoder("utf-8")(errors=C1_ERRORS).decode


def keep_log(stream) -> None:
    """What the input thread reports (a part of the input it could not understand, dropped)
    goes to STREAM: the kiosk log when supervised (adjudicator/supervisor/child.py). Python's last
    resort would write to sys.stderr, which Textual holds while it runs, so nothing reached the
    log (issue 28). Never onto a terminal: that is the players' screen."""
    try:
        if stream is None or stream.isatty():
            return
    except (AttributeError, ValueError, OSError):
        return
    if any(getattr(h, "stream", None) is stream for h in log.handlers):
        return
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
    log.addHandler(handler)
    log.propagate = False


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """WIDTH x HEIGHT within 1..MAX_COLUMNS and 1..MAX_ROWS (80 x 25 when unknown)."""
    return (min(max(width or 80, 1), MAX_COLUMNS), min(max(height or 25, 1), MAX_ROWS))


class KioskParser(XTermParser):
    """Textual's tables of keys and mouse reports, given whole sequences (never a guess)."""

    def text_events(self, text: str) -> list[Message]:
        """TEXT (no ESC in it) as events, in order: each run of printable characters as one
        Typed (kiosk/typed.py), each other character as its key."""
        out: list[Message] = []
        for plain, part in plain_runs(text):
            if plain:
                out.append(Typed(part, self.keys_of))
            else:
                out.extend(self.keys_of(part))
        return out

    def keys_of(self, text: str) -> list[events.Key]:
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
        keys = reported_keys(seq, self._sequence_to_key_events)  # kitty, modifyOtherKeys
        if keys is None and _re_extended_key.fullmatch(seq) and (":" in seq or seq.count(";") > 1):
            keys = []  # a kitty event type or text on a legacy key: not asked for, never typed
        if keys is None:
            keys = list(self._sequence_to_key_events(seq))
        return [key for key in keys if key.key != Keys.Ignore]

    def parse_mouse_code(self, code: str):
        self.mouse_pixels = False  # mouse reports are always read as cells, never pixels
        return super().parse_mouse_code(code)


class AfterWritten(str):
    """Queued to the driver's writer thread like a frame (empty): CALLBACK runs there once
    every frame queued before it is written and flushed to the terminal."""

    def __new__(cls, callback) -> AfterWritten:
        made = super().__new__(cls, "")
        made.callback = callback
        return made


class _Flushing:
    """The writer thread's file: a marker flushes what came before it, then runs its callback."""

    def __init__(self, file) -> None:
        self._file = file

    def write(self, text: str) -> None:
        if isinstance(text, AfterWritten):
            self._file.flush()
            try:
                text.callback()
            except Exception:  # noqa: BLE001 - never the writer thread's end
                pass
            return
        self._file.write(text)

    def flush(self) -> None:
        self._file.flush()

    def __getattr__(self, name):  # fileno, isatty...: the file's own
        return getattr(self._file, name)


class KioskDriver(LinuxDriver):
    """LinuxDriver whose input thread never fails on what the terminal sends."""

    def start_application_mode(self) -> None:
        if not isinstance(self._file, _Flushing):  # before the writer thread takes it
            self._file = _Flushing(self._file)
        super().start_application_mode()

    def after_written(self, callback) -> None:
        """CALLBACK() (in the writer thread) once all that was painted so far is on the
        terminal, not only queued for it (issue 42: a verdict marked shown after its refresh
        could be killed with its frame still in the queue, and never shown)."""
        writer = self._writer_thread
        if writer is None or not writer.is_alive():
            callback()
        else:
            writer.write(AfterWritten(callback))

    def _get_terminal_size(self) -> tuple[int, int]:
        return clamp_size(*super()._get_terminal_size())

    def _query_in_band_window_resize(self) -> None:
        """Never asked for: the terminal device's size (SIGWINCH) is the only one believed."""

    def _sigcont_application(self, *_) -> None:
        """SIGCONT: Textual started application mode again, with a second input thread beside
        the one still reading, however the kiosk had stopped; after a plain SIGSTOP (a stalled
        machine, a debugger) the two threads shared the input and typed the halves of escape
        sequences (a stall under mouse motion typed "<35;64;9M"; issue 28). Only a kiosk whose
        input had really stopped (suspended) starts it again."""
        if self._key_thread is not None and self._key_thread.is_alive():
            return
        super()._sigcont_application()

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
        decode = decoder()
        parser = KioskParser(self._debug)
        terminal_input = TerminalInput()
        try:
            while not self.exit_event.is_set():
                # A select() interrupted by a signal (SIGCONT after a stall, SIGWINCH) whose
                # time is up says "nothing" without looking (PEP 475): look again, at once.
                data = self._read() if selector.select(0.1) or selector.select(0) else b""
                text = decode(data)  # "" for an incomplete UTF-8 sequence: the rest comes next
                if data and not text:
                    continue  # bytes came: that is no silence
                try:
                    parts = terminal_input.split(text)  # "": nothing came (the timers run)
                except Exception:  # noqa: BLE001 - the terminal's bytes must never end the kiosk
                    log.exception("terminal input not understood: %d bytes dropped", len(data))
                    parser, terminal_input = KioskParser(self._debug), TerminalInput()
                    continue
                for part in parts:
                    for message in self._messages(parser, part):
                        try:
                            self.process_message(message)
                        except Exception:  # noqa: BLE001 - the input thread never dies
                            log.exception("terminal input not delivered: %r", message)
                if data:
                    terminal_input.waiting()  # all handed on: silence counts from now
        finally:
            selector.close()

    @staticmethod
    def _messages(parser: KioskParser, part) -> list:
        """The events of one PART; a part that cannot be understood is dropped alone (and
        logged), never the rest of the read with it."""
        try:
            if isinstance(part, Sequence):
                return parser.sequence_events(part)
            if isinstance(part, str):
                return parser.text_events(part)
        except Exception:  # noqa: BLE001 - the terminal's bytes must never end the kiosk
            log.exception("terminal input not understood: %r dropped", visible(str(part)[:80]))
            return []
        return [part]  # a Paste, or the Escape key

    def write(self, data: str) -> None:
        """Everything Textual writes, but its request for the kitty keyboard protocol: the
        station reads keys as every terminal sends them by default (kiosk/keyreports.py
        still reads a report that comes anyway)."""
        if KITTY_REQUEST.fullmatch(data):
            return
        super().write(data)

    def _read(self) -> bytes:
        try:
            data = os.read(self.fileno, READ_SIZE)
        except OSError:
            data = b""
        if not data:  # end of input (the terminal went away): wait, never spin
            self.exit_event.wait(0.1)
        return data
