"""A JavaScript object literal read as data, never run: what tsh writes into html/tourney.js.

tsh (lib/perl/JavaScript/Serializable.pm, ToJavaScriptAny) writes JSON-like text that is
JavaScript, not JSON: a Perl undef is `undefined` (arrays with holes hold it too), a number is
whatever Perl held as digits (`.5`, `-.25`; leading zeros dropped), a string escapes only `"`,
`\\` and a newline (written as a backslash before a real newline: a line continuation), so tabs
and other control characters stand raw inside strings, and non-ASCII text is in whatever encoding
Perl printed (each string is read as UTF-8, or as Latin-1 when it is not UTF-8: one such string
does not change how the others read). Other JavaScript writers (and tsh's pretty-printed form)
use bare or single-quoted keys, trailing commas, comments, `NaN` and `Infinity`: all read here.
Anything else (a function call, an expression, a file cut short) is an error naming where it is.

Read in bounded time and memory whatever the file holds: a file that is JSON but for tsh's
`undefined` (what tsh writes) is read by Python's json module, in C, when it holds at most
MAX_TOKENS values; any other is read token by token from its bytes (never decoded whole), at
most MAX_TOKENS tokens and escapes, nested at most MAX_DEPTH deep, a number too long for an int
read as a float, and a STOP event (a threading.Event) ends that reading at once.
"""

from __future__ import annotations

import json
import math
import re

MAX_DEPTH = 200  # tsh nests 5 deep; a deeper file is not tsh's
MAX_TOKENS = 600_000  # a 400-player, 31-round event is about 270,000 (SPC's: 48, 32,000)
CHECK_EVERY = 4096  # tokens between looks at the stop event
LONGEST_INT = 100  # digits; a longer number is read as a float (int() refuses 4,300)

_WS = re.compile(rb"(?:\s+|//[^\n]*|/\*.*?\*/)*+", re.S)
_TOKEN = re.compile(rb"""(?:\s+|//[^\n]*|/\*.*?\*/)*+(?:
   ("[^"\\]*(?:\\.[^"\\]*)*+"|'[^'\\]*(?:\\.[^'\\]*)*+')
  |([+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?))
  |([+-]?[A-Za-z_$][\w$]*)
  |([{}\[\]:,;=])
)""", re.S | re.X)
STRING, NUMBER, WORD, PUNCT, END = 1, 2, 3, 4, 0  # a token's kind: its group in _TOKEN
# (possessive repeats, *+: a repeat that may backtrack keeps state for each of its turns, and
# a string of 8 million escapes took a gigabyte)
_ESCAPE = re.compile(r"\\(?:x([0-9a-fA-F]{2})|u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})"
                     r"|(\r\n|[\n\r\u2028\u2029])|(.))", re.S)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_WORDS = {b"undefined": None, b"null": None, b"true": True, b"false": False,
          b"NaN": math.nan, b"-NaN": math.nan, b"+NaN": math.nan, b"Infinity": math.inf,
          b"+Infinity": math.inf, b"-Infinity": -math.inf}
_BOM = b"\xef\xbb\xbf"


class JSLiteralError(ValueError):
    """Text that is not a JavaScript literal (or stops in the middle of one)."""


def _text(raw: bytes) -> str:
    """One string's bytes: UTF-8 when they are, else Latin-1 (only this string)."""
    if raw.isascii():
        return raw.decode("ascii")
    text = raw.decode("utf-8", "surrogateescape")  # no exception raised for each bad string
    return raw.decode("latin-1") if _NOT_UTF8.search(text) else text


_NOT_UTF8 = re.compile("[\udc80-\udcff]")  # a byte surrogateescape could not decode


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body

    def one(m: re.Match) -> str:
        hex2, braced, hex4, newline, other = m.groups()
        if hex2 or hex4 or braced:
            code = int(hex2 or hex4 or braced, 16)
            return chr(code) if code <= 0x10FFFF else "\ufffd"
        if newline:
            return ""  # a line continuation: tsh's way of writing a newline in a string
        return _SIMPLE.get(other, other)

    text = _ESCAPE.sub(one, body)
    if any("\ud800" <= c <= "\udfff" for c in text):  # \uD83D\uDE00: one character
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _number(raw: bytes):
    if raw.isdigit() and len(raw) <= LONGEST_INT:
        return int(raw)
    digits = raw.lstrip(b"+-")
    if digits[:2] in (b"0x", b"0X"):
        sign = -1 if raw.startswith(b"-") else 1
        return sign * (math.inf if len(digits) - 2 > LONGEST_INT else int(digits, 16))
    if digits.isdigit() and len(digits) <= LONGEST_INT:
        return int(raw)
    return float(raw)  # any length: a float reads it (inf when it is too large)


