"""`adjudicator compile`, `info`, `lexicon add|list`: build a lexicon, shelve it, say what it is."""

from __future__ import annotations

import os

import click

from adjudicator.terminal.given_lists import station_lists, unrecognised_warning
from adjudicator.lexicon.known import LexiconIdentity, identify


def warn_unrecognised(lex, config_path: str = "") -> None:
    """given_lists.unrecognised_warning's line on stderr, if any."""
    line = unrecognised_warning(lex, config_path)
    if line:
        click.echo(line, err=True, nl=False)


@click.command("compile")
@click.argument("sources", nargs=-1, required=True)  # unreadable files: exit 4, from the core
@click.option("-o", "--output", "out", required=True, metavar="PATH",
              help="The compiled lexicon file to write.")
@click.option("--name", help="Name shown on screens and slips (default: the official id, "
              "or the first file's name).")
@click.option("--skip-invalid", is_flag=True,
              help="Skip lines that are not words of 2-15 letters A-Z, and report them, "
              "instead of refusing the list.")
def compile_cmd(sources: tuple[str, ...], out: str, name: str | None, skip_invalid: bool) -> None:
    """Compile one or more word lists into a lexicon file (several sources are unioned).

    \b
    Examples:
      adjudicator compile CSW19.txt -o csw19.lex
      adjudicator compile OWL2.txt LONGLIST.txt -o twl06.lex   # NASPA III.A.1
    """
    from adjudicator.lexicon.compile import compile_sources  # its readers: only a command that compiles

    report = compile_sources(list(sources), out, name=name, skip_invalid=skip_invalid)
    _describe_compile(report)
    click.echo(f"written: {out}")


def _count(n: int, thing: str) -> str:
    """'1 blank line', '4,272 blank lines'."""
    return f"{n:,} {thing}{'' if n == 1 else 's'}"


def _describe_compile(report) -> None:
    known = identify(report.fingerprint)
    for src in report.sources:
        if src.format != "text":
            click.echo(f"{src.name}: {src.format}, {_count(len(src.words), 'word')}")
            for note in src.notes:
                click.echo(f"  {note}")
            continue
        parts = [_count(src.lines, "line"), _count(len(src.words), "word")]
        if src.header:
            parts.append(f"header skipped: {src.header!r}")
        if src.comments:
            parts.append(_count(src.comments, "comment line"))
        if src.blank:
            parts.append(_count(src.blank, "blank line"))
        click.echo(f"{src.name}: " + ", ".join(parts))
        if src.skipped:
            line_no, line = src.skipped[0]
            click.echo(f"  skipped {_count(len(src.skipped), 'invalid line')} "
                       f"(first: line {line_no}: {line[:40]!r})")
    ident = LexiconIdentity(report.name, report.fingerprint, report.word_count, known)
    click.echo(ident.describe())
    if known is None:
        click.echo("  (its fingerprint matches no official list)")


@click.command("info")
@click.argument("lexicon", required=False)
def info_cmd(lexicon: str | None) -> None:
    """Say what a lexicon is: name, edition, words, fingerprint, whether it is official.

    LEXICON is a compiled file, a word list, or a name in the config's lexicon_dirs,
    $ADJUDICATOR_LEXICONS or the lexicon shelf; without it, the lists the station on this
    machine judges with, by division at an event (the config's; $ADJUDICATOR_CONFIG, else
    the user config file; the embedded ENABLE when it names none). The fingerprint is
    recomputed from the words themselves.

    \b
    Example:
      adjudicator info csw19.lex
    """
    lists, config_path = station_lists(lexicon, check_words=False)
    damaged = False
    for served in lists.served if lists.by_division else lists.served[:1]:
        if lists.by_division:
            tables = f" (tables {served.division.tables_text})" if served.division.tables else ""
            click.echo(f"Division {served.division.name}{tables} · "
                       f"{served.division.challenge_rule.value}")
        damaged |= not _describe_lexicon(served.lexicon, config_path, indent=lists.by_division)
    if damaged:
        raise click.exceptions.Exit(3)


