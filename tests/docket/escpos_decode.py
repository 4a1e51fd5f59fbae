"""Test helper: captured ESC/POS bytes back to printed lines with their attributes, strictly."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Line:
    """One printed line as a runner would see it."""

    text: str
    bold: bool = False
    width: int = 1        # character width multiplier
    height: int = 1
    align: str = "left"

    @property
    def cells(self) -> int:
        """Columns the line takes on paper."""
        return len(self.text) * self.width


@dataclass
class Printout:
    lines: list[Line] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    cuts: int = 0
    status_requests: list[int] = field(default_factory=list)

    @property
    def text(self) -> list[str]:
        return [line.text for line in self.lines]

    def find(self, needle: str) -> Line:
        hits = [line for line in self.lines if needle in line.text]
        assert hits, f"{needle!r} not printed; lines: {self.text}"
        return hits[0]


class DecodeError(AssertionError):
    pass


def decode(data: bytes, columns: int | None = None) -> Printout:
    """Interpret the subset of ESC/POS the encoder may use; anything else is a DecodeError.

    With `columns`, also fail when a line would run past the paper's width.
    """
    out = Printout()
    state = {"bold": False, "width": 1, "height": 1, "align": "left", "codepage": None}
    buf = bytearray()
    i = 0

    def need(k: int) -> bytes:
        if i + k > len(data):
            raise DecodeError(f"truncated command at byte {i}")
        return data[i:i + k]

    def flush() -> None:
        text = bytes(buf).decode("cp437")
        line = Line(text, state["bold"], state["width"], state["height"],
                    state["align"])
        if columns is not None and line.cells > columns:
            raise DecodeError(f"line overflows {columns} columns: {text!r} x{line.width}")
        out.lines.append(line)
        buf.clear()

    while i < len(data):
        b = data[i]
        if b == 0x0A:
            flush()
            i += 1
        elif b == 0x1B:
            cmd = need(2)[1:2]
            if cmd == b"@":
                state.update(bold=False, width=1, height=1, align="left", codepage=None)
                out.commands.append("ESC @")
                i += 2
            elif cmd in (b"t", b"!", b"E", b"a", b"d"):
                n = need(3)[2]
                i += 3
                out.commands.append(f"ESC {cmd.decode()} {n}")
                if cmd == b"t":
                    state["codepage"] = n
                elif cmd == b"!":
                    if n & ~0x38:
                        raise DecodeError(f"ESC ! {n:#x}: font B or underline not expected")
                    state["bold"] = bool(n & 0x08)  # the same emphasis flag as ESC E
                    state["height"] = 2 if n & 0x10 else 1
                    state["width"] = 2 if n & 0x20 else 1
                elif cmd == b"E":
                    state["bold"] = bool(n & 1)
                elif cmd == b"a":
                    state["align"] = {0: "left", 1: "centre", 2: "right"}[n]
                elif cmd == b"d":
                    if buf:
                        flush()
                    out.lines.extend(Line("") for _ in range(n))
            else:
                raise DecodeError(f"unexpected ESC {cmd!r} at byte {i}")
        elif b == 0x1D:
            cmd = need(2)[1:2]
            if cmd == b"!":
                n = need(3)[2]
                state["width"], state["height"] = (n >> 4) + 1, (n & 0x0F) + 1
                out.commands.append(f"GS ! {n}")
                i += 3
            elif cmd == b"V":
                m = need(3)[2]
                i += 3
                if m in (65, 66):
                    need(1)
                    i += 1
                elif m not in (0, 1, 48, 49):
                    raise DecodeError(f"GS V {m}: not a cut")
                if buf:
                    flush()
                out.cuts += 1
                out.commands.append(f"GS V {m}")
            else:
                raise DecodeError(f"unexpected GS {cmd!r} at byte {i}")
        elif b == 0x10:
            head = need(3)
            if head[1] != 0x04 or head[2] not in (1, 2, 3, 4):
                raise DecodeError(f"unexpected DLE sequence {head!r}")
            out.status_requests.append(head[2])
            i += 3
        elif b < 0x20 or b == 0x7F:
            raise DecodeError(f"stray control byte {b:#04x} at {i}")
        else:
            if state["codepage"] != 0 and b >= 0x80:
                raise DecodeError("byte above 0x7F printed before ESC t 0 (code page 437)")
            buf.append(b)
            i += 1
    if buf:
        raise DecodeError(f"text left unprinted (no LF): {bytes(buf)!r}")
    return out
