"""Keys reported as escape codes (kitty's CSI u, xterm's modifyOtherKeys): what was typed, or none.

Terminals that speak the kitty keyboard protocol report a key as `CSI code[:shifted[:base]]
[; modifiers[:event]] [; text] u`, and xterm with modifyOtherKeys as `CSI 27 ; modifiers ; code ~`
(https://sw.kovidgoyal.net/kitty/keyboard-protocol/; xterm's ctlseqs). Textual 8.2 read them so
that a terminal sending no associated text (WezTerm's bug 3484) lost every space and every
Shift+letter (`cat xu` was journaled CATXU), typed Alt+x as "x" when the text was given, and a
malformed one (`CSI 97;1:3 u`, `CSI 1114112 u`) raised inside the input thread (issue 28).

Here a report types its character only when no chord modifier (Alt, Ctrl, Super, Hyper, Meta)
is held and the key was pressed or repeated, never released. The character is the associated
text when there is one, else the shifted key the terminal named, else the key itself (a letter
in upper case under Shift); a shifted key that is neither a letter nor a space, with nothing
else said, types nothing (which character it makes depends on the keyboard's layout). Editing
and command keys (TAB, ENTER, BACKSPACE, ESCAPE, arrows...) keep their names, with their
modifiers. Anything malformed, out of Unicode's range, or a control in the text, is nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from textual import events
from textual._keyboard_protocol import FUNCTIONAL_KEYS

# a kitty key report, and an xterm modifyOtherKeys report (both 7-bit, whole: sequences.py)
KITTY = re.compile(r"\x1b\[([0-9:;]*)u")
MODIFY_OTHER_KEYS = re.compile(r"\x1b\[27;([0-9]+);([0-9]+)~")

SHIFT = 1
CHORDS = ((2, "alt"), (4, "ctrl"), (8, "super"), (16, "hyper"), (32, "meta"))  # modifier bits
RELEASE = 3  # kitty's event types: 1 press, 2 repeat, 3 release
MAX_CODE = 0x10FFFF
PRIVATE_USE = (0xE000, 0xF8FF)  # where kitty numbers its functional keys
CONTROL_KEYS = {9: "tab", 13: "enter", 27: "escape", 127: "backspace", 8: "backspace"}

KeysOf = Callable[[str], Iterable[events.Key]]  # Textual's keys for one plain character


def _number(text: str, default: int) -> int | None:
    """TEXT as a number (DEFAULT when empty); None when it is not a number a report may hold."""
    if not text:
        return default
    if not text.isdigit() or len(text) > 7:
        return None
    return int(text)


def _character(code: int) -> str | None:
    """CODE as a character a key may type; None for a control, a surrogate or beyond Unicode."""
    if not 0x20 <= code <= MAX_CODE or 0x7F <= code <= 0x9F or 0xD800 <= code <= 0xDFFF:
        return None
    return chr(code)


def _modified(name: str, bits: int) -> str:
    """NAME with the modifiers of BITS before it, as Textual names them (shift+tab)."""
    held = (["shift"] if bits & SHIFT else []) + [mod for bit, mod in CHORDS if bits & bit]
    return "+".join(sorted(held) + [name])


def _chord(code: int, bits: int, keys_of: KeysOf) -> list[events.Key]:
    """Alt+x, Ctrl+x...: the chord's name, never its letter (docs/station.md: chords do
    nothing; kiosk/widgets/entry_input.py types no chord)."""
    ch = _character(code)
    keys = list(keys_of(ch)) if ch is not None and code not in range(0xE000, 0xF900) else []
    if len(keys) != 1:
        return []
    return [events.Key(_modified(keys[0].key, bits & 63), None)]


def _typed(text: str, keys_of: KeysOf) -> list[events.Key]:
    return [key for ch in text for key in keys_of(ch)]


def kitty_keys(seq: str, keys_of: KeysOf) -> list[events.Key] | None:
    """The keys a kitty report SEQ stands for ([] for none); None when SEQ is not one."""
    match = KITTY.fullmatch(seq)
    if match is None:
        return None
    fields = match[1].split(";")
    if len(fields) > 3:
        return []
    key_field, mod_field, text_field = (fields + ["", ""])[:3]
    codes = [_number(part, 0) for part in key_field.split(":")]
    mods = [_number(part, 1) for part in mod_field.split(":")]
    if (len(codes) > 3 or len(mods) > 2 or None in codes or None in mods
            or not codes[0] or mods[0] < 1):
        return []
    code, modifiers = codes[0], mods[0]
    event = mods[1] if len(mods) > 1 else 1
    if event == RELEASE or code > MAX_CODE:
        return []
    bits = modifiers - 1
    chord = any(bits & bit for bit, _ in CHORDS)
    name = FUNCTIONAL_KEYS.get(f"{code}u") or CONTROL_KEYS.get(code)
    if name is not None:  # an editing or command key: its name, with what was held
        if bits & ~(64 | 128):  # caps lock and num lock change nothing
            return [events.Key(_modified(name, bits & 63), None)]
        return list(keys_of(chr(code))) if code in CONTROL_KEYS else [events.Key(name, None)]
    if chord:
        return _chord(code, bits, keys_of)
    if PRIVATE_USE[0] <= code <= PRIVATE_USE[1] and not text_field:
        return []  # one of kitty's other functional keys (keypad, media, modifiers): no text
    if text_field:
        text = [_character(c) if c is not None else None
                for c in (_number(part, -1) for part in text_field.split(":"))]
        if None in text:
            return []
        return _typed("".join(text), keys_of)
    shifted = codes[1] if len(codes) > 1 else 0
    if bits & SHIFT and shifted:
        ch = _character(shifted)
    else:
        ch = _character(code)
        if ch is not None and bits & SHIFT and ch != " ":
            ch = ch.upper() if ch.isalpha() and len(ch.upper()) == 1 else None
    return [] if ch is None else _typed(ch, keys_of)


def modify_other_keys(seq: str, keys_of: KeysOf) -> list[events.Key] | None:
    """The keys an xterm modifyOtherKeys report SEQ stands for; None when SEQ is not one."""
    match = MODIFY_OTHER_KEYS.fullmatch(seq)
    if match is None:
        return None
    modifiers, code = _number(match[1], 1), _number(match[2], 0)
    if modifiers is None or code is None or modifiers < 1:
        return []
    bits = modifiers - 1
    name = CONTROL_KEYS.get(code)
    if name is not None:
        if bits & 63:
            return [events.Key(_modified(name, bits & 63), None)]
        return list(keys_of(chr(code)))
    if any(bits & bit for bit, _ in CHORDS):
        return _chord(code, bits & ~SHIFT, keys_of)
    ch = _character(code)  # xterm sends the character Shift made (A, !)
    return [] if ch is None else _typed(ch, keys_of)


def reported_keys(seq: str, keys_of: KeysOf) -> list[events.Key] | None:
    """The keys of a kitty or modifyOtherKeys report SEQ; None when SEQ is neither."""
    keys = kitty_keys(seq, keys_of)
    return keys if keys is not None else modify_other_keys(seq, keys_of)
