"""The lists a terminal command judges with: --lexicon's at every table, else the station's own."""

from __future__ import annotations

import os

from adjudicator.config.station import load_config
from adjudicator.errors import EntryError
from adjudicator.lexicon.library import DEFAULT_NAMES, load_lexicon
from adjudicator.station.lists import TableLists, lists_for, single


def load_configured(spec: str | None = None, check_words: bool = True):
    """load_lexicon for the command line: a name is also looked up in the configuration file's
    lexicon_dirs, as the kiosk does. The configuration is read only when SPEC is such a name.
    CHECK_WORDS False: its words checked before its first verdict (`info` says DAMAGED)."""
    dirs = None
    if spec and spec.lower() not in DEFAULT_NAMES and not os.path.exists(spec):
        dirs = list(load_config().lexicon_dirs)  # ConfigError (exit 6) names the bad key
    return load_lexicon(spec, dirs=dirs, check_words=check_words)


def station_lists(spec: str | None, check_words: bool = True) -> tuple[TableLists, str]:
    """(lists by table, config path): --lexicon SPEC for every table when given, else the lists
    the station on this machine judges with, made as every surface makes them (lists.lists_for,
    from the same config: the user config file, or $ADJUDICATOR_CONFIG), so `judge` and `info`
    never disagree with the kiosk. The config path is "" when SPEC named the list."""
    if spec:
        return single(load_configured(spec, check_words)), ""
    cfg = load_config()  # ConfigError (exit 6) names the bad key, as the kiosk would
    return lists_for(cfg, check_words=check_words), cfg.path


def chosen(lists: TableLists, table: str):
    """The list that judges at TABLE (lists.py); without --table where the divisions here judge
    with different lists, EntryError (exit 2, one line): never a guess."""
    table_given(lists, table)
    return lists.choose(table).lexicon


def table_given(lists: TableLists, table: str) -> None:
    """EntryError (exit 2, one line) when TABLE is missing where it decides which list or rule
    judges (the divisions here judge with different ones): never a guess."""
    if not table and lists.needs_table:
        raise EntryError("table", f"this station's divisions judge with different lists or "
                                  f"rules ({lists.describe()}): give the table (--table T)")


def unrecognised_warning(lex, config_path: str = "") -> str:
    """The stderr line ("" for none) when LEX is not an official tournament list (an
    unrecognised list, or the embedded ENABLE), as screens and slips say it: a script reading
    only stdout still sees ACCEPTABLE, the person at the terminal sees which list judged.
    CONFIG_PATH: the config the list came from, named so the director knows where to set
    another (issue 27)."""
    warning = lex.identity.warning
    if not warning:
        return ""
    where = (f" (the list {config_path} names; set lexicon there, or give --lexicon)"
             if config_path else "")
    return f"adjudicator: warning: {warning}{where}\n"