def _describe_lexicon(lex, config_path: str, indent: bool = False) -> bool:
    """`info`'s rows for one list; False when its words are not its fingerprint's."""
    ident = lex.identity
    content_ok = lex.verify_fingerprint()
    known = ident.known if content_ok else None
    rows = [
        ("Lexicon", ident.describe() if content_ok else f"{ident.name} — DAMAGED: "
         "its words do not match its fingerprint; do not use"),
        ("Name", ident.name),
        ("Edition", f"{known.edition} ({known.publisher})" if known else "unknown"),
        ("Words", f"{ident.word_count:,}"),
        ("Fingerprint", f"{ident.short_fingerprint} (SHA-256 {ident.fingerprint})"),
        ("Recognised", f"yes: {known.title}, official count {known.words:,}" if known
         else "NO: UNRECOGNISED LIST, matches no official list"),
    ]
    if known and not known.tournament:
        rows.append(("Note", known.note))
    for src in lex.header.get("sources", []):
        extra = f", header skipped: {src['header']!r}" if src.get("header") else ""
        skipped = (f", {_count(src['skipped'], 'invalid line')} skipped" if src.get("skipped")
                   else "")
        shape = src.get("format") or _count(src["lines"], "line")
        rows.append(("Source", f"{src['file']} (sha256 {src['sha256'][:12]}, "
                     f"{shape}{extra}{skipped})"))
    rows.append(("File", f"{os.path.abspath(lex.path)} (format {lex.header['format']})"))
    if config_path:
        rows.append(("Config", f"{config_path} (the station's list on this machine)"))
    width = max(len(k) for k, _ in rows) + 1
    pad = "  " if indent else ""
    for key, value in rows:
        click.echo(f"{pad}{key + ':':<{width}} {value}")
    if content_ok:
        warn_unrecognised(lex, config_path)
    return content_ok


@click.group("lexicon")
def lexicon_group() -> None:
    """The lexicon shelf: licensed lists compiled once into the user data folder, found by name.

    A name given to --lexicon (or the config's lexicon key) is looked for in the config's
    lexicon_dirs, then $ADJUDICATOR_LEXICONS, then the shelf ($ADJUDICATOR_SHELF, else the
    user data folder's lexicons/), by the command line, the kiosk and the phone server alike.
    `adjudicator compile` and `adjudicator info` work on any file, on or off the shelf.

    \b
    Examples:
      adjudicator lexicon scan
      adjudicator lexicon add CSW24.txt
      adjudicator lexicon list
      adjudicator judge --lexicon CSW24 qi za
      adjudicator lexicon remove CSW24
    """


@lexicon_group.command("add")
@click.argument("source")
@click.option("--name", help="Name to shelve it under and show on screens and slips (default: "
              "the official id when its words match a known list, else the file's name).")
@click.option("--replace", is_flag=True, help="Replace a different lexicon of the same name.")
@click.option("--skip-invalid", is_flag=True,
              help="Skip lines that are not words of 2-15 letters A-Z, and report them.")
def add_cmd(source: str, name: str | None, replace: bool, skip_invalid: bool) -> None:
    """Compile a word list (or copy a compiled lexicon) onto the lexicon shelf.

    SOURCE is a text word list, a compiled lexicon, or a list as another program keeps it:
    a Zyzzyva word graph (.dwg) or lexicon database (.db), a Quackle .dawg, a KWG (.kwg)
    -- known from its content, not its name ('adjudicator lexicon scan' finds them).

    Its fingerprint is checked against the known official lists: a list that matches none is
    added but flagged UNRECOGNISED; a file named like an official list (CSW19.txt) whose words
    are not that list is refused (exit 3).

    \b
    Examples:
      adjudicator lexicon add CSW24.txt
      adjudicator lexicon add ~/.collinszyzzyva/lexicons/CSW24.db
      adjudicator lexicon add club-words.txt --name CLUB
    """
    from adjudicator.lexicon.store import add

    added = add(source, name=name, replace=replace, skip_invalid=skip_invalid)
    if added.compiled is not None:
        _describe_compile(added.compiled)
    else:
        click.echo(added.identity.describe())
    if added.already:
        click.echo(f"already on the shelf: {added.path}")
    else:
        click.echo(f"{'replaced' if added.replaced else 'added'}: {added.path}")
    if added.identity.known is None:
        click.echo(f"WARNING: {added.identity.name} is an UNRECOGNISED LIST: every screen and slip "
                   "will say so. Check it is the list you meant.")
    click.echo(f"use it: adjudicator judge --lexicon {added.identity.name} WORDS..., "
               f'or lexicon = "{added.identity.name}" in the config')


