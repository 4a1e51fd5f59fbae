"""Read a source word list in any common shape into a set of words, refusing bad lines."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from adjudicator.files.destination import open_regular
from adjudicator.text.entry import describe_char
from adjudicator.errors import FileAccessError, LexiconError, WordListError
from adjudicator.lexicon.compiled import MAGIC as _LEXICON_MAGIC
from adjudicator.lexicon.compiled import MARISA_MAGIC
from adjudicator.lexicon.names import Claim, claim_of_title
from adjudicator.lexicon.readers import read_open
from adjudicator.lexicon.readers.graph import MAX_WORDS

# A text list holds at most MAX_WORDS words (as the graph formats: 3.5x CSW) in at most
# MAX_TEXT_BYTES (CSW with a definition on every line is 15-20 MB) and MAX_LINES lines (blank
# lines and comments counted): anything more is refused before a line is split out.
MAX_TEXT_BYTES = 32 << 20
MAX_LINES = 2 * MAX_WORDS
_LINE_BLOCK = 1 << 20
MAX_SKIPPED = 100_000  # invalid lines passed over (--skip-invalid): each is kept to report it
_CLEAN_BODY = re.compile(r"(?:[A-Z]{2,15}\n)*")
_BLANK_OR_COMMENT = re.compile(r"(?m)^[ \t]*(?:#[^\n]*)?\n")
_COMMENT_LINE = re.compile(r"(?m)^[ \t]*#")
_WORD = re.compile(r"[A-Z]{2,15}")
# Lines end only at LF, CRLF or CR; a word ends only at a space or tab (a no-break space too, as
# in a typed entry). U+001C, U+2028, NEL, FF... never split a line or a word silently (issue 12).
_SPACES = " \t\u00a0"
_TOKEN_END = re.compile(r"[ \t\u00a0]")
# A header names the list and counts its words, e.g. CSW19.txt's first line:
# "Collins Scrabble Words (2019). 279,496 words. Words only."
_HEADER = re.compile(r"(?i)(?=.*\bwords?\b)(?=.*\d)")


@dataclass
class SourceReport:
    """What reading one source found: where it came from, what was kept, what was passed over."""

    path: str
    sha256: str
    words: set[str] = field(default_factory=set)
    lines: int = 0
    header: str | None = None
    comments: int = 0
    blank: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)
    format: str = "text"  # or another program's format (lexicon/readers)
    notes: list[str] = field(default_factory=list)  # what reading it checked, or could not
    claims: list[Claim] = field(default_factory=list)  # official names its content gives it

    @property
    def name(self) -> str:
        return os.path.basename(self.path)


def is_header(line: str) -> bool:
    """True for a title line such as 'Collins Scrabble Words (2019). 279,496 words.'"""
    return len(line.split()) >= 3 and bool(_HEADER.match(line))


def read_source(path: str, *, skip_invalid: bool = False) -> SourceReport:
    """Read one word list file. Raise WordListError naming the first bad line unless skipping."""
    try:
        with open_regular(path) as f:  # a named pipe is refused, never waited on
            decoded, data = read_open(path, f, os.fstat(f.fileno()).st_size)
    except OSError as e:
        raise FileAccessError(f"cannot read word list {path}: {e.strerror or e}") from e
    if decoded is not None:  # a Zyzzyva, Quackle or KWG file: every word already checked
        return SourceReport(path=path, sha256=decoded.sha256, words=set(decoded.words),
                            format=decoded.format, notes=decoded.notes, claims=decoded.claims)
    report = SourceReport(path=path, sha256=hashlib.sha256(data).hexdigest())
    if data.startswith(MARISA_MAGIC) and data.endswith(_LEXICON_MAGIC):
        raise LexiconError(f"{path}: already a compiled lexicon, not a word list: use it as it "
                           f"is (--lexicon {path}, or 'adjudicator lexicon add {path}'), or "
                           "compile its word list")
    if data.startswith(MARISA_MAGIC):  # a compiled lexicon cut short: its footer is gone
        raise LexiconError(f"{path}: the lexicon file is damaged or truncated (its end is "
                           "missing); refused: copy or compile it again")
    if b"\0" in data[:4096]:
        raise WordListError(path, 1, data[:20].decode("latin-1"), "binary data, not a word list "
                            "nor a Zyzzyva, Quackle or KWG file")
    _check_text_size(path, len(data))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line_no = data.count(b"\n", 0, e.start) + 1
        bad = data.split(b"\n")[line_no - 1].decode("utf-8", "replace").strip()
        raise WordListError(path, line_no, bad, "not UTF-8 text") from e
    upper = text.upper().replace("\r\n", "\n").replace("\r", "\n")
    if not upper.endswith("\n"):
        upper += "\n"
    report.lines = upper.count("\n")
    if report.lines > MAX_LINES:
        raise LexiconError(f"{path}: {report.lines:,} lines, more than a word list holds (at "
                           f"most {MAX_LINES:,} lines and {MAX_WORDS:,} words); refused")
    # the text itself ASCII, not its upper case: "ﬁne", "ſtop", "straße", "ı" upper-case to
    # FINE, STOP, STRASSE, I; each is a letter outside A-Z and refuses the file, by its line
    if not (text.isascii() and _fast_read(report, text, upper)):
        lines = _lines(text.replace("\r\n", "\n").replace("\r", "\n"))
        _read_lines(report, lines, skip_invalid)
    if not report.words:
        raise LexiconError(f"{path}: no words found")
    claim = claim_of_title(report.header, "its header line") if report.header else None
    if claim is not None:
        report.claims.append(claim)
    return report


def _check_text_size(path: str, size: int) -> None:
    """Refuse a text list over MAX_TEXT_BYTES before it is decoded (one line, exit 3)."""
    if size > MAX_TEXT_BYTES:
        raise LexiconError(f"{path}: {size / (1 << 20):,.0f} MB of text is more than a word "
                           f"list holds (at most {MAX_TEXT_BYTES >> 20} MB, definitions "
                           "included); refused")


def _too_many_words(path: str) -> LexiconError:
    return LexiconError(f"{path}: more than {MAX_WORDS:,} words, more than any word list "
                        "(3.5 times CSW); refused")


def _fast_read(report: SourceReport, text: str, upper: str) -> bool:
    """Fast path for the usual shape: one word a line, perhaps a header, blanks, comments."""
    body = _BLANK_OR_COMMENT.sub("", upper)
    first, _, rest = body.partition("\n")
    header = None
    if is_header(first):
        body = rest
        header = next(
            (ln.strip() for ln in text.split("\n", 64) if ln.strip().upper() == first.strip()),
            first.strip(),
        )
    if not _CLEAN_BODY.fullmatch(body):
        return False
    if body.count("\n") > MAX_WORDS:  # counted before a word is split out
        raise _too_many_words(report.path)
    report.header = header
    report.comments = len(_COMMENT_LINE.findall(upper))
    report.blank = report.lines - report.comments - (header is not None) - body.count("\n")
    report.words = set(body.split())
    return True


def _lines(text: str) -> Iterator[str]:
    """The lines of TEXT (each ended by LF; the last one's end is not a line), split a block
    of about 1 MB at a time: a list of 2 M lines at once would cost 150 MB."""
    end = len(text) - 1 if text.endswith("\n") else len(text)
    pos = 0
    while text:
        cut = text.find("\n", pos + _LINE_BLOCK, end)
        if cut < 0:
            yield from text[pos:end].split("\n")
            return
        yield from text[pos:cut].split("\n")
        pos = cut + 1


def _read_lines(report: SourceReport, lines: Iterable[str], skip_invalid: bool) -> None:
    words = report.words
    first_content = True
    for line_no, raw in enumerate(lines, start=1):
        line = raw.strip(_SPACES)  # only spaces and tabs: any other character is named
        if not line:
            report.blank += 1
            continue
        if line.startswith("#"):
            report.comments += 1
            continue
        if first_content and is_header(line):
            report.header = line
            first_content = False
            continue
        first_content = False
        token = _TOKEN_END.split(line, 1)[0]  # WORD, or WORD then its definition
        word = token.upper()
        if token.isascii() and _WORD.fullmatch(word):
            words.add(word)
            if len(words) > MAX_WORDS:
                raise _too_many_words(report.path)
            continue
        if skip_invalid:
            report.skipped.append((line_no, line))
            if len(report.skipped) > MAX_SKIPPED:
                raise LexiconError(f"{report.path}: more than {MAX_SKIPPED:,} lines are not "
                                   "words (--skip-invalid passes over a few bad lines, not a "
                                   "file that is mostly not words); refused")
            continue
        raise WordListError(report.path, line_no, line, _why_not_a_word(token))


def _why_not_a_word(token: str) -> str:
    letters = sum(c.isascii() and c.isalpha() for c in token)
    bad = next((c for c in token if not (c.isascii() and c.isalpha())), None)
    if bad is not None:
        return f"{describe_char(bad)} is not a letter A-Z"
    if letters < 2:
        return "a word has at least 2 letters"
    return f"{letters} letters; a word has at most 15"
