"""A doc page read as steps (commands, shown outputs, walk comments) and its outputs compared.

The convention (written too in docs/event.md's source, at its top): a ```sh block's lines are
commands (a trailing ` # ...` is a comment); a `<!-- walk: not run (why) -->` line before a
block keeps it from being run; a block with no language shows what the ```sh block before it
printed, where `...` stands for any text without a space, the doc's addresses and folders for
the test's own, and a line "(... as a QR code)" for a QR code; `<!-- walk: ACTION -->` is a
step the director takes that is no command (accept, a phone judges, Ctrl-C).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
WALK = re.compile(r"^\s*<!-- walk: (.*?) -->\s*$")
QR_SHOWN = re.compile(r"^\(.* as a QR code\)$")
QR = "<a QR code>"


@dataclass
class Step:
    kind: str  # "sh", "out", "toml", "walk", other languages as written
    section: str
    lines: list[str] = field(default_factory=list)
    not_run: bool = False
    action: str = ""

    @property
    def commands(self) -> list[str]:
        """The block's commands, comments taken off."""
        return [re.sub(r"\s+#\s.*$", "", line).strip() for line in self.lines
                if line.strip() and not line.strip().startswith("#")]


def steps(text: str) -> list[Step]:
    """TEXT (a markdown page) as its steps, in order."""
    found: list[Step] = []
    section, block, indent, not_run = "", None, "", False
    for line in text.splitlines():
        if block is not None:
            if FENCE.match(line) and not FENCE.match(line).group(2):
                found.append(block)
                block = None
            else:
                block.lines.append(line.removeprefix(indent))
            continue
        if line.startswith("## "):
            section = line[3:].strip()
        fence = FENCE.match(line)
        walk = WALK.match(line)
        if fence:
            indent = fence.group(1)
            block = Step(fence.group(2) or "out", section, not_run=not_run)
            not_run = False
        elif walk and walk.group(1).startswith("not run"):
            not_run = True
        elif walk:
            found.append(Step("walk", section, action=walk.group(1)))
        elif line.strip():
            not_run = False  # a `not run` holds for the block right under it only
    assert block is None, "a code block is not closed"
    return found


def argv(command: str) -> list[str]:
    """A command line as the shell splits it."""
    return shlex.split(command)


def qr_folded(lines: list[str]) -> list[str]:
    """LINES with each run of QR code lines (block characters only) as one QR line."""
    out: list[str] = []
    for line in lines:
        is_qr = bool(line.strip()) and set(line) <= set("█▀▄ ")
        if is_qr and out and out[-1] == QR:
            continue
        out.append(QR if is_qr else line)
    return out


def pattern(shown: str) -> re.Pattern:
    """One shown line as a pattern: `...` for any text without a space, the rest as written."""
    if QR_SHOWN.match(shown.strip()):
        return re.compile(re.escape(QR))
    parts = [re.escape(part) for part in shown.split("...")]
    return re.compile(r"\S+?".join(parts))


def differences(shown: list[str], printed: list[str]) -> list[str]:
    """Where PRINTED (QR codes folded, the test's addresses put back as the doc's) is not SHOWN;
    [] when every line matches its shown one."""
    printed = qr_folded(printed)
    problems = [f"shown {len(shown)} lines, printed {len(printed)}"] if len(shown) != len(
        printed) else []
    for n, (want, got) in enumerate(zip(shown, printed), 1):
        if not pattern(want).fullmatch(got):
            problems.append(f"line {n}: shown {want!r}\n        printed {got!r}")
    return problems


def run_of(shown: list[str], printed: list[str]) -> bool:
    """SHOWN matches a run of consecutive lines of PRINTED (a part of what a command said)."""
    printed = qr_folded(printed)
    return any(not differences(shown, printed[i:i + len(shown)])
               for i in range(len(printed) - len(shown) + 1))


def as_the_doc_says(lines: list[str], said: dict[str, str]) -> list[str]:
    """LINES with each real value (a key of SAID) written as the doc writes it."""
    out = []
    for line in lines:
        for real, doc in sorted(said.items(), key=lambda kv: -len(kv[0])):
            line = line.replace(real, doc)
        out.append(line)
    return out
