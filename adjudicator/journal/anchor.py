"""Anchors of the chain kept outside the database: the head file beside it, and typed slips.

The head file (JOURNAL.head) is rewritten after every commit that adds rows: the journal's id,
the last row's number and its full hash. A copy of the .db that lacks committed rows (its -wal
left behind, or deleted after a crash) then fails verify, naming the missing range. It is only
ever moved forward, so with several writers it may lag behind the journal, never run ahead of it.

Slips (`journal verify --slips FILE`): each slip's line "Journal check: NUMBER HASH" (or just
"NUMBER HASH"), typed from collected result slips (the short row hash printed on each); a row
edited and its whole chain recomputed no longer matches the slip of that row or of any later one.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import sys
from dataclasses import dataclass

from adjudicator.errors import EXIT_ENTRY, AdjudicatorError, JournalError, JournalFileError
from adjudicator.journal import chain, db

HEAD_SUFFIX = ".head"
HEAD_MAGIC = "adjudicator-journal-head 1"
SHORT_HASH = 8  # hex digits of a row's hash on its slip and verdict screen (32 bits)


def short_hash(full: str) -> str:
    """The row hash as printed on a slip: its first SHORT_HASH hex digits."""
    return str(full or "")[:SHORT_HASH]


def head_path(journal_path: str) -> str:
    return str(journal_path) + HEAD_SUFFIX


@dataclass(frozen=True)
class Head:
    """What the head file says: this journal had at least SEQ rows, the last one hashing HASH."""

    journal_id: str
    seq: int
    hash: str


def read_head(journal_path: str) -> Head | None:
    """The head file beside JOURNAL_PATH, or None when there is none (or it is unreadable)."""
    try:
        with open(head_path(journal_path), encoding="ascii") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    fields = dict(line.split(" ", 1) for line in lines[1:] if " " in line)
    try:
        if lines[0] != HEAD_MAGIC:
            return None
        return Head(fields["journal"], int(fields["seq"]), fields["hash"])
    except (KeyError, ValueError, IndexError):
        return None


def write_head(journal_path: str, head: Head) -> None:
    """Move the head file forward to HEAD (never back); written whole or not at all.

    OSError is left to the caller: the row is committed already, so a failed head file must
    not turn a recorded verdict into NOT RECORDED (store.py ignores it).
    """
    old = read_head(journal_path)
    if old is not None and old.journal_id == head.journal_id and old.seq >= head.seq:
        return
    target = head_path(journal_path)
    if target not in _SWEPT:
        _SWEPT.add(target)
        sweep_stale(target)
    tmp = f"{target}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="ascii") as f:
            f.write(f"{HEAD_MAGIC}\njournal {head.journal_id}\nseq {head.seq}\n"
                    f"hash {head.hash}\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        # a full disk: the temporary file was made and could not be filled (issue 36: each
        # failed update left a 0-byte .head.PID.tmp beside the journal)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


_SWEPT: set[str] = set()  # head files whose stale temporaries this process has cleared


def sweep_stale(target: str) -> None:
    """Remove TARGET.<pid>.tmp files left by processes that no longer run (a kill between
    the temporary file's making and its rename; issue 42: one beside the journal per kill).
    Not on Windows, where os.kill would end the process it asks about."""
    if sys.platform == "win32":
        return
    folder, name = os.path.split(os.path.abspath(target))
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for other in names:
        pid = other[len(name) + 1:-4] if other.startswith(name + ".") else ""
        if not (other.endswith(".tmp") and pid.isdigit()) or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # still running: its own to finish
        except ProcessLookupError:
            pass
        except OSError:
            continue  # another user's: alive
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(folder, other))


class SlipsError(AdjudicatorError):
    """A line of a slips file that is not a slip's "Journal check: NUMBER HASH": exit 2, a
    mistake in what was typed (a broken chain is 5)."""

    exit_code = EXIT_ENTRY


# The slip prints "Journal check: 12 3fa9c01d"; the verdict screen "Challenge #12 · check 3fa9c01d".
_LABEL = re.compile(r"(journal\s*check\s*:?|challenge\b)", re.I)
_NUMBER = re.compile(r"#?\s*(\d+)(.*)")
_CHECK = re.compile(r"[:,;\u00b7]?\s*(check\b\s*:?)?", re.I)
_HEX = re.compile(r"[0-9a-f]+")
EXAMPLE = "'Journal check: 12 3fa9c01d' as the slip prints it, or '12 3fa9c01d'"


def parse_slip(text: str) -> tuple[int, str]:
    """(number, hash prefix in lower case) from one typed slip line: the slip's own line
    `Journal check: 12 3fa9c01d`, or `12 3fa9c01d`, or the verdict screen's `Challenge #12 ·
    check 3fa9c01d`; any case, any spaces, a ':' ',' or ';' after the number, spaces or '-'
    inside the hash. ValueError says what is wrong."""
    body = text.strip()
    label = _LABEL.match(body)
    if label:
        body = body[label.end():].strip()
    found = _NUMBER.fullmatch(body)
    if not found:
        raise ValueError(f"no challenge number at its start (type {EXAMPLE})")
    seq, rest = int(found.group(1)), found.group(2)
    if rest and not (rest[0].isspace() or rest[0] in ":,;\u00b7"):
        raise ValueError(f"no space between the challenge number and its hash (type {EXAMPLE})")
    rest = rest.strip()
    rest = rest[_CHECK.match(rest).end():].strip()
    if not rest:
        raise ValueError(f"no hash after challenge {seq} (type {EXAMPLE})")
    digits = re.sub(r"[\s\-]", "", rest).lower()
    if not _HEX.fullmatch(digits):
        bad = next(ch for ch in digits if ch not in "0123456789abcdef")
        raise ValueError(f"the hash {rest!r} holds {bad!r}: a hash is hex digits, 0-9 and a-f")
    if len(digits) < 4:
        raise ValueError(f"the hash {rest!r} has {len(digits)} digits: the slip prints "
                         f"{SHORT_HASH}")
    if len(digits) > 64:
        raise ValueError(f"the hash has {len(digits)} digits: a row hash has at most 64")
    if seq == 0:
        raise ValueError("there is no challenge 0: challenges are numbered from 1")
    return seq, digits


def read_slips(path: str) -> dict[int, str]:
    """The slips file: {number: hash prefix}; '#' comments and blank lines are skipped. A line
    that is not a slip's is a SlipsError naming FILE:LINE and what is wrong (exit 2)."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise JournalFileError(f"cannot read the slips file {path}: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise SlipsError(f"{path}: not a text file of slip lines (byte {e.start}: "
                         f"0x{e.object[e.start]:02X} is not UTF-8)") from None
    slips: dict[int, str] = {}
    where: dict[int, int] = {}
    for n, line in enumerate(lines, 1):
        text = line.strip()
        if not text:
            continue
        try:
            seq, digits = parse_slip(text)
        except ValueError as e:
            if text.startswith("#"):
                continue  # a comment
            shown = text if len(text) <= 60 else text[:60] + "..."
            raise SlipsError(f"{path}:{n}: {shown!r}: {e}") from None
        if slips.get(seq, digits) != digits:
            raise SlipsError(f"{path}:{n}: challenge {seq} is given twice with different "
                             f"hashes (line {where[seq]} and line {n})")
        slips[seq], where[seq] = digits, n
    return slips


def verify_file(path: str, slips: dict[int, str] | None = None) -> chain.ChainReport:
    """Check the journal at PATH against its head file and SLIPS (see journal.verify)."""
    conn = db.connect_ro(path)
    try:
        anchors, notes = _anchors(conn, path, slips or {})
        notes.append(db.wal_unread(path))
        return chain.check_connection(conn, path, anchors).with_notes(*notes)
    except sqlite3.Error as e:
        raise JournalError(db.explain(e, path)) from e
    finally:
        conn.close()


def export_checked(path: str, fmt: str, out) -> tuple[int, chain.ChainReport]:
    """Export every row of the journal at PATH to OUT (export.py) and check its chain, against
    the head file, in the same read: (rows written, the report verify_file would give)."""
    from adjudicator.journal import export

    conn = db.connect_ro(path)
    try:
        conn.execute("BEGIN")  # one snapshot while a station keeps recording
        try:
            anchors, notes = _anchors(conn, path, {})
            notes.append(db.wal_unread(path))
            walk, legacy = chain.walk_of(conn, path, anchors)
            count = export.write(export.checked(conn.execute(*export.query(None)), walk),
                                 fmt, out, export.accepted_journals(conn),
                                 export.hub_history(conn))
        finally:
            conn.execute("COMMIT")
    except sqlite3.Error as e:
        raise JournalError(db.explain(e, path)) from e
    finally:
        conn.close()
    report = walk.report()
    return count, (report.with_notes(*legacy) if report.rows else report).with_notes(*notes)


def _anchors(conn, path: str, slips: dict[int, str]) -> tuple[dict, list[str]]:
    """{seq: (hash or prefix, where from)} from typed slips and the head file; notes."""
    anchors = {seq: (digits, f"the slip of challenge {seq}") for seq, digits in slips.items()}
    notes = []
    head = read_head(path)
    journal_id = db.meta(conn).get("journal_id")
    if head is None:
        notes.append(f"no head file ({head_path(path)}): rows recorded after the last "
                     "one in this file cannot be ruled out; `adjudicator journal backup` "
                     "copies both")
    elif head.journal_id != journal_id:
        notes.append(f"{head_path(path)} belongs to another journal: not used")
    elif head.seq not in anchors:
        anchors[head.seq] = (head.hash, f"the head file {head_path(path)}")
    return anchors, notes
