"""`adjudicator judge` as one library call: the words, or a batch, judged at a terminal.

The list is the one the station on this machine judges with (or --lexicon's at every table);
with a journal each verdict is recorded before it is written (recording.py); as a configured
station (`--config`) its hub is asked first and told after (oneshot.py). Errors are
AdjudicatorError (its exit code); the verdict's exit code is returned: 0 ACCEPTABLE,
1 UNACCEPTABLE, 2 an invalid batch line, 5 NOT RECORDED.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from typing import TextIO

from .given_lists import chosen, load_configured, station_lists, unrecognised_warning
from .oneshot import HUB_REQUEST, ask_first, joined, lists_now, tell_hub
from .recording import judge_recorded, run_batch_recorded, terminal_station
from .station import Station, open_station


@dataclass(frozen=True)
class JudgeRequest:
    """What `adjudicator judge` was asked, checked (words parsed, table and round valid)."""

    entry: tuple[str, ...] | None  # the play's words; None with a batch
    batch: str | None = None  # a file, or "-": one challenge a line
    lexicon: str | None = None  # --lexicon: that list at every table
    journal: str | None = None  # record in this journal (mode runner)
    station: str | None = None  # the name recorded (default: stationname.default_name)
    table: str = ""
    round: str = ""
    recheck_of: int | None = None
    config_path: str | None = None  # judge as the station this config describes


def judge(request: JudgeRequest, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Judge REQUEST, verdicts to OUT, warnings and NOT RECORDED lines to ERR; the exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    if request.config_path:
        return judge_as_configured(request, out, err)
    if request.journal:  # a folder not there (a drive not mounted): exit 4, nothing judged
        from .destination import check_journal

        check_journal(request.journal)
    # the station's lists by table unless --lexicon names one: one answer per machine
    # (lists.py); on a joined machine its hub's event asked first, a newer one taken (40)
    lists, config_path = (station_lists(request.lexicon) if request.lexicon
                          else lists_now(err=err))
    lex = chosen(lists, request.table)  # DivisionError, --table missing: exit 2
    # issue 29: said on stderr, as on every screen and slip (after a --batch file opened: an
    # error stays one line)
    warning = unrecognised_warning(lex, config_path)
    if request.journal:  # through the station service: recorded before any verdict is shown
        err.write(warning)
        service = terminal_station(lex, request.journal, request.station)
        try:
            return _recorded(service, request, out, err)
        finally:
            service.close()
    if request.batch is not None:
        from .batch import run_batch

        return run_batch(lex, request.batch, opened=lambda: err.write(warning), out=out)
    err.write(warning)
    from .verdict import adjudicate

    verdict = adjudicate(lex, request.entry or ())
    out.write(verdict.word + "\n")
    return 0 if verdict.acceptable else 1


def judge_as_configured(request: JudgeRequest, out: TextIO, err: TextIO) -> int:
    """`judge --config`: as the configured station (its journal unless --journal, its name
    unless --station), its lists by table as its kiosk makes them (--lexicon: that list at
    every table). On a joined machine its hub's event is asked first (issue 40: a hub that
    does not answer costs ASK_WAIT); the rows are sent to its hub after the verdicts are
    written (a hub that is down costs the verdict nothing: the rows wait in the journal for
    the next run or `journal push`)."""
    from .config import load_config
    from .destination import check_journal

    cfg = load_config(request.config_path)
    cfg = replace(cfg, journal=request.journal or cfg.journal,
                  station=request.station or cfg.station)
    check_journal(cfg.journal)  # a folder not there: exit 4 before anything is judged
    given = load_configured(request.lexicon) if request.lexicon else None
    service = open_station(cfg, given, link="once", timeout=HUB_REQUEST, follow=given is None)
    try:
        answered = ask_first(service, True, err) if joined(cfg) and given is None else True
        lex = chosen(service.lists, request.table)  # --table missing where it decides: exit 2
        err.write(unrecognised_warning(lex, "" if given else cfg.path))  # when that list judges
        code = _recorded(service, request, out, err)
        if cfg.hub and answered:
            tell_hub(service, err)
    finally:
        if service.hub_link is not None:
            service.hub_link.stop()
        service.close()
    return code


def _recorded(service: Station, request: JudgeRequest, out: TextIO, err: TextIO) -> int:
    """The batch, or the one challenge, judged and recorded by SERVICE."""
    if request.batch is not None:
        return run_batch_recorded(service, request.batch, request.table, request.round, out,
                                  err)
    return judge_recorded(service, request.entry, request.table, request.round,
                          request.recheck_of, out, err)
