"""Challenges judged at a terminal and recorded before each verdict is written: one, or a batch.

`judge --journal` and `judge --config` judge through the station service (station.py), as a
runner's desk does: no verdict line is written before its row is committed (a row that cannot
be committed still gets its verdict, and "NOT RECORDED" on stderr, exit 5).
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from .batchlines import ACCEPTABLE, UNACCEPTABLE, Entries, close_source, open_source
from .config import Config
from .errors import EXIT_ENTRY, EXIT_NOT_RECORDED, EntryError, JournalError
from .station import NOT_RECORDED, Outcome, Station, open_station
from .stationname import default_name

BATCH_GROUP = 256  # lines judged, then recorded in one transaction, then written
GROUP_WAIT = 0.004  # seconds a line from a pipe waits for more lines to commit with it


def terminal_station(lexicon, journal_path: str, station: str | None) -> Station:
    """A runner-mode station service for one terminal command (`judge --journal`), named
    STATION or this machine's default name (stationname.default_name, as `join` names it);
    no event rule is recorded, no hub told."""
    config = Config(station=station or default_name(), mode="runner", journal=journal_path)
    return open_station(config, lexicon, rule_known=False, link="none")


def not_recorded(outcome: Outcome, where: str = "") -> str:
    """The stderr line for a verdict shown but not recorded."""
    return f"adjudicator: {NOT_RECORDED} ({where}{outcome.problem})\n"


def judge_recorded(station: Station, words, table: str, round_: str, recheck_of: int | None,
                   out: TextIO | None = None, err: TextIO | None = None) -> int:
    """One challenge, recorded before its verdict is written to OUT; the exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    if recheck_of is not None:
        check_recheck_of(station, recheck_of)
    outcome = station.judge(words, table=table, round=round_, recheck_of=recheck_of,
                            is_recheck=recheck_of is not None)
    out.write(outcome.verdict.word + "\n")
    out.flush()
    if not outcome.recorded:
        err.write(not_recorded(outcome))
        return EXIT_NOT_RECORDED
    return 0 if outcome.verdict.acceptable else 1


def check_recheck_of(station: Station, seq: int) -> None:
    """--recheck-of N names a challenge the journal holds (WESPA 3.10.9 rechecks a challenge
    that was judged): a mistyped N is EntryError, exit 2, before anything is judged. A
    journal that cannot be opened is left to the record, which then says NOT RECORDED."""
    journal = station.journal
    if journal is None:
        return
    try:
        journal.get(seq)
    except JournalError as e:
        raise EntryError("recheck_of", f"--recheck-of {seq}: {e}: give the number its verdict "
                                       "showed") from None


def run_batch_recorded(station: Station, source: str, table: str, round_: str,
                       out: TextIO | None = None, err: TextIO | None = None) -> int:
    """`judge --batch` with a journal: no verdict line is written before its row is committed.

    Lines are judged in groups, each group recorded in one transaction (a group commit), then
    written: up to BATCH_GROUP lines, and from a pipe or terminal only the lines that arrived
    within GROUP_WAIT of the oldest unanswered one, so a runner typing is answered at once and
    a fast pipe commits as few times as a file. A line that cannot be recorded still gets its
    verdict, plus "adjudicator: NOT RECORDED: call the director (line N: reason)" on ERR;
    exit 5 then. The station is left open (its caller closes it).
    """
    out, err = out or sys.stdout, err or sys.stderr
    stream = open_source(source)
    batch = _Group(station, table, round_, out, err)
    entries = Entries()
    try:
        line_no, clock = 0, time.monotonic
        first = 0.0  # when the oldest line not yet answered arrived
        for block in stream.blocks():
            if not batch.lines:
                first = clock()
            for line in block:
                line_no += 1
                batch.add(line_no, entries.parse(line))
                if len(batch.lines) >= BATCH_GROUP:
                    batch.flush()
                    first = clock()
            # a group commit: lines that came together (or within GROUP_WAIT) share a
            # transaction; a runner typing at a pipe is answered GROUP_WAIT after the line
            if batch.lines and not stream.more_within(first + GROUP_WAIT - clock()):
                batch.flush()
        batch.flush()
    finally:
        close_source(source, stream)
    if batch.failed:
        return EXIT_NOT_RECORDED
    return EXIT_ENTRY if entries.invalid else 0


class _Group:
    """The lines of one group commit: judged and recorded together, then written in order."""

    def __init__(self, station: Station, table: str, round_: str, out: TextIO, err: TextIO):
        self.station, self.table, self.round = station, table, round_
        self.out, self.err = out, err
        self.failed = 0  # lines not recorded
        self.lines: list[str | None] = []  # None: a verdict still to be judged and recorded
        self.pending: list[tuple[int, tuple[str, ...]]] = []

    def add(self, line_no: int, words) -> None:
        """A parsed line: its INVALID answer (text), or its words to judge."""
        if type(words) is str:
            self.lines.append(words)
        else:
            self.pending.append((line_no, words))
            self.lines.append(None)

    def flush(self) -> None:
        outcomes = self.station.judge_group([words for _, words in self.pending],
                                            table=self.table, round=self.round)
        judged = iter(zip(self.pending, outcomes))
        problems = []
        lines = self.lines
        for i, line in enumerate(lines):
            if line is None:
                (line_no, _), outcome = next(judged)
                lines[i] = ACCEPTABLE if outcome.verdict.acceptable else UNACCEPTABLE
                if not outcome.recorded:
                    problems.append((line_no, outcome))
        self.out.writelines(lines)  # type: ignore[arg-type]  # each answered above
        self.out.flush()
        for line_no, outcome in problems:
            self.err.write(not_recorded(outcome, f"line {line_no}: "))
        if problems:
            self.err.flush()
            self.failed += len(problems)
        lines.clear()
        self.pending.clear()
