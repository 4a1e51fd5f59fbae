"""What a result slip says (WESPA 3.11.2(a)(ix)): the Slip, its consequence, printable text."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field


# Characters with no code page 437 glyph and no decomposition, spelled the way a person would.
_SPELLED = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00b4": "'", "\u2032": "'",
    "\u2013": "-", "\u2014": "-", "\u2010": "-", "\u2011": "-", "\u2212": "-",
    "\u2026": "...", "\u00a9": "(C)", "\u00ae": "(R)", "\u2122": "TM", "\u20ac": "EUR",
    "\u0141": "L", "\u0142": "l", "\u00d8": "O", "\u00f8": "o", "\u0110": "D", "\u0111": "d",
    "\u00de": "Th", "\u00fe": "th", "\u00d0": "D", "\u00f0": "d", "\u0152": "OE", "\u0153": "oe",
    "\u0131": "i", "\u00d7": "x",
}


def _cp437_ok(char: str) -> bool:
    """A printable character the printer shows as itself under code page 437 (ESC t 0)."""
    if ord(char) < 0x20 or ord(char) == 0x7F:
        return False
    try:
        char.encode("cp437")
    except UnicodeEncodeError:
        return False
    return True


def printable(text: str) -> str:
    """Text a code page 437 printer shows as written, never a control code.

    Characters with a CP437 glyph (A-Z, digits, e-acute, u-umlaut, ...) are kept. Others are
    transliterated: accents dropped by Unicode decomposition ("Łódź" -> "Lodz"), typographic quotes
    and dashes spelled in ASCII; what is left becomes '?'. Tabs and newlines become spaces and other
    control characters '?', so a name can never smuggle an ESC/POS command onto the wire.
    """
    out: list[str] = []
    for char in str(text):
        if _cp437_ok(char):
            out.append(char)
        elif char in "\t\n\r\f\v":
            out.append(" ")
        elif char in _SPELLED:
            out.append(_SPELLED[char])
        else:
            base = [c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)]
            if base and all(_cp437_ok(c) for c in base):
                out.extend(base)
            else:
                out.append("?")
    return "".join(out)


@dataclass(frozen=True)
class Slip:
    """One challenge's printed result: the play as a whole, never a word on its own."""

    event: str
    station: str
    number: int
    time: str
    words: tuple[str, ...]
    acceptable: bool
    consequence: str
    lexicon_name: str
    short_fingerprint: str
    table: str | None = None
    round: str | None = None
    recheck_of: int | None = None
    reprint: bool = False
    # Said on the slip when the list is unrecognised or not for tournaments ("" when fit).
    lexicon_warning: str = ""
    row_hash: str = ""  # the row's short chain hash: collected slips anchor the journal
    # A test slip (`adjudicator printer test`) says NOT A VERDICT and shows both marks.
    test: bool = field(default=False, compare=False)

    @property
    def verdict_word(self) -> str:
        return "ACCEPTABLE" if self.acceptable else "UNACCEPTABLE"
