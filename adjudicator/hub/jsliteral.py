"""A JavaScript object literal read as data, never run: what tsh writes into html/tourney.js.

tsh (lib/perl/JavaScript/Serializable.pm, ToJavaScriptAny) writes JSON-like text that is
JavaScript, not JSON: a Perl undef is `undefined` (arrays with holes hold it too), a number is
whatever Perl held as digits (`.5`, `-.25`; leading zeros dropped), a string escapes only `"`,
`\\` and a newline (written as a backslash before a real newline: a line continuation), so tabs
and other control characters stand raw inside strings, and non-ASCII text is in whatever encoding
Perl printed. Other JavaScript writers (and tsh's pretty-printed form) use bare or single-quoted
keys, trailing commas, comments, `NaN` and `Infinity`: all read here. Anything else (a function
call, an expression, a file cut short) is an error naming where it is.
"""

from __future__ import annotations

import math
import re

MAX_DEPTH = 200  # tsh nests 5 deep; a deeper file is not tsh's

_TOKEN = re.compile(r"""
   (?P<ws>(?:\s+|//[^\n]*|/\*.*?\*/)+)
  |(?P<dq>"[^"\\]*(?:\\.[^"\\]*)*")
  |(?P<sq>'[^'\\]*(?:\\.[^'\\]*)*')
  |(?P<num>[+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?))
  |(?P<word>[+-]?[A-Za-z_$][\w$]*)
  |(?P<punct>[{}\[\]:,;=])
""", re.S | re.X)
_ESCAPE = re.compile(r"\\(?:x([0-9a-fA-F]{2})|u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})"
                     r"|(\r\n|[\n\r\u2028\u2029])|(.))", re.S)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_WORDS = {"undefined": None, "null": None, "true": True, "false": False,
          "NaN": math.nan, "-NaN": math.nan, "+NaN": math.nan, "Infinity": math.inf,
          "+Infinity": math.inf, "-Infinity": -math.inf}


class JSLiteralError(ValueError):
    """Text that is not a JavaScript literal (or stops in the middle of one)."""


def decode_text(raw: bytes) -> str:
    """tsh's bytes as text: UTF-8 when they are, else Latin-1 (what an older Perl printed)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


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


def _number(text: str):
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    if digits[:2] in ("0x", "0X"):
        return sign * int(digits, 16)
    if re.fullmatch(r"\d+", digits):
        return sign * int(digits)
    return sign * float(digits)


class _Reader:
    def __init__(self, text: str, pos: int):
        self.text, self.pos = text, pos

    def where(self, pos: int | None = None) -> str:
        pos = self.pos if pos is None else pos
        line = self.text.count("\n", 0, pos) + 1
        column = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return f"line {line}, column {column}"

    def token(self) -> tuple[str, str, int]:
        """The next token (kind, text, where it starts); ("end", "", len) at the end."""
        text = self.text
        while True:
            start = self.pos
            if start >= len(text):
                return "end", "", start
            m = _TOKEN.match(text, start)
            if m is None:
                if text[start] in "\"'":
                    raise JSLiteralError(f"a string at {self.where(start)} never ends "
                                         "(the file is cut short?)")
                if text.startswith("/*", start):
                    raise JSLiteralError(f"a comment at {self.where(start)} never ends")
                raise JSLiteralError(f"unexpected {text[start]!r} at {self.where(start)}")
            self.pos = m.end()
            if m.lastgroup != "ws":
                return m.lastgroup, m.group(), start

    def value(self, depth: int = 0, token=None):
        kind, text, at = token or self.token()
        if kind == "end":
            raise JSLiteralError("the file ends in the middle of the data (cut short while "
                                 "tsh was writing it?)")
        if depth > MAX_DEPTH:
            raise JSLiteralError(f"nested more than {MAX_DEPTH} deep at {self.where(at)}")
        if kind in ("dq", "sq"):
            return _unescape(text[1:-1])
        if kind == "num":
            return _number(text)
        if kind == "word":
            if text in _WORDS:
                return _WORDS[text]
            raise JSLiteralError(f"{text[:40]!r} at {self.where(at)} is not a value")
        if text == "{":
            return self._object(depth)
        if text == "[":
            return self._array(depth)
        raise JSLiteralError(f"unexpected {text!r} at {self.where(at)}")

    def _array(self, depth: int) -> list:
        items: list = []
        after_value = False
        while True:
            token = self.token()
            kind, text, at = token
            if text == "]":
                return items
            if kind == "end":
                self.value(depth + 1, token)  # says: cut short
            if text == ",":
                if not after_value:
                    items.append(None)  # a hole: [1,,2]
                after_value = False
                continue
            if after_value:
                raise JSLiteralError(f"expected , or ] at {self.where(at)}")
            items.append(self.value(depth + 1, token))
            after_value = True

    def _object(self, depth: int) -> dict:
        found: dict = {}
        while True:
            kind, text, at = self.token()
            if text == "}":
                return found
            if kind in ("dq", "sq"):
                key = _unescape(text[1:-1])
            elif kind in ("word", "num"):
                key = text
            elif kind == "end":
                self.value(depth + 1, (kind, text, at))  # says: cut short
            else:
                raise JSLiteralError(f"expected a key at {self.where(at)}")
            colon = self.token()
            if colon[1] != ":":
                if colon[0] == "end":
                    self.value(depth + 1, colon)
                raise JSLiteralError(f"expected : at {self.where(colon[2])}")
            found[key] = self.value(depth + 1)
            sep = self.token()
            if sep[1] == "}":
                return found
            if sep[1] != ",":
                if sep[0] == "end":
                    self.value(depth + 1, sep)
                raise JSLiteralError(f"expected , or }} at {self.where(sep[2])}")


def parse_literal(text: str, pos: int = 0):
    """The one JavaScript literal at POS in TEXT (what follows it is not read)."""
    return _Reader(text, pos).value()


_ASSIGNMENT = re.compile(r"(?:^|[;\s])(?:(?:var|let|const)\s+|window\.)?newt\s*=\s*")


def parse_assignment(text: str, name: str = "newt"):
    """The value assigned to NAME in TEXT (`newt = {...};`, `var newt = ...`)."""
    pattern = _ASSIGNMENT if name == "newt" else re.compile(
        r"(?:^|[;\s])(?:(?:var|let|const)\s+|window\.)?" + re.escape(name) + r"\s*=\s*")
    m = pattern.search(text)
    if m is None:
        raise JSLiteralError(f"no `{name} = ...` in it")
    reader = _Reader(text, m.end())
    value = reader.value()
    kind, rest, at = reader.token()
    if kind not in ("end",) and rest != ";":
        raise JSLiteralError(f"unexpected {rest[:20]!r} after the data at {reader.where(at)}")
    return value
