"""Slip -> ESC/POS bytes, pure: no ports, no clock, the same slip always gives the same bytes."""

from __future__ import annotations

import textwrap

from adjudicator.errors import ConfigError
from adjudicator.judging.marks import ART_WIDTH, CROSS, TICK  # noqa: F401 - the marks, printed at double size
from adjudicator.docket.slip import Slip, printable

ESC, GS, DLE, EOT, LF = b"\x1b", b"\x1d", b"\x10", b"\x04", b"\n"

INIT = ESC + b"@"                 # ESC @: reset the printer's modes
CODEPAGE_437 = ESC + b"t\x00"     # ESC t 0: character table PC437 (USA, standard Europe)
MODE_NORMAL = ESC + b"!\x00"      # ESC ! 0: font A, no emphasis, single size
MODE_TALL_BOLD = ESC + b"!\x18"   # ESC ! 0x18: emphasised (bit 3) + double height (bit 4)
SIZE_NORMAL = GS + b"!\x00"       # GS ! 0x00: width x1, height x1
SIZE_DOUBLE = GS + b"!\x11"       # GS ! 0x11: width x2, height x2 (halves the columns)
BOLD_ON, BOLD_OFF = ESC + b"E\x01", ESC + b"E\x00"
LEFT, CENTRE = ESC + b"a\x00", ESC + b"a\x01"
CUT = GS + b"V\x42\x00"           # GS V 66 0: feed to the cutter and cut (partial on most models)
TAIL_FEED = 3                     # ESC d 3: a tear-off margin for printers without a cutter

SUPPORTED_COLUMNS = range(24, 81)  # 58 mm paper: 32; 80 mm: 42 (TM-T88) or 48 (TM-T20)


def status_request(n: int) -> bytes:
    """DLE EOT n (n = 1..4): ask for one real-time status byte (Epson ESC/POS)."""
    if n not in (1, 2, 3, 4):
        raise ValueError(f"DLE EOT n takes n = 1..4, not {n}")
    return DLE + EOT + bytes([n])


def feed(lines: int) -> bytes:
    """ESC d n: print the buffer and feed n lines."""
    return ESC + b"d" + bytes([max(0, min(255, lines))])




def _check_columns(columns: int) -> int:
    if not isinstance(columns, int) or columns not in SUPPORTED_COLUMNS:
        raise ConfigError(
            f"printer columns must be a whole number from {SUPPORTED_COLUMNS.start} to "
            f"{SUPPORTED_COLUMNS.stop - 1} (32 for 58 mm paper, 42 or 48 for 80 mm), "
            f"not {columns!r}"
        )
    return columns