@lexicon_group.command("list")
def list_cmd() -> None:
    """Show the lexicons on the shelf: name, edition, words, fingerprint, recognised.

    \b
    Example:
      adjudicator lexicon list
    """
    from adjudicator.lexicon.store import entries, shelf_dir

    found = entries()
    if not found:
        click.echo(f"The lexicon shelf ({shelf_dir()}) is empty: add a list with "
                   "'adjudicator lexicon add FILE'.")
        return
    rows = [("NAME", "EDITION", "WORDS", "FINGERPRINT", "RECOGNISED")]
    for entry in found:
        ident = entry.identity
        if ident is None:
            rows.append((os.path.basename(entry.path), "-", "-", "-",
                         f"{_refused_as(entry.problem)}, refused: {entry.problem}"))
            continue
        known = ident.known
        rows.append((ident.name, known.edition if known else "-", f"{ident.word_count:,}",
                     ident.short_fingerprint,
                     (f"yes: {known.title}" + ("" if known.tournament else
                                               ", not a tournament word list"))
                     if known else "NO: UNRECOGNISED LIST"))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    click.echo(f"Lexicon shelf: {shelf_dir()}")
    for row in rows:
        click.echo("  ".join([row[0].ljust(widths[0]), row[1].ljust(widths[1]),
                              row[2].rjust(widths[2]), row[3].ljust(widths[3]), row[4]]))


def _refused_as(problem: str) -> str:
    """ALTERED for a list whose words are not its header's, else DAMAGED."""
    return "ALTERED" if "its words are not the list" in problem else "DAMAGED"


@lexicon_group.command("scan")
@click.argument("folder", required=False)
def scan_cmd(folder: str | None) -> None:
    """Find the word lists Zyzzyva, Quackle and the KWG programs keep, and say which are official.

    Looks where those programs keep their lists on Linux, macOS and Windows (their data/words
    and data/lexica folders, and Zyzzyva's lexicons folder in your home), and in FOLDER, a few
    folders deep. Each list is read in full: its format, its words, and whether it is an
    official list. Add any of them with 'adjudicator lexicon add PATH'.

    \b
    Examples:
      adjudicator lexicon scan
      adjudicator lexicon scan /media/usb
    """
    from adjudicator.lexicon.scan import default_places, scan

    places = ([folder] if folder else []) + default_places()
    if folder and not os.path.isdir(folder):
        raise click.UsageError(f"{folder} is not a folder")
    found = 0
    for item in scan(places):
        found += 1
        if item.problem:
            click.echo(f"{item.path}\n  refused: {item.problem}")
            continue
        official = (f"official: {item.known.id} ({item.known.title})" if item.known
                    else "NOT an official list (unrecognised)")
        click.echo(f"{item.path}\n  {item.format}, {item.words:,} words, {official}")
    if not found:
        click.echo("No word lists found. Looked in:")
        for place in places:
            click.echo(f"  {place}")
        return
    click.echo("add one: adjudicator lexicon add PATH")


@lexicon_group.command("remove")
@click.argument("name")
def remove_cmd(name: str) -> None:
    """Take a lexicon off the shelf (its word list, wherever it is, is not touched).

    \b
    Example:
      adjudicator lexicon remove CLUB
    """
    from adjudicator.lexicon.store import remove

    click.echo(f"removed: {remove(name)}")


COMMANDS = [compile_cmd, info_cmd, lexicon_group]
