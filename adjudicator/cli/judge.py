"""`adjudicator judge`: one verdict for the words given, or one verdict a line with --batch."""

from __future__ import annotations

import click

from adjudicator.text.entry import parse_entry
from adjudicator.config.station_name import name_problem as station_name_problem
from adjudicator.event.tables import check_table
from adjudicator.terminal.judge import judge


@click.command("judge")
@click.argument("words", nargs=-1)
@click.option("-l", "--lexicon", help="Compiled file, word list, or name in the config's "
              "lexicon_dirs, $ADJUDICATOR_LEXICONS or the lexicon shelf (default: the list the "
              "station on this machine uses: the config's lexicon, else the embedded ENABLE).")
@click.option("--batch", "batch", metavar="FILE", help="Judge one challenge a line from FILE "
              "('-' for standard input); prints one line per input line.")
@click.option("--journal", "journal", metavar="PATH", help="Record every adjudication in this "
              "journal (mode runner) before its verdict is shown; if it cannot, the verdict is "
              "still shown, stderr says NOT RECORDED and the exit code is 5.")
@click.option("--config", "config_path", metavar="PATH", help="Record as the station this config "
              "describes (its journal, name, mode, rule and lexicon), and forward to its hub.")
@click.option("--station", metavar="NAME", help="Station name for --journal (default: the "
              "machine's name, as join names a station; never with ' / ' in it).")
@click.option("--table", metavar="T", help="The game's table: a number from 1 to 9999 (digits "
              "0-9) or a short name (A3); at an event its division's list and rule judge.")
@click.option("--round", "round_", metavar="R", help="Round for --journal (as --table).")
@click.option("--recheck-of", "recheck_of", type=int, metavar="N",
              help="For --journal: this is a recheck of challenge N (WESPA 3.10.9).")
def judge_cmd(words: tuple[str, ...], lexicon: str | None, batch: str | None,
              journal: str | None = None, station: str | None = None, table: str | None = None,
              round_: str | None = None, recheck_of: int | None = None,
              config_path: str | None = None) -> None:
    """Judge a challenged play: prints ACCEPTABLE (exit 0) or UNACCEPTABLE (exit 1).

    Words are separated by spaces, no-break spaces, tabs or commas, nothing else. Only the
    play as a whole is judged, never a single word (WESPA 3.11.2(a)(viii)). A malformed entry
    is not judged: one line on stderr, exit 2.

    \b
    Examples:
      adjudicator judge cat xu
      adjudicator judge --lexicon csw19.lex qi qzx
      adjudicator judge --lexicon CSW19 --batch challenges.txt
      adjudicator judge --journal event.db --station "Runner desk" --table 12 qi za
      adjudicator judge --config station.toml --table 12 qi za   # + its hub
      adjudicator judge --table 25 qi za   # at an event: table 25's division's list
    """
    if not (journal or config_path) and (station or round_ or recheck_of is not None):
        raise click.UsageError("--station, --round and --recheck-of need --journal PATH "
                               "or --config PATH")
    if batch is not None and words:
        raise click.UsageError("give either WORDS or --batch, not both")
    if batch is not None and recheck_of is not None:
        raise click.UsageError("--recheck-of names one challenge: give WORDS, not --batch")
    entry = parse_entry(" ".join(words)) if batch is None else None  # EntryError: exit 2 first
    table, round_ = check_table(table), check_table(round_, "round")  # "²": exit 2, as entries
    if station is not None and station_name_problem(station):  # what the hub would refuse
        raise click.UsageError(f"--station {station_name_problem(station)}")
    raise click.exceptions.Exit(judge(
        entry, batch=batch, lexicon=lexicon, journal=journal, station=station, table=table or "",
        round_=round_ or "", recheck_of=recheck_of, config_path=config_path))

COMMANDS = [judge_cmd]
