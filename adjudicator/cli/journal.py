"""`adjudicator journal verify|export|merge`: the director's tools for the challenge journal."""

from __future__ import annotations

import click


@click.group("journal")
def journal_group() -> None:
    """The challenge journal: check it, export it for the director, merge station journals.

    \b
    Examples:
      adjudicator journal verify
      adjudicator journal export --format csv > challenges.csv
      adjudicator journal merge station1.db station2.db -o event.db
    """


@journal_group.command("verify")
@click.argument("path", required=False, type=click.Path(dir_okay=False))
def verify_cmd(path: str | None) -> None:
    """Check the journal's hash chain; name the first broken row. Exit 0 only when intact.

    A row edited, deleted, moved, inserted or forged breaks the chain; the message names its
    row number and the exit code is 5. PATH defaults to $ADJUDICATOR_JOURNAL, else journal.db
    in the user data folder.

    \b
    Examples:
      adjudicator journal verify
      adjudicator journal verify /srv/event/station1.db
    """
    from ..journal import verify

    click.echo(verify(path).raise_if_broken().describe())


@journal_group.command("export")
@click.argument("path", required=False, type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv",
              show_default=True, help="Output format.")
@click.option("--since", metavar="TIME|N", help="Only challenges at or after an ISO time "
              "(2026-11-22T14:00, local time unless it has an offset), or after challenge N.")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False),
              help="Write to this file instead of standard output.")
def export_cmd(path: str | None, fmt: str, since: str | None, out: str | None) -> None:
    """Export the journal for the director: words, verdict, times, flags, print status.

    Flags (possible split look-up, rechecks differ) are for the director only: do not hand
    this file to players. A broken chain is reported on stderr, and the export still
    written, with exit 5. PATH defaults to $ADJUDICATOR_JOURNAL, else journal.db in the user
    data folder.

    \b
    Examples:
      adjudicator journal export --format csv -o challenges.csv
      adjudicator journal export event.db --format json --since 2026-11-22T14:00
      adjudicator journal export --since 120          # challenges after no. 120
    """
    from ..errors import JournalError
    from ..journal import default_journal_path, verify
    from ..journal.export import export_journal, parse_since

    path = path or default_journal_path()
    try:
        since_value = parse_since(since)
    except JournalError as e:
        raise click.BadParameter(str(e), param_hint="--since") from None
    text = export_journal(path, fmt, since_value)
    if out:
        try:
            with open(out, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        except OSError as e:
            raise JournalError(f"cannot write {out}: {e.strerror or e}") from e
    else:
        click.echo(text, nl=False)
    report = verify(path)
    if not report.intact:
        click.echo(f"adjudicator: WARNING: {report.describe()}", err=True)
        raise click.exceptions.Exit(JournalError.exit_code)


@journal_group.command("merge")
@click.argument("inputs", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False),
              help="The event journal to write.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
def merge_cmd(inputs: tuple[str, ...], out: str, force: bool) -> None:
    """Merge station journals into one event journal, in time order, with its own chain.

    Each journal's chain is verified first: a broken one is refused, naming the file and
    row (exit 5). Every row keeps its station, and its original journal and number as
    columns. The merged journal passes `adjudicator journal verify`.

    \b
    Examples:
      adjudicator journal merge station1.db station2.db -o event.db
      adjudicator journal merge event.db late-station.db -o event2.db
    """
    from ..journal.merge import merge

    report = merge(list(inputs), out, force=force)
    for path, station, n in report.sources:
        click.echo(f"{path}: {station or '(empty)'}, {n} challenge{'s' if n != 1 else ''}")
    extra = f" ({report.duplicates} duplicates skipped)" if report.duplicates else ""
    click.echo(f"{out}: {report.rows} challenges merged{extra}")


COMMANDS = [journal_group]


# -- recording from `adjudicator judge --journal PATH` (runner-style use from a terminal) ------

NOT_RECORDED = "NOT RECORDED: call the director"
BATCH_GROUP = 256  # lines judged, then recorded in one transaction, then written


def judge_station() -> str:
    """The station name `judge` records under when --station is not given: the host name."""
    import socket

    return socket.gethostname() or "terminal"


def record_single(journal_path: str, verdict, fields: dict) -> str | None:
    """Record one verdict before it is shown; returns None, or the reason it was not recorded."""
    from ..errors import JournalError
    from ..journal import Journal

    try:
        with Journal.open(journal_path) as journal:
            journal.record(verdict, mode="runner", **fields)
    except JournalError as e:
        return str(e)
    return None


def run_batch_recorded(lex, source: str, journal_path: str, fields: dict) -> int:
    """`judge --batch` with a journal: no verdict line is written before its row is committed.

    Lines are judged in groups, each group recorded in one transaction, then written (one line
    at a time when a runner types at a pipe). A line that cannot be recorded still gets its
    verdict, plus "NOT RECORDED: call the director (line N: reason)" on stderr; exit 5 then.
    """
    import io
    import sys

    from ..entry import parse_entry
    from ..errors import (EXIT_ENTRY, EXIT_NOT_RECORDED, AdjudicatorError, JournalError,
                          LexiconError)
    from ..journal import Journal
    from ..verdict import Verdict, all_found
    from .judge import ACCEPTABLE, UNACCEPTABLE, _is_regular_file

    if source == "-":
        stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    else:
        try:
            stream = open(source, encoding="utf-8", errors="replace")
        except OSError as e:
            raise LexiconError(f"cannot read {source}: {e.strerror or e}") from e
    out, err = sys.stdout, sys.stderr
    interactive = source == "-" and not _is_regular_file(sys.stdin)
    group = 1 if interactive else BATCH_GROUP
    try:
        journal, open_error = Journal.open(journal_path), None
    except JournalError as e:
        journal, open_error = None, str(e)
    invalid = failed = 0
    lines: list[str] = []
    pending: list[tuple[int, Verdict]] = []

    def flush() -> None:
        nonlocal failed
        reason = open_error
        if pending and journal is not None:
            try:
                journal.record_many([(v, dict(mode="runner", **fields)) for _, v in pending])
            except JournalError as e:
                reason = str(e)
        out.writelines(lines)
        out.flush()
        if pending and reason is not None:
            failed += len(pending)
            for line_no, _ in pending:
                err.write(f"{NOT_RECORDED} (line {line_no}: {reason})\n")
            err.flush()
        lines.clear()
        pending.clear()

    try:
        for line_no, line in enumerate(stream, 1):
            try:
                words = parse_entry(line)
            except AdjudicatorError as e:
                invalid += 1
                lines.append(f"INVALID: {e}\n")
            else:
                acceptable = all_found(lex, words)
                pending.append((line_no, Verdict(words, acceptable, lex.identity)))
                lines.append(ACCEPTABLE if acceptable else UNACCEPTABLE)
            if len(lines) >= group:
                flush()
        flush()
    finally:
        if source == "-":
            stream.detach()  # leave the process's stdin open
        else:
            stream.close()
        if journal is not None:
            journal.close()
    if failed:
        return EXIT_NOT_RECORDED
    return EXIT_ENTRY if invalid else 0
