"""`adjudicator judge` as one library call: the words, or a batch, judged at a terminal.

The list is the one the station on this machine judges with (or --lexicon's at every table);
with a journal each verdict is recorded before it is written (recording.py); as a configured
station (`--config`) its hub is asked first and told after (link/once.py). Errors are
AdjudicatorError (its exit code); the verdict's exit code is returned: 0 ACCEPTABLE,
1 UNACCEPTABLE, 2 an invalid batch line, 5 NOT RECORDED.
"""

from __future__ import annotations

import sys
from typing import TextIO

from adjudicator.config.station import Config, load_config
from adjudicator.terminal.given_lists import (chosen, load_configured, station_lists, table_given,
                                            unrecognised_warning)
from adjudicator.link import once
from adjudicator.link.once import HUB_REQUEST, ask_first, joined, one_pass
from adjudicator.station.lists import TableLists
from adjudicator.terminal.recording import record_entries, terminal_station
from adjudicator.station.service import open_station

Words = tuple[str, ...]


def warn(err: TextIO, warning: str) -> None:
    """WARNING on ERR at once (flushed), so it stands before the verdict it concerns."""
    if warning:
        err.write(warning)
        err.flush()


def judge(entry: Words | None, *, batch: str | None = None, lexicon: str | None = None,
          journal: str | None = None, station: str | None = None, table: str = "",
          round_: str = "", recheck_of: int | None = None, config_path: str | None = None,
          out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Judge ENTRY (the play's words, parsed), or one challenge a line of BATCH (a file, or
    "-"), with LEXICON at every table (else the station's lists by table, TABLE deciding);
    recorded in JOURNAL as STATION (mode runner) when given; as the station CONFIG_PATH
    describes when given (judge_as_configured). Verdicts to OUT, warnings and NOT RECORDED
    lines to ERR; the exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    if config_path:
        return judge_as_configured(config_path, entry, batch=batch, lexicon=lexicon,
                                   journal=journal, station=station, table=table,
                                   round_=round_, recheck_of=recheck_of, out=out, err=err)
    if journal:  # a folder not there (a drive not mounted): exit 4, nothing judged
        from adjudicator.files.destination import check_journal

        check_journal(journal)
    # the station's lists by table unless --lexicon names one: one answer per machine
    # (lists.py); on a joined machine its hub's event asked first, a newer one taken (40)
    lists, config = station_lists(lexicon) if lexicon else lists_now(err=err)
    lex = chosen(lists, table)  # DivisionError, --table missing: exit 2, nothing judged
    # issue 29: said on stderr, as on every screen and slip (after a --batch file opened: an
    # error stays one line)
    warning = unrecognised_warning(lex, config)
    if journal:  # through the station service: recorded before any verdict is shown
        warn(err, warning)
        service = terminal_station(lex, journal, station)
        try:
            return record_entries(service, entry, batch, table, round_, recheck_of, out, err)
        finally:
            service.close()
    if batch is not None:
        from adjudicator.terminal.batch import run_batch

        return run_batch(lex, batch, opened=lambda: warn(err, warning), out=out)
    warn(err, warning)
    from adjudicator.judging.verdict import adjudicate

    verdict = adjudicate(lex, entry or ())
    out.write(verdict.word + "\n")
    return 0 if verdict.acceptable else 1


def judge_as_configured(config_path: str, entry: Words | None, *, batch: str | None,
                        lexicon: str | None, journal: str | None, station: str | None,
                        table: str, round_: str, recheck_of: int | None, out: TextIO,
                        err: TextIO) -> int:
    """`judge --config`: as the configured station (its journal unless JOURNAL, its name
    unless STATION), its lists by table as its kiosk makes them (LEXICON: that list at every
    table). On a joined machine its hub's event is asked first (issue 40: a hub that does
    not answer costs ASK_WAIT); the rows are sent to its hub after the verdicts are written
    (a hub that is down costs the verdict nothing: the rows wait in the journal for the next
    run or `journal push`)."""
    from dataclasses import replace

    from adjudicator.files.destination import check_journal

    cfg = load_config(config_path)
    cfg = replace(cfg, journal=journal or cfg.journal, station=station or cfg.station)
    check_journal(cfg.journal)  # a folder not there: exit 4 before anything is judged
    given = load_configured(lexicon) if lexicon else None
    service = open_station(cfg, given, link="once", timeout=HUB_REQUEST, follow=given is None)
    try:
        with one_pass(service, ask=given is None, err=err):  # asked first, told after
            table_given(service.lists, table)  # --table missing where it decides: exit 2
            lex, _ = service.choose(table)  # a table this station does not judge: exit 2
            warn(err, unrecognised_warning(lex, "" if given else cfg.path))  # when it judges
            return record_entries(service, entry, batch, table, round_, recheck_of, out, err)
    finally:
        service.close()


def lists_now(cfg: Config | None = None,
              err: TextIO | None = None) -> tuple[TableLists, str]:
    """(lists by table, config path) of the station on this machine (the user config, or
    $ADJUDICATOR_CONFIG) for plain `judge`, made as every surface makes them (lists.lists_for);
    on a joined machine its hub asked first, its newer event taken (ask_first). Nothing is
    recorded: the station opens no journal."""
    cfg = cfg or load_config()  # ConfigError (exit 6) names the bad key, as the kiosk would
    if not joined(cfg):
        return open_station(cfg, records=False, link="none").lists, cfg.path
    service = open_station(cfg, records=False, link="once", timeout=once.ASK_WAIT)
    try:
        ask_first(service, err=err)
    finally:
        if service.hub_link is not None:
            service.hub_link.stop()
    return service.lists, service.config.path
