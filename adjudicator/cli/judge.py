"""`adjudicator judge`: one verdict for the words given, or one verdict a line with --batch."""

from __future__ import annotations

import io
import sys
from typing import TextIO

import click

from ..entry import parse_entry
from ..errors import EXIT_ENTRY, EXIT_NOT_RECORDED, AdjudicatorError, LexiconError
from ..resolve import load_configured
from ..verdict import adjudicate, all_found

ACCEPTABLE, UNACCEPTABLE = "ACCEPTABLE\n", "UNACCEPTABLE\n"


@click.command("judge")
@click.argument("words", nargs=-1)
@click.option("-l", "--lexicon", help="Compiled file, word list, or name in the "
              "config's lexicon_dirs or $ADJUDICATOR_LEXICONS (default: the embedded ENABLE list).")
@click.option("--batch", "batch", metavar="FILE", help="Judge one challenge a line from FILE "
              "('-' for standard input); prints one line per input line.")
@click.option("--journal", "journal", metavar="PATH", help="Record every adjudication in this "
              "journal (mode runner) before its verdict is shown; if it cannot, the verdict is "
              "still shown, stderr says NOT RECORDED and the exit code is 5.")
@click.option("--station", metavar="NAME", help="Station name for --journal (default: host name).")
@click.option("--table", metavar="T", help="Table number for --journal.")
@click.option("--round", "round_", metavar="R", help="Round for --journal.")
@click.option("--recheck-of", "recheck_of", type=int, metavar="N",
              help="For --journal: this is a recheck of challenge N (WESPA 3.10.9).")
def judge_cmd(words: tuple[str, ...], lexicon: str | None, batch: str | None,
              journal: str | None = None, station: str | None = None, table: str | None = None,
              round_: str | None = None, recheck_of: int | None = None) -> None:
    """Judge a challenged play: prints ACCEPTABLE (exit 0) or UNACCEPTABLE (exit 1).

    Words are separated by spaces or commas. Only the play as a whole is judged, never a
    single word (WESPA 3.11.2(a)(viii)). A malformed entry is not judged: one line on stderr,
    exit 2.

    \b
    Examples:
      adjudicator judge cat xu
      adjudicator judge --lexicon csw19.lex qi qzx
      adjudicator judge --lexicon CSW19 --batch challenges.txt
      adjudicator judge --journal event.db --station "Runner desk" --table 12 qi za
    """
    fields = None
    if not journal and (station or table or round_ or recheck_of is not None):
        raise click.UsageError("--station, --table, --round and --recheck-of need --journal PATH")
    if journal:
        from .journal import judge_station

        fields = dict(station=station or judge_station(), table=table, round=round_,
                      recheck_of=recheck_of)
    if batch is not None:
        if words:
            raise click.UsageError("give either WORDS or --batch, not both")
        lex = load_configured(lexicon)
        if fields is not None:
            from .journal import run_batch_recorded

            raise click.exceptions.Exit(run_batch_recorded(lex, batch, journal, fields))
        raise click.exceptions.Exit(run_batch(lex, batch))
    entry = parse_entry(" ".join(words))  # EntryError -> exit 2 before the lexicon is loaded
    verdict = adjudicate(load_configured(lexicon), entry)
    if fields is not None:
        from .journal import NOT_RECORDED, record_single

        reason = record_single(journal, verdict, fields)  # written before the verdict is shown
        if reason is not None:
            click.echo(verdict.word)
            click.echo(f"{NOT_RECORDED} ({reason})", err=True)
            raise click.exceptions.Exit(EXIT_NOT_RECORDED)
    click.echo(verdict.word)
    raise click.exceptions.Exit(0 if verdict.acceptable else 1)


def run_batch(lex, source: str) -> int:
    """Stream challenges from SOURCE; one output line per input line; exit 0, or 2 if any invalid."""
    if source == "-":
        stream: TextIO = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    else:
        try:
            stream = open(source, encoding="utf-8", errors="replace")
        except OSError as e:
            raise LexiconError(f"cannot read {source}: {e.strerror or e}") from e
    out = sys.stdout
    interactive = source == "-" and not _is_regular_file(sys.stdin)
    invalid = 0
    try:
        for line in stream:
            try:
                words = parse_entry(line)
            except AdjudicatorError as e:
                invalid += 1
                out.write(f"INVALID: {e}\n")
            else:
                out.write(ACCEPTABLE if all_found(lex, words) else UNACCEPTABLE)
            if interactive:
                out.flush()  # a runner at a pipe sees each verdict as soon as it is judged
    finally:
        if source == "-":
            stream.detach()  # leave the process's stdin open
        else:
            stream.close()
    out.flush()
    return EXIT_ENTRY if invalid else 0


def _is_regular_file(stream) -> bool:
    import os
    import stat

    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError):
        return False


COMMANDS = [judge_cmd]
