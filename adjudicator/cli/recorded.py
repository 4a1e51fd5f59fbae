"""`adjudicator judge --journal`: the terminal as a runner's desk, through the station service."""

from __future__ import annotations

import sys

from ..config import Config
from ..errors import EXIT_ENTRY, EXIT_NOT_RECORDED
from ..station import NOT_RECORDED, Outcome, Station, open_station
from .streams import ACCEPTABLE, UNACCEPTABLE, Entries, close_source, interactive, open_source

BATCH_GROUP = 256  # lines judged, then recorded in one transaction, then written


def judge_station() -> str:
    """The station name `judge` records under when --station is not given: the host name."""
    import socket

    return socket.gethostname() or "terminal"


def terminal_station(lexicon, journal_path: str, station: str | None) -> Station:
    """A runner-mode station service for one terminal command; no event rule is recorded."""
    config = Config(station=station or judge_station(), mode="runner", journal=journal_path)
    return open_station(config, lexicon, rule_known=False)


def not_recorded(outcome: Outcome, where: str = "") -> str:
    """The stderr line for a verdict shown but not recorded."""
    return f"adjudicator: {NOT_RECORDED} ({where}{outcome.problem})\n"


def judge_recorded(station: Station, words, table: str, round_: str,
                   recheck_of: int | None) -> int:
    """One challenge, recorded before its verdict is printed; the exit code."""
    outcome = station.judge(words, table=table, round=round_, recheck_of=recheck_of,
                            is_recheck=recheck_of is not None)
    sys.stdout.write(outcome.verdict.word + "\n")
    sys.stdout.flush()
    if not outcome.recorded:
        sys.stderr.write(not_recorded(outcome))
        return EXIT_NOT_RECORDED
    return 0 if outcome.verdict.acceptable else 1


def run_batch_recorded(station: Station, source: str, table: str, round_: str) -> int:
    """`judge --batch` with a journal: no verdict line is written before its row is committed.

    Lines are judged in groups, each group recorded in one transaction, then written (one line
    at a time when a runner types at a pipe). A line that cannot be recorded still gets its
    verdict, plus "adjudicator: NOT RECORDED: call the director (line N: reason)" on stderr;
    exit 5 then.
    """
    stream = open_source(source)
    out, err = sys.stdout, sys.stderr
    group = 1 if interactive(source) else BATCH_GROUP
    failed = 0
    lines: list[str | None] = []  # None: a verdict still to be judged and recorded
    pending: list[tuple[int, tuple[str, ...]]] = []

    def flush() -> None:
        nonlocal failed
        outcomes = station.judge_group([words for _, words in pending], table=table,
                                       round=round_)
        judged = iter(zip(pending, outcomes))
        problems = []
        for i, line in enumerate(lines):
            if line is None:
                (line_no, _), outcome = next(judged)
                lines[i] = ACCEPTABLE if outcome.verdict.acceptable else UNACCEPTABLE
                if not outcome.recorded:
                    problems.append((line_no, outcome))
        out.writelines(lines)
        out.flush()
        for line_no, outcome in problems:
            err.write(not_recorded(outcome, f"line {line_no}: "))
        if problems:
            err.flush()
            failed += len(problems)
        lines.clear()
        pending.clear()

    entries = Entries()
    try:
        for line_no, line in enumerate(stream, 1):
            words = entries.parse(line)
            if type(words) is str:  # the line's INVALID answer
                lines.append(words)
            else:
                pending.append((line_no, words))
                lines.append(None)
            if len(lines) >= group:
                flush()
        flush()
    finally:
        close_source(source, stream)
        station.close()
    if failed:
        return EXIT_NOT_RECORDED
    return EXIT_ENTRY if entries.invalid else 0
