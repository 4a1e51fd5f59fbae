"""A verdict recorded and never shown (a crash between the journal's commit and the paint).

The journal is written before a verdict is shown; a station killed in between (25-55 ms) left a
row nobody saw, and players who then typed the play again got a second row flagged "possible
split look-up" (issue 36). A station marks each verdict shown once it is on the terminal, in a
mark file beside its state file written in place (a full disk cannot stop it; issue 42); at its
next start, the last row of its own that is newer is shown before any key is applied, and the
players' re-challenge of the same words is recorded as a recheck of it (WESPA 3.10.9), never as
a second challenge.
"""

from __future__ import annotations

import datetime as dt
import os
import zlib

from adjudicator.lexicon.known import LexiconIdentity
from adjudicator.judging.rules import consequence_under
from adjudicator.station.service import Outcome, Station
from adjudicator.station.state import load_state, save_state
from adjudicator.judging.verdict import Verdict

SHOWN = "shown_seq"  # the state file's key: the last challenge number shown at this station
SHORT_HASH = 8  # as on a slip (journal/anchor.py short_hash)


MARK_SUFFIX = ".shown"  # beside the state file: the mark written in place (survives a full disk)
SLOT = 32  # bytes a mark takes; the file holds two, written in turn


def _mark_path(state_file: str) -> str:
    return state_file + MARK_SUFFIX


def prepare_marks(state_file: str | None) -> None:
    """The mark file made at its full size now (at start, while there is room): every later
    mark overwrites its own bytes in place, which needs no new block, so a verdict shown while
    the disk is full is still marked shown (issue 42: it came back as RECORDED BUT NEVER SHOWN
    after a full disk)."""
    if not state_file:
        return
    path = _mark_path(state_file)
    try:
        if os.path.getsize(path) >= 2 * SLOT:
            return
    except OSError:
        pass
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)
        try:
            os.write(fd, b"\0" * (2 * SLOT))
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass  # no room even now: the state file's mark is used


def _slot(seq: int) -> bytes:
    body = f"{seq:020d}"
    return f"{body} {zlib.crc32(body.encode()):08x}\n".encode().ljust(SLOT, b" ")


def _read_marks(state_file: str) -> int | None:
    """The highest whole mark in the mark file (a torn slot is skipped), else None."""
    try:
        with open(_mark_path(state_file), "rb") as f:
            data = f.read(2 * SLOT)
    except OSError:
        return None
    found = []
    for i in (0, SLOT):
        parts = data[i:i + SLOT].split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1] == (
                f"{zlib.crc32(parts[0]):08x}".encode()):
            found.append(int(parts[0]))
    return max(found, default=None)


def mark_shown(state_file: str | None, seq: int | None) -> None:
    """Challenge SEQ is on the players' screen: no restart shows it again. Written in place
    into the mark file (prepare_marks), in the slot the previous mark does not hold, so a
    write cut by a crash leaves the other whole; the state file only when that cannot be."""
    if not state_file or seq is None:
        return
    try:
        fd = os.open(_mark_path(state_file), os.O_RDWR | getattr(os, "O_BINARY", 0))
    except OSError:
        save_state(state_file, **{SHOWN: int(seq)})
        return
    try:
        os.lseek(fd, (int(seq) % 2) * SLOT, os.SEEK_SET)
        os.write(fd, _slot(int(seq)))
        os.fsync(fd)
    except OSError:
        save_state(state_file, **{SHOWN: int(seq)})
    finally:
        os.close(fd)


def last_shown(state_file: str) -> int | None:
    """The last challenge marked shown: the mark file's, or the state file's (older stations,
    or a mark file that could not be made), whichever is higher."""
    saved = load_state(state_file).get(SHOWN)
    saved = saved if isinstance(saved, int) and not isinstance(saved, bool) else None
    marks = [m for m in (_read_marks(state_file), saved) if m is not None]
    return max(marks, default=None)


def find_unseen(station: Station, state_file: str | None) -> Outcome | None:
    """The station's last recorded verdict when it was never shown, as an Outcome; else None.

    A state file with no mark yet (a station's first start with this version) is marked at the
    journal's last row: nothing before it is claimed unseen.
    """
    journal = station.journal
    if not state_file or journal is None:
        return None
    try:
        rows = journal.recent(1)
    except Exception:  # noqa: BLE001 - an unreadable journal is said elsewhere; nothing here
        return None
    last = rows[0] if rows else None
    prepare_marks(state_file)
    shown = last_shown(state_file)
    if shown is None:
        mark_shown(state_file, last.seq if last else 0)
        return None
    if (last is None or last.seq <= shown or last.station != station.station_name
            or last.mode != station.journal_mode):
        return None
    return outcome_of(station, last)


def outcome_of(station: Station, row) -> Outcome:
    """ROW (a JournalRow) as the Outcome its verdict screen showed, or would have shown."""
    identity = next((lex.identity for lex in station.lists.lexicons  # the secondary too
                     if lex.identity.fingerprint == row.fingerprint),
                    LexiconIdentity(row.lexicon_name, row.fingerprint, 0, None))
    try:
        time = dt.datetime.fromisoformat(row.time_local)
    except (TypeError, ValueError):
        time = dt.datetime.now().astimezone()
    return Outcome(
        verdict=Verdict(tuple(row.words), bool(row.acceptable), identity),
        seq=row.seq,
        consequence=consequence_under(row.rule, bool(row.acceptable), len(row.words)),
        time=time,
        recheck_of=row.recheck_of,
        is_recheck=row.recheck_of is not None,
        secondary_agrees=row.secondary_agrees,
        table=row.table or "",
        round=row.round or "",
        row_hash=str(row.hash or "")[:SHORT_HASH],
    )


def rechallenge_of(unseen: Outcome | None, words: tuple[str, ...], now: dt.datetime,
                   window: float) -> Outcome | None:
    """UNSEEN when WORDS, typed at NOW, are the players challenging it again (the same words
    within the split window of it): the station rechecks it instead of recording a second
    challenge. None otherwise."""
    if unseen is None or unseen.seq is None or tuple(words) != tuple(unseen.verdict.words):
        return None
    try:
        gap = abs((now - unseen.time).total_seconds())
    except TypeError:  # one of the times has no zone
        return None
    return unseen if gap <= window else None
