"""`adjudicator judge --journal`: the terminal as a runner's desk, through the station service."""

from __future__ import annotations

import sys
import time

from ..config import Config
from ..errors import EXIT_ENTRY, EXIT_NOT_RECORDED, AdjudicatorError
from ..station import NOT_RECORDED, Outcome, Station, open_station
from .streams import ACCEPTABLE, UNACCEPTABLE, Entries, close_source, open_source

BATCH_GROUP = 256  # lines judged, then recorded in one transaction, then written
GROUP_WAIT = 0.004  # seconds a line from a pipe waits for more lines to commit with it
HUB_WAIT = 5.0  # seconds `judge --config` gives its hub after the verdict, whatever it does
HUB_REQUEST = 2.0  # seconds one request to it may take, whole


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
    if recheck_of is not None:
        _check_recheck_of(station, recheck_of)
    outcome = station.judge(words, table=table, round=round_, recheck_of=recheck_of,
                            is_recheck=recheck_of is not None)
    sys.stdout.write(outcome.verdict.word + "\n")
    sys.stdout.flush()
    if not outcome.recorded:
        sys.stderr.write(not_recorded(outcome))
        return EXIT_NOT_RECORDED
    return 0 if outcome.verdict.acceptable else 1


def _check_recheck_of(station: Station, seq: int) -> None:
    """--recheck-of N names a challenge the journal holds (WESPA 3.10.9 rechecks a challenge
    that was judged): a mistyped N is a usage error, exit 2, before anything is judged. A
    journal that cannot be opened is left to the record, which then says NOT RECORDED."""
    import click

    from ..errors import JournalError

    journal = station.journal
    if journal is None:
        return
    try:
        journal.get(seq)
    except JournalError as e:
        raise click.UsageError(f"--recheck-of {seq}: {e}: give the number its verdict "
                               "showed") from None


def run_batch_recorded(station: Station, source: str, table: str, round_: str,
                       close: bool = True) -> int:
    """`judge --batch` with a journal: no verdict line is written before its row is committed.

    Lines are judged in groups, each group recorded in one transaction (a group commit), then
    written: up to BATCH_GROUP lines, and from a pipe or terminal only the lines that arrived
    within GROUP_WAIT of the oldest unanswered one, so a runner typing is answered at once and
    a fast pipe commits as few times as a file. A line that cannot be recorded still gets its
    verdict, plus "adjudicator: NOT RECORDED: call the director (line N: reason)" on stderr;
    exit 5 then. CLOSE: the station is closed at the end (else its caller closes it).
    """
    stream = open_source(source)
    out, err = sys.stdout, sys.stderr
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
        line_no, clock = 0, time.monotonic
        first = 0.0  # when the oldest line not yet answered arrived
        for block in stream.blocks():
            if not lines:
                first = clock()
            for line in block:
                line_no += 1
                words = entries.parse(line)
                if type(words) is str:  # the line's INVALID answer
                    lines.append(words)
                else:
                    pending.append((line_no, words))
                    lines.append(None)
                if len(lines) >= BATCH_GROUP:
                    flush()
                    first = clock()
            # a group commit: lines that came together (or within GROUP_WAIT) share a
            # transaction; a runner typing at a pipe is answered GROUP_WAIT after the line
            if lines and not stream.more_within(first + GROUP_WAIT - clock()):
                flush()
        flush()
    finally:
        close_source(source, stream)
        if close:
            station.close()
    if failed:
        return EXIT_NOT_RECORDED
    return EXIT_ENTRY if entries.invalid else 0


def judge_with_config(config_path: str, lexicon: str | None, journal: str | None,
                      station: str | None, entry, batch: str | None, table: str, round_: str,
                      recheck_of: int | None) -> int:
    """`judge --config`: as the configured station (its journal unless --journal); the rows are
    then sent to the config's hub, after the verdicts are written (a hub that is down costs the
    verdict nothing: the rows wait in the journal for the next run or `journal push`)."""
    from dataclasses import replace

    from ..config import load_config
    from ..destination import check_journal
    from .hubfirst import ask_first, joined
    from .lexicons import chosen, load_configured, warn_unrecognised

    cfg = load_config(config_path)
    if journal:
        cfg = replace(cfg, journal=journal)
    if station:
        cfg = replace(cfg, station=station)
    check_journal(cfg.journal)  # a folder not there: exit 4 before anything is judged
    # its lists by table, as its kiosk makes them (lists.py); --lexicon: that list at every table
    service = (open_station(cfg, load_configured(lexicon), forward=False) if lexicon
               else open_station(cfg, forward=False))
    try:
        # on a joined machine the hub's event first (issue 40): the first call after a change
        # judges with it; a hub that does not answer costs ASK_WAIT and is not waited for again
        answered = ask_first(service, push_follows=True) if joined(cfg) and not lexicon else True
        lex = chosen(service.lists, table)  # --table missing where it decides: exit 2
        warn_unrecognised(lex, "" if lexicon else cfg.path)  # only when that list judges
        if batch is not None:
            code = run_batch_recorded(service, batch, table, round_, close=False)
        else:
            code = judge_recorded(service, entry, table, round_, recheck_of)
        if cfg.hub and answered:
            send_to_hub(service, follow=not lexicon)
    finally:
        service.close()
    return code


def send_to_hub(service: Station, follow: bool = True) -> None:
    """One push to the station's hub, HUB_WAIT seconds at most whatever the hub does (a hub
    answering a byte a second included); a line on stderr when it cannot be told, the rows
    then wait in the journal's outbox. FOLLOW: the event the hub's answer carries is taken
    at once (follow.py: a list fetched, the config written), as a kiosk takes it at Ready."""
    from ..link.forward import Forwarder, HubUnreachable
    from ..link.status import station_status

    cfg = service.config
    forwarder = Forwarder(cfg.journal, cfg.hub, cfg.hub_token, status=station_status(service),
                          timeout=HUB_REQUEST, pin=cfg.hub_fingerprint)
    if follow:  # the one way every surface follows (Station.follow), taken at once
        service.takes_at_once = True
        forwarder.on_event = service.follow
        forwarder.on_name = service.renamed
    try:
        forwarder.push(limit=HUB_WAIT)
    except Exception as e:  # noqa: BLE001 - the verdict is given: the hub costs it nothing
        if not isinstance(e, (HubUnreachable, AdjudicatorError)):
            e = f"the hub {cfg.hub} could not be told ({type(e).__name__})"
        sys.stderr.write(f"adjudicator: {e}; the rows wait in {cfg.journal} "
                         f"(adjudicator journal push --config {cfg.path})\n")
    finally:
        forwarder.stop()

