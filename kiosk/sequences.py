"""TerminalInput: the terminal's decoded input as text, whole escape sequences and pastes.

Textual's parser gave up on an escape sequence it did not know (a window-size report
"ESC [ 8 ; 0 ; 0 t", or "ESC [ 3 ;" whose "c" came 200 ms later) and typed its characters into
the entry box as keys, and it typed Alt+X (ESC x) as "x" (issue 21). Here the input is cut into
sequences by their grammar (ECMA-48: CSI ends at its final byte, SS3 after one character, a
control string at ST or BEL), however the reads cut them, before anything becomes a key:

- text (no ESC) goes on to the parser, a character at a time, as before;
- a whole sequence goes on as one Sequence, which the driver turns into a key, a mouse report
  or a report it believes (kiosk/terminal.py), and drops whole when the kiosk does not use it;
- ESC followed by one more character (an Alt chord) is dropped: every Alt chord does nothing;
- a lone ESC, with nothing after it for ESCAPE_DELAY, is the Escape key. Silence is what the
  reader finds when it looks (split("")), counted from when it last went back to waiting: bytes
  that came while the kiosk was stalled or busy are never silence (issue 28: a 1.5 s stall under
  mouse motion and arrow keys typed "D" and "C", 1,500 clicks in one write typed their
  characters, a paste read late was typed as keys and its TAB judged);
- a sequence that stops half-way is dropped: its introducer alone (ESC [, ESC O...) after
  ESCAPE_DELAY (it was an Alt chord), anything longer after SEQUENCE_QUIET without input;
- a bracketed paste (ESC [ 200 ~ ... ESC [ 201 ~) is one Paste event. It ends at its end marker,
  or after PASTE_QUIET seconds with no input; at most PASTE_KEEP characters of it are kept (the
  entry box refuses anything that long anyway). Textual read pastes one character at a time
  (a 100 KB paste held the keys typed after it for seconds) and never found the paste's end when
  the pasted text held an ESC.
"""

from __future__ import annotations

import re
import time

from textual import constants, events

ESC = "\x1b"
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
PASTE_QUIET = 0.5  # seconds of silence that end a paste whose end marker never came
PASTE_KEEP = 1 << 20  # characters of one paste kept; the rest is counted out, never stored
ESCAPE_DELAY = constants.ESCAPE_DELAY  # a lone ESC is the Escape key after this long (0.1 s)
SEQUENCE_QUIET = 0.5  # seconds of silence that end (and drop) a sequence cut half-way
MAX_SEQUENCE = 64  # characters of one sequence kept; a longer one is dropped whole

# 8-bit forms of the introducers (never sent by a UTF-8 terminal, but bytes are hostile)
C1_INTRODUCERS = {"\x9b": "[", "\x8f": "O", "\x90": "P", "\x9d": "]", "\x98": "X",
                  "\x9e": "^", "\x9f": "_"}
STRING_INTRODUCERS = frozenset("P]X^_")  # DCS, OSC, SOS, PM, APC: end at ST (or BEL)
_STARTS = re.compile("[\x1b\x8f\x90\x98\x9b\x9d\x9e\x9f]")

# states
TEXT, AFTER_ESC, CSI, SS3, STRING, STRING_ESC, NF, TAKE = range(8)


class Sequence(str):
    """One whole escape sequence (7-bit form), for the driver to understand or drop."""


def held_back(text: str, marker: str) -> int:
    """How many characters at the end of TEXT could begin MARKER (kept for the next read)."""
    for n in range(min(len(marker) - 1, len(text)), 0, -1):
        if marker.startswith(text[-n:]):
            return n
    return 0


