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
@click.argument("path", required=False)
@click.option("--slips", metavar="FILE",
              help="Check against collected slips: each slip's line 'Journal check: NUMBER "
              "HASH', typed as printed (or just 'NUMBER HASH'), one a line.")
def verify_cmd(path: str | None, slips: str | None) -> None:
    """Check the journal's hash chain; name the first broken row. Exit 0 only when intact.

    A row edited, deleted, moved, inserted or forged breaks the chain; the message names its
    row number and the exit code is 5. Rows missing from the end (a copy made without its
    -wal) are found through the head file beside the journal, and a rewritten chain through
    the row hashes printed on collected slips (--slips). Nothing is written: a journal on
    read-only media can be checked. PATH defaults to $ADJUDICATOR_JOURNAL, else journal.db in
    the user data folder.

    \b
    Examples:
      adjudicator journal verify
      adjudicator journal verify /srv/event/station1.db --slips slips.txt
    """
    from adjudicator.journal import verify
    from adjudicator.journal.anchor import read_slips

    typed = read_slips(slips) if slips else None
    click.echo(verify(path, typed).raise_if_broken().describe())


@journal_group.command("backup")
@click.argument("dest")
@click.option("--journal", "path",
              help="The journal to copy (default: $ADJUDICATOR_JOURNAL, else journal.db).")
@click.option("--force", is_flag=True, help="Replace DEST if it exists.")
def backup_cmd(dest: str, path: str | None, force: bool) -> None:
    """Copy the journal, while stations keep recording, into one consistent file DEST.

    Copying the .db file alone can leave its newest rows behind in the -wal beside it; this
    copies every committed row, writes DEST.head, and checks the copy's chain.

    \b
    Examples:
      adjudicator journal backup /media/usb/station1-1400.db
      adjudicator journal backup --journal station1.db copy.db --force
    """
    from adjudicator.journal import default_journal_path
    from adjudicator.journal.backup import backup

    report = backup(path or default_journal_path(), dest, force=force)
    click.echo(report.describe())


@journal_group.command("export")
@click.argument("path", required=False)
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv",
              show_default=True, help="Output format.")
@click.option("--since", metavar="TIME|N", help="Only challenges at or after an ISO time "
              "(2026-11-22T14:00, local time unless it has an offset), or after challenge N.")
@click.option("-o", "--output", "out",
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
    from adjudicator.errors import FileAccessError, JournalError
    from adjudicator.journal import default_journal_path, export_verified, parse_since

    path = path or default_journal_path()
    try:
        since_value = parse_since(since)
    except JournalError as e:
        raise click.BadParameter(str(e), param_hint="--since") from None
    if out:
        try:
            report = _export_to_file(out, lambda f: export_verified(path, fmt, since_value, f)[1])
        except OSError as e:  # a file that cannot be written: exit 4, not a journal fault
            raise FileAccessError(f"cannot write {out}: {e.strerror or e}") from e
    else:
        import sys

        _, report = export_verified(path, fmt, since_value, sys.stdout)
        sys.stdout.flush()
    if not report.intact:
        click.echo(f"adjudicator: WARNING: {report.describe()}", err=True)
        raise click.exceptions.Exit(JournalError.exit_code)


def _export_to_file(out: str, write):
    """WRITE(f) into OUT whole or not at all: a failed export (a journal mistyped, another
    program's file) leaves an earlier OUT as it was and no empty file. A file is written beside
    OUT's target (a symlink stays a link) and moved into place (destination.replacing); a
    stream (/dev/stdout, a named pipe, `-o >(gzip > x.gz)`) is written as it is, never replaced;
    a folder, socket or block device is refused (exit 4)."""
    import os
    import stat

    from adjudicator.files.destination import replacing

    try:
        mode = os.stat(out).st_mode
    except OSError:
        mode = 0
    if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
        with open(out, "w", encoding="utf-8", newline="") as f:
            return write(f)
    with replacing(out, binary=False, prefix=".export-") as f:
        return write(f)


@journal_group.command("merge")
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", "out", required=True,
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
    from adjudicator.journal.merge import merge

    report = merge(list(inputs), out, force=force)
    for path, station, n in report.sources:
        click.echo(f"{path}: {station or '(empty)'}, {n} challenge{'s' if n != 1 else ''}")
    for note in report.notes:
        click.echo(f"  note: {note}")
    extra = f" ({report.duplicates} duplicates skipped)" if report.duplicates else ""
    click.echo(f"{out}: {report.rows} challenges merged{extra}")


@journal_group.command("push")
@click.option("--config", "config_path", metavar="PATH",
              help="The station's config (its hub, hub_token and journal).")
def push_cmd(config_path: str | None) -> None:
    """Send the director's hub every row it does not hold yet (the config's `hub`).

    For a one-shot `judge --config`, or a station whose link was down when it closed: the
    rows waited in its journal. Exit 4 when the hub cannot be reached (nothing is lost);
    it gives up after 30 seconds whatever the hub does (the rows it took are kept).

    \b
    Example:
      adjudicator journal push --config station.toml
    """
    from adjudicator.link.once import push_journal

    hub, report = push_journal(config_path)
    click.echo(f"{hub}: {report.sent} row{'s' if report.sent != 1 else ''} sent; the hub "
               f"holds {report.acked} of {report.head}"
               + (f" ({report.pending} still pending)" if report.pending else ""))


COMMANDS = [journal_group]
