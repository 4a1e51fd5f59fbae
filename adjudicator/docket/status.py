"""The printer's DLE EOT 1-4 status bytes -> PrinterStatus, in words an adjudicator understands."""

from __future__ import annotations

from dataclasses import dataclass

# Every real-time status byte has bits 1 and 4 set and bits 0 and 7 clear (Epson ESC/POS DLE EOT).
FIXED_MASK, FIXED_BITS = 0x93, 0x12

# One phrase a problem, then what to do about it; the kiosk shows "<problem>. <advice>".
NO_ANSWER = "printer not answering"
NOT_TAKING_DATA = "printer not taking data"
OFFLINE = "printer offline"
COVER_OPEN = "printer cover open"
PAPER_OUT = "paper out"
CUTTER_ERROR = "cutter jammed"
PRINTER_FAULT = "printer fault"
PAPER_LOW = "paper running low"
GARBLED = "printer answer not understood"
QUEUE_FULL = "print queue full"
NO_PRINTER = "no printer configured"

ADVICE = {
    NO_ANSWER: "Check it is switched on and its cable is plugged in",
    NOT_TAKING_DATA: "Check the paper, the cover and the cable",
    OFFLINE: "Check the paper and the cover, then press the printer's feed button",
    COVER_OPEN: "Close the printer cover",
    PAPER_OUT: "Reload paper",
    CUTTER_ERROR: "Open the cover, clear the jammed paper and close the cover",
    PRINTER_FAULT: "Switch the printer off and on again",
    PAPER_LOW: "Have a new roll ready",
    GARBLED: "Check the baud rate and flow control settings match the printer",
    QUEUE_FULL: "Check the printer",
    NO_PRINTER: "Set printer.url in the configuration",
}


def valid_reply(byte: int) -> bool:
    """True when `byte` has the fixed bits of a real-time status reply (0x12 under mask 0x93)."""
    return (byte & FIXED_MASK) == FIXED_BITS


@dataclass(frozen=True)
class PrinterStatus:
    """What the printer said to DLE EOT 1-4 (None: no reply to that request)."""

    printer: int | None = None   # n=1: bit 3 offline
    offline_cause: int | None = None  # n=2: bit 2 cover open, bit 5 paper end, bit 6 error
    error_cause: int | None = None  # n=3: bit 3 autocutter, 5 unrecoverable, 6 auto-recoverable
    paper: int | None = None     # n=4: bits 2-3 near end, bits 5-6 paper out
    not_taking_data: bool = False  # the request itself could not be sent (write timed out)

    @classmethod
    def from_replies(cls, replies: dict[int, bytes | int | None]) -> PrinterStatus:
        """Build from {n: reply}; a missing or empty reply is None."""
        def one(n: int) -> int | None:
            value = replies.get(n)
            if value is None or value == b"":
                return None
            return value if isinstance(value, int) else value[-1]
        return cls(one(1), one(2), one(3), one(4))

    @classmethod
    def from_port_status(cls, value: int) -> PrinterStatus:
        """From a printer port's status byte (LPGETSTATUS; USB printer class GET_PORT_STATUS):
        bit 5 paper empty, bit 4 selected, bit 3 no error (clear: an error). Said as the DLE EOT
        1 and 2 replies it amounts to; nothing is known of the cutter or of paper near its end."""
        paper_out, selected, error = bool(value & 0x20), bool(value & 0x10), not value & 0x08
        offline = paper_out or error or not selected
        return cls(printer=0x12 | (0x08 if offline else 0),
                   offline_cause=0x12 | (0x20 if paper_out else 0) | (0x40 if error else 0))

    @classmethod
    def silent(cls) -> PrinterStatus:
        return cls()

    @classmethod
    def blocked(cls) -> PrinterStatus:
        return cls(not_taking_data=True)

    # -- what the bits say ---------------------------------------------------------------------
    @property
    def answered(self) -> bool:
        return self.printer is not None

    @property
    def garbled(self) -> bool:
        present = [b for b in (self.printer, self.offline_cause, self.error_cause, self.paper)
                   if b is not None]
        return any(not valid_reply(b) for b in present)

    def _bit(self, value: int | None, mask: int) -> bool:
        return value is not None and valid_reply(value) and bool(value & mask)

    @property
    def offline(self) -> bool:
        return self._bit(self.printer, 0x08)

    @property
    def cover_open(self) -> bool:
        return self._bit(self.offline_cause, 0x04)

    @property
    def paper_out(self) -> bool:
        return self._bit(self.offline_cause, 0x20) or self._bit(self.paper, 0x60)

    @property
    def cutter_error(self) -> bool:
        return self._bit(self.error_cause, 0x08)

    @property
    def fault(self) -> bool:
        """An error the printer reports without a cause we can name (n=3 bits 5-6, n=2 bit 6)."""
        return self._bit(self.error_cause, 0x60) or (
            self._bit(self.offline_cause, 0x40)
            and not (self.cover_open or self.paper_out or self.cutter_error))

    @property
    def near_end(self) -> bool:
        return self._bit(self.paper, 0x0C)

    # -- in words ------------------------------------------------------------------------------
    @property
    def problems(self) -> tuple[str, ...]:
        """Every reason the printer cannot print now, most useful first; () when it can."""
        if self.not_taking_data:
            return (NOT_TAKING_DATA,)
        if not self.answered:
            return (NO_ANSWER,)
        if self.garbled:
            return (GARBLED,)
        found = [name for name, present in (
            (COVER_OPEN, self.cover_open), (PAPER_OUT, self.paper_out),
            (CUTTER_ERROR, self.cutter_error), (PRINTER_FAULT, self.fault)) if present]
        if self.offline and not found:
            found.append(OFFLINE)
        return tuple(found)

    @property
    def ok(self) -> bool:
        """The printer answered and can print (paper near end is only a warning)."""
        return not self.problems

    @property
    def warnings(self) -> tuple[str, ...]:
        return (PAPER_LOW,) if self.near_end and not self.paper_out else ()

    @property
    def reason(self) -> str:
        """Short, for the journal: 'paper out', 'printer cover open, paper out', '' when fine."""
        return ", ".join(self.problems)

    def message(self) -> str:
        """One or two sentences for the screen, e.g. 'Paper out. Reload paper.'"""
        items = self.problems or self.warnings
        if not items:
            return "Printer ready."
        return explain(items)

    def describe(self) -> str:
        """For `printer test`: the state in words, warnings included."""
        if self.problems:
            return self.message()
        if self.warnings:
            return "Printer ready, but " + " ".join(
                f"{item}. {ADVICE[item]}." for item in self.warnings)
        return "Printer ready."


def explain(problems) -> str:
    """'Paper out. Reload paper.' for each problem named in this module."""
    return " ".join(f"{_cap(item)}. {ADVICE[item]}." if item in ADVICE else f"{_cap(item)}."
                    for item in problems)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