class _Reader:
    """Tokens are (kind, bytes, where): one match of _TOKEN each, whitespace and comments
    before it included; scalars in arrays and objects are read in place (no call each)."""

    def __init__(self, text: bytes, pos: int, stop=None):
        self.text, self.pos, self.stop = text, pos, stop
        self.left = MAX_TOKENS  # tokens (and escapes in strings) still allowed
        self.next_check = max(MAX_TOKENS - CHECK_EVERY, -1)

    def where(self, pos: int | None = None) -> str:
        pos = self.pos if pos is None else pos
        line = self.text.count(b"\n", 0, pos) + 1
        column = pos - (self.text.rfind(b"\n", 0, pos) + 1) + 1
        return f"line {line}, column {column}"

    def _spent(self) -> None:
        """Called every CHECK_EVERY tokens: over the budget, or told to stop, it ends here."""
        self.next_check = max(self.left - CHECK_EVERY, -1)
        if self.left < 0:
            raise JSLiteralError(f"more than {MAX_TOKENS:,} values: far more than tsh writes "
                                 "for any event")
        if self.stop is not None and self.stop.is_set():
            raise JSLiteralError("not read to the end: the hub is stopping")

    def string(self, raw: bytes) -> str:
        body = raw[1:-1]
        if b"\\" not in body:
            return _text(body)
        self.left -= body.count(b"\\")
        if self.left <= self.next_check:
            self._spent()
        return _unescape(_text(body))

    def token(self) -> tuple[int, bytes, int]:
        """The next token (kind, bytes, where it starts); (END, b"", where) at the end."""
        self.left -= 1
        if self.left <= self.next_check:
            self._spent()
        m = _TOKEN.match(self.text, self.pos)
        if m is None:
            return self._no_token()
        self.pos = m.end()
        kind = m.lastindex
        return kind, m.group(kind), m.start(kind)

    def _no_token(self) -> tuple[int, bytes, int]:
        text = self.text
        start = _WS.match(text, self.pos).end()
        if start >= len(text):
            self.pos = start
            return END, b"", start
        if text[start:start + 1] in (b'"', b"'"):
            raise JSLiteralError(f"a string at {self.where(start)} never ends "
                                 "(the file is cut short?)")
        if text.startswith(b"/*", start):
            raise JSLiteralError(f"a comment at {self.where(start)} never ends")
        raise JSLiteralError(f"unexpected {_shown(text[start:start + 1])} at "
                             f"{self.where(start)}")

    def value(self, depth: int = 0, token=None):
        kind, text, at = token or self.token()
        if kind == STRING:
            return self.string(text)
        if kind == NUMBER:
            return _number(text)
        if kind == WORD:
            if text in _WORDS:
                return _WORDS[text]
            raise JSLiteralError(f"{_shown(text[:40])} at {self.where(at)} is not a value")
        if kind == END:
            raise JSLiteralError("the file ends in the middle of the data (cut short while "
                                 "tsh was writing it?)")
        if depth >= MAX_DEPTH:
            raise JSLiteralError(f"nested more than {MAX_DEPTH} deep at {self.where(at)}")
        if text == b"{":
            return self._object(depth + 1)
        if text == b"[":
            return self._array(depth + 1)
        raise JSLiteralError(f"unexpected {_shown(text)} at {self.where(at)}")

    def _array(self, depth: int) -> list:
        items: list = []
        append = items.append
        after_value = False
        while True:
            token = self.token()
            kind, text, at = token
            if kind == PUNCT:
                if text == b"]":
                    return items
                if text == b",":
                    if not after_value:
                        append(None)  # a hole: [1,,2]
                    after_value = False
                    continue
            if after_value:
                if kind == END:
                    self.value(depth, token)  # says: cut short
                raise JSLiteralError(f"expected , or ] at {self.where(at)}")
            if kind == NUMBER:
                append(_number(text))
            elif kind == STRING:
                append(self.string(text))
            else:
                append(self.value(depth, token))
            after_value = True

    def _object(self, depth: int) -> dict:
        found: dict = {}
        while True:
            kind, text, at = self.token()
            if text == b"}" and kind == PUNCT:
                return found
            if kind == STRING:
                key = self.string(text)
            elif kind in (WORD, NUMBER):
                key = text.decode("ascii")
            elif kind == END:
                self.value(depth, (kind, text, at))  # says: cut short
            else:
                raise JSLiteralError(f"expected a key at {self.where(at)}")
            colon = self.token()
            if colon[1] != b":" or colon[0] != PUNCT:
                if colon[0] == END:
                    self.value(depth, colon)
                raise JSLiteralError(f"expected : at {self.where(colon[2])}")
            found[key] = self.value(depth)
            sep = self.token()
            if sep[0] == PUNCT and sep[1] == b"}":
                return found
            if sep[0] != PUNCT or sep[1] != b",":
                if sep[0] == END:
                    self.value(depth, sep)
                raise JSLiteralError(f"expected , or }} at {self.where(sep[2])}")