class _Writer:
    """Accumulates commands and lines; every text line is wrapped to the width in force."""

    def __init__(self, columns: int):
        self.columns = columns
        self.out = bytearray()

    def raw(self, *chunks: bytes) -> None:
        for chunk in chunks:
            self.out += chunk

    def lines(self, text: str, width: int | None = None) -> None:
        width = width or self.columns
        wrapped = textwrap.wrap(printable(text), width, break_long_words=True,
                                break_on_hyphens=False) or [""]
        for line in wrapped:
            self.out += line.encode("cp437") + LF

    def big(self, text: str) -> None:
        """Double width and height: only half the columns are usable."""
        self.raw(SIZE_DOUBLE)
        self.lines(text, self.columns // 2)
        self.raw(SIZE_NORMAL)

    def art(self, rows: tuple[str, ...]) -> None:
        self.raw(CENTRE, SIZE_DOUBLE)
        for row in rows:
            self.out += row.encode("cp437") + LF
        self.raw(SIZE_NORMAL)

    def rule(self, char: str = "-") -> None:
        self.out += (char * self.columns).encode("ascii") + LF

    def pair(self, left: str, right: str) -> None:
        """Two items on one line when they fit, else one under the other."""
        left, right = printable(left), printable(right)
        if len(left) + 2 + len(right) <= self.columns:
            gap = self.columns - len(left) - len(right)
            self.lines(left + " " * gap + right)
        else:
            self.lines(left)
            self.lines(right)


def encode_slip(slip: Slip, columns: int) -> bytes:
    """The whole slip as ESC/POS bytes for a printer `columns` characters wide (font A)."""
    w = _Writer(_check_columns(columns))
    w.raw(INIT, CODEPAGE_437, MODE_NORMAL, SIZE_NORMAL, BOLD_OFF, LEFT)
    w.raw(CENTRE, BOLD_ON)
    w.lines(slip.event or "")
    w.raw(BOLD_OFF)
    w.lines(slip.station or "")
    w.raw(LEFT)
    w.rule("=")
    if slip.reprint:
        w.raw(CENTRE, BOLD_ON)
        w.big("REPRINT")
        w.raw(BOLD_OFF, LEFT)
    w.raw(MODE_TALL_BOLD)
    w.lines(f"CHALLENGE #{slip.number}")
    if slip.recheck_of is not None:
        w.lines(f"RECHECK OF #{slip.recheck_of}")
    w.raw(MODE_NORMAL)
    where = [f"{label} {value}" for label, value in (("Table", slip.table), ("Round", slip.round))
             if value]
    if len(where) == 2:
        w.pair(*where)
    elif where:
        w.lines(where[0])
    if slip.time:
        w.lines(f"Time {slip.time}")
    w.rule()
    w.lines("Words challenged:")
    w.raw(BOLD_ON)
    w.lines(" ".join(slip.words))
    w.raw(BOLD_OFF)
    w.rule()
    w.raw(CENTRE)
    w.lines("The play is")
    w.raw(BOLD_ON)
    w.big(slip.verdict_word)
    w.raw(BOLD_OFF)
    w.raw(feed(1))
    w.art(TICK if slip.acceptable else CROSS)
    w.raw(LEFT)
    w.rule()
    if slip.consequence:
        w.lines(slip.consequence)
        w.rule()
    w.lines(f"Lexicon {slip.lexicon_name} {slip.short_fingerprint}".rstrip())
    if slip.lexicon_warning:  # an unrecognised or non-tournament list, said loudly
        w.raw(BOLD_ON)
        w.lines(slip.lexicon_warning)
        w.raw(BOLD_OFF)
    if slip.row_hash:  # typed back by the director: `adjudicator journal verify --slips`
        w.lines(f"Journal check: {slip.number} {slip.row_hash}")
    if slip.reprint:
        w.lines(f"REPRINT of challenge #{slip.number}")
    w.raw(feed(TAIL_FEED), CUT)
    return bytes(w.out)


def encode_test_slip(columns: int, where: str = "", settings: str = "") -> bytes:
    """A test page: NOT A VERDICT, rulers to check the columns, both marks, the settings used."""
    w = _Writer(_check_columns(columns))
    w.raw(INIT, CODEPAGE_437, MODE_NORMAL, SIZE_NORMAL, BOLD_OFF, LEFT)
    w.raw(CENTRE, BOLD_ON)
    w.big("PRINTER TEST")
    w.lines("NOT A VERDICT")
    w.raw(BOLD_OFF, LEFT)
    w.rule("=")
    w.lines(f"{columns} columns: the ruler below must fill one line exactly.")
    w.lines(("1234567890" * 7)[:columns])
    w.lines("Double size: half as many.")
    w.big(("1234567890" * 4)[: columns // 2])
    w.rule()
    w.lines("Marks (code page 437 blocks):")
    w.raw(CENTRE)
    w.lines("tick = acceptable")
    w.art(TICK)
    w.lines("cross = unacceptable")
    w.art(CROSS)
    w.raw(LEFT)
    w.rule()
    if where:
        w.lines(f"Printer {where}")
    if settings:
        w.lines(settings)
    w.lines("If this page is cut below, the cutter works.")
    w.raw(feed(TAIL_FEED), CUT)
    return bytes(w.out)