class TerminalInput:
    """Splits decoded input into text, Sequences, the Escape key and Paste events, in order."""

    def __init__(self, clock=time.monotonic) -> None:
        self._clock = clock
        self._state = TEXT
        self._seq = ""  # the sequence so far (at most MAX_SEQUENCE characters kept)
        self._length = 0  # its real length
        self._take = 0  # characters still to take whatever they are (TAKE)
        self._last = clock()  # since when the reader has been waiting (waiting())
        self.pasting = False
        self._chunks: list[str] = []
        self._kept = 0
        self._held = ""  # the start of the paste's end marker, cut by the read
        self.dropped = 0  # sequences and Alt chords dropped (for the tests)

    def waiting(self) -> None:
        """The reader has handed on everything it read and waits for more: silence counts
        from now (not from when the last bytes were read: a busy kiosk is not a quiet one)."""
        self._last = self._clock()

    def split(self, text: str) -> list[str | Sequence | events.Event]:
        """TEXT as parser text, Sequences and events. "" means the reader looked and found no
        input: only then does silence decide anything (an Escape key, a cut sequence dropped,
        a paste ended). Bytes that were waiting, however late they are read (a stalled or busy
        kiosk), go on with what came before them: boundaries are decided by the bytes."""
        out: list[str | Sequence | events.Event] = []
        if not text:
            self._quiet(self._clock(), out)
            return out
        try:
            self._split(text, out)
        finally:
            self.waiting()
        return out

    def _split(self, text: str, out: list) -> None:
        if self._held:  # only while pasting: the start of its end marker, from the last read
            text, self._held = self._held + text, ""
        i, n = 0, len(text)
        while i < n:
            if self.pasting:
                i = self._paste(text, i, out)
            elif self._state == TEXT:
                m = _STARTS.search(text, i)
                j = m.start() if m else n
                if j > i:
                    out.append(text[i:j])
                if m:
                    ch = text[j]
                    if ch == ESC:
                        self._begin(ESC, AFTER_ESC)
                    else:
                        self._begin(ESC + C1_INTRODUCERS[ch],
                                    self._state_after(C1_INTRODUCERS[ch]))
                i = j + 1
            elif self._step(text[i], out):
                i += 1

    # -- sequences ------------------------------------------------------------------------------

    def _begin(self, seq: str, state: int) -> None:
        self._seq, self._length, self._state = seq, len(seq), state

    @staticmethod
    def _state_after(introducer: str) -> int:
        if introducer == "[":
            return CSI
        if introducer == "O":
            return SS3
        return STRING

    def _add(self, ch: str) -> None:
        self._length += 1
        if len(self._seq) < MAX_SEQUENCE:
            self._seq += ch

    def _step(self, ch: str, out: list) -> bool:
        """Take CH into the sequence; False when CH ended it without being part of it (then CH
        is read again, from TEXT or AFTER_ESC)."""
        state, code = self._state, ord(ch)
        if state == AFTER_ESC:
            if ch == ESC:  # ESC ESC: the first was the Escape key
                out.append(events.Key("escape", ESC))
                self._begin(ESC, AFTER_ESC)
            elif ch in "[O" or ch in STRING_INTRODUCERS:
                self._add(ch)
                self._state = self._state_after(ch)
            elif 0x20 <= code <= 0x2F:  # ESC ( B and the like: intermediates, then a final
                self._add(ch)
                self._state = NF
            else:  # ESC and one character: an Alt chord, which does nothing
                self._drop()
            return True
        if state == STRING:
            if ch == "\x07" or ch == "\x9c":
                self._drop()
            elif ch == ESC:
                self._state = STRING_ESC
            else:
                self._add(ch)
            return True
        if state == STRING_ESC:
            if ch == "\\":
                self._drop()  # ESC \ (ST): the string is whole; the kiosk uses none
                return True
            self._drop()
            self._begin(ESC, AFTER_ESC)  # that ESC began something else
            return False
        if state == TAKE:
            if ch == ESC:  # never in a mouse report's bytes: something else begins (a paste)
                self._drop()
                self._begin(ESC, AFTER_ESC)
                return True
            self._add(ch)
            self._take -= 1
            if not self._take:
                self._finish(out)
            return True
        if ch == ESC:
            self._drop()
            self._begin(ESC, AFTER_ESC)
            return True
        if not 0x20 <= code <= 0x7E:  # a control or non-ASCII in a sequence: it was cut
            self._drop()
            return False
        self._add(ch)
        if state == SS3:
            self._finish(out)
        elif state == NF:
            if code >= 0x30:
                self._drop()  # ESC ( B...: the kiosk uses none
        elif code >= 0x40:  # CSI's final byte
            if self._seq == "\x1b[[":  # the Linux console's F1-F5: ESC [ [ A
                self._state, self._take = TAKE, 1
            elif self._seq == "\x1b[M":  # a mouse report of the old kind: three bytes follow
                self._state, self._take = TAKE, 3
            else:
                self._finish(out)
        return True

    def _finish(self, out: list) -> None:
        seq = self._seq
        if self._length > MAX_SEQUENCE:
            self._drop()
            return
        self._state, self._seq, self._length = TEXT, "", 0
        if seq == PASTE_START:
            self.pasting = True
        elif seq != PASTE_END:  # an end marker with no paste: nothing
            out.append(Sequence(seq))

    def _drop(self) -> None:
        self.dropped += 1
        self._state, self._seq, self._length, self._take = TEXT, "", 0, 0

    def _quiet(self, now: float, out: list) -> None:
        """The reader found no input: after long enough, a lone ESC is the Escape key; a
        sequence cut half-way is dropped; a paste whose end never came is what came."""
        quiet = now - self._last + 0.005  # a select() timing out at 0.1 s may say 0.0999
        if self.pasting:
            if quiet >= PASTE_QUIET:
                self._keep(self._held)
                self._held = ""
                out.append(self._end_paste())
        elif self._state == AFTER_ESC and self._length == 1:
            if quiet >= ESCAPE_DELAY:
                self._state, self._seq, self._length = TEXT, "", 0
                out.append(events.Key("escape", ESC))
        elif self._state != TEXT:
            if quiet >= (ESCAPE_DELAY if self._length <= 2 else SEQUENCE_QUIET):
                self._drop()

    # -- pastes ---------------------------------------------------------------------------------

    def _paste(self, text: str, i: int, out: list) -> int:
        """Take the paste's text from TEXT[i:]; the index after what was taken."""
        j = text.find(PASTE_END, i)
        if j < 0:
            n = len(text)
            end = n - held_back(text[max(i, n - len(PASTE_END) + 1):], PASTE_END)
            self._keep(text[i:end])
            self._held = text[end:]
            return n
        self._keep(text[i:j])
        out.append(self._end_paste())
        return j + len(PASTE_END)

    def _keep(self, text: str) -> None:
        if self._kept < PASTE_KEEP and text:
            text = text[: PASTE_KEEP - self._kept]
            self._chunks.append(text)
            self._kept += len(text)

    def _end_paste(self) -> events.Paste:
        text = "".join(self._chunks).replace("\x00", "")  # as Textual does (its issue 1661)
        self.pasting, self._chunks, self._kept = False, [], 0
        return events.Paste(text)
