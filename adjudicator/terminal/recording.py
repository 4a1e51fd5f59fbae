"""Challenges judged at a terminal, recorded before each verdict is written: one, or a batch.

`judge --journal` and `judge --config` judge through the station service (station.py), as a
runner's desk does: no verdict line is written before its row is committed (a row that cannot
be committed still gets its verdict, and "NOT RECORDED" on stderr, exit 5). One way for both:
a Group, judged and recorded in one transaction, then written; one play is a group of one.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from adjudicator.terminal.batch_lines import ACCEPTABLE, UNACCEPTABLE, Entries, close_source, open_source
from adjudicator.config.station import Config
from adjudicator.errors import EXIT_ENTRY, EXIT_NOT_RECORDED, EntryError, JournalError
from adjudicator.station.service import NOT_RECORDED, Outcome, Station, open_station
from adjudicator.config.station_name import default_name

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
    """One challenge, recorded before its verdict is written to OUT: a group of one (Group, as
    a batch's lines are); the exit code: 0 ACCEPTABLE, 1 UNACCEPTABLE, 5 NOT RECORDED."""
    if recheck_of is not None:
        check_recheck_of(station, recheck_of)
    group = Group(station, table, round_, out or sys.stdout, err or sys.stderr, recheck_of)
    group.add(words)
    (outcome,) = group.flush()
    if group.failed:
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


def record_entries(station: Station, entry, batch: str | None, table: str, round_: str,
                   recheck_of: int | None, out: TextIO, err: TextIO) -> int:
    """The BATCH (a file, or "-"), or the one challenge ENTRY, judged and recorded by
    STATION (the one a terminal command opened); the exit code."""
    if batch is not None:
        return run_batch_recorded(station, batch, table, round_, out, err)
    return judge_recorded(station, entry, table, round_, recheck_of, out, err)


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
    group = Group(station, table, round_, out or sys.stdout, err or sys.stderr)
    stream = open_source(source)
    entries = Entries()
    try:
        line_no, clock = 0, time.monotonic
        first = 0.0  # when the oldest line not yet answered arrived
        for block in stream.blocks():
            if not group.lines:
                first = clock()
            for line in block:
                line_no += 1
                words = entries.parse(line)
                if isinstance(words, str):  # the line's INVALID answer
                    group.answer(words)
                else:
                    group.add(words, f"line {line_no}: ")
                if len(group.lines) >= BATCH_GROUP:
                    group.flush()
                    first = clock()
            # a group commit: lines that came together (or within GROUP_WAIT) share a
            # transaction; a runner typing at a pipe is answered GROUP_WAIT after the line
            if group.lines and not stream.more_within(first + GROUP_WAIT - clock()):
                group.flush()
        group.flush()
    finally:
        close_source(source, stream)
    if group.failed:
        return EXIT_NOT_RECORDED
    return EXIT_ENTRY if entries.invalid else 0


class Group:
    """Challenges waiting for their verdicts, in the order they came: judged and recorded in one
    transaction (Station.judge_group), then written, each not recorded said on ERR after."""

    def __init__(self, station: Station, table: str, round_: str, out: TextIO, err: TextIO,
                 recheck_of: int | None = None):
        self.station, self.table, self.round, self.recheck_of = station, table, round_, recheck_of
        self.out, self.err = out, err
        self.lines: list[str | None] = []  # None: a verdict still to be judged and recorded
        self.pending: list[tuple[str, tuple[str, ...]]] = []  # (where, for NOT RECORDED; words)
        self.failed = 0  # how many were not recorded

    def answer(self, line: str) -> None:
        """A line answered without judging (its INVALID answer), written in its place."""
        self.lines.append(line)

    def add(self, words: tuple[str, ...], where: str = "") -> None:
        """WORDS to judge, in their place among the lines; WHERE names them if not recorded."""
        self.pending.append((where, words))
        self.lines.append(None)

    def flush(self) -> list[Outcome]:
        """The challenges waiting judged and recorded together, then every line written."""
        outcomes = self.station.judge_group([words for _, words in self.pending],
                                            table=self.table, round=self.round,
                                            recheck_of=self.recheck_of)
        judged = iter(zip(self.pending, outcomes))
        problems = []
        for i, line in enumerate(self.lines):
            if line is None:
                (where, _), outcome = next(judged)
                self.lines[i] = ACCEPTABLE if outcome.verdict.acceptable else UNACCEPTABLE
                if not outcome.recorded:
                    problems.append(not_recorded(outcome, where))
        self.out.writelines(self.lines)  # type: ignore[arg-type]  # each answered above
        self.out.flush()
        self.err.writelines(problems)
        if problems:
            self.err.flush()
            self.failed += len(problems)
        self.lines.clear()
        self.pending.clear()
        return outcomes