def _shown(raw: bytes) -> str:
    return repr(_text(raw))


def _bytes(text: str | bytes) -> bytes:
    if isinstance(text, str):
        return text.encode("utf-8", "surrogatepass")
    return text[len(_BOM):] if text.startswith(_BOM) else text


def parse_literal(text: str | bytes, pos: int = 0):
    """The one JavaScript literal at POS in TEXT (what follows it is not read)."""
    return _Reader(_bytes(text), pos).value()


_ASSIGNMENT = re.compile(rb"(?:^|[;\s])(?:(?:var|let|const)\s+|window\.)?newt\s*=\s*")


def parse_assignment(text: str | bytes, name: str = "newt", stop=None):
    """The value assigned to NAME in TEXT (`newt = {...};`, `var newt = ...`): tsh's bytes as
    they are, or text. STOP: an event that ends the reading (JSLiteralError) when set."""
    pattern = _ASSIGNMENT if name == "newt" else re.compile(
        rb"(?:^|[;\s])(?:(?:var|let|const)\s+|window\.)?" + re.escape(name.encode())
        + rb"\s*=\s*")
    text = _bytes(text)
    m = pattern.search(text)
    if m is None:
        raise JSLiteralError(f"no `{name} = ...` in it")
    fast = _as_json(text, m.end())
    if fast is not _NOT_JSON:
        return fast
    reader = _Reader(text, m.end(), stop)
    value = reader.value()
    kind, rest, at = reader.token()
    if kind != END and rest != b";":
        raise JSLiteralError(f"unexpected {_shown(rest[:20])} after the data at "
                             f"{reader.where(at)}")
    return value


_NOT_JSON = object()
_JSON = json.JSONDecoder(strict=False)  # tsh leaves tabs and other controls raw in strings
_FILLER = "null     "  # `undefined` as JSON, the same length: where the reader stops is kept


def _as_json(text: bytes, start: int):
    """The value at START when the rest of TEXT is JSON but for `undefined` (tsh's own files),
    read in C; _NOT_JSON otherwise (the reader above then says what is wrong, or reads it)."""
    if (text.count(b",", start) + text.count(b"{", start) + text.count(b"[", start)
            > MAX_TOKENS):
        return _NOT_JSON  # more values than the memory allowed: the reader counts them
    try:
        body = text[start:].replace(b"undefined", _FILLER.encode()).decode("utf-8")
        value, end = _JSON.raw_decode(body)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, an int of 4,300 digits...
        return _NOT_JSON
    if body[end:].strip() not in ("", ";") or not _plain(value, _FILLER in body):
        return _NOT_JSON
    return value


def _plain(value, filled: bool) -> bool:
    """False when VALUE nests deeper than MAX_DEPTH, or (FILLED) a string or key holds the
    filler (`undefined` was text there, not a value): the reader then reads it."""
    level, depth = [value], 0
    while level:
        if depth > MAX_DEPTH:
            return False
        below: list = []
        for item in level:
            kind = type(item)
            if kind is dict:
                if item:
                    below.extend(item.values())
                    if filled and any(_FILLER in key for key in item):
                        return False
            elif kind is list:
                below.extend(item)
            elif filled and kind is str and _FILLER in item:
                return False
        level, depth = below, depth + 1
    return True
