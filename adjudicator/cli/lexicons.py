"""`adjudicator compile` and `adjudicator info`: build a lexicon and say what it is."""

from __future__ import annotations

import os

import click

from ..known import LexiconIdentity, identify
from ..lexicon import compile_sources
from ..resolve import load_configured


@click.command("compile")
@click.argument("sources", nargs=-1, required=True)  # unreadable files: exit 4, from the core
@click.option("-o", "--output", "out", required=True, metavar="PATH", help="The compiled lexicon file to write.")
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
    report = compile_sources(list(sources), out, name=name, skip_invalid=skip_invalid)
    known = identify(report.fingerprint)
    for src in report.sources:
        parts = [f"{src.lines:,} lines", f"{len(src.words):,} words"]
        if src.header:
            parts.append(f"header skipped: {src.header!r}")
        if src.comments:
            parts.append(f"{src.comments:,} comment lines")
        if src.blank:
            parts.append(f"{src.blank:,} blank lines")
        click.echo(f"{src.name}: " + ", ".join(parts))
        if src.skipped:
            line_no, line = src.skipped[0]
            click.echo(f"  skipped {len(src.skipped):,} invalid lines "
                       f"(first: line {line_no}: {line[:40]!r})")
    ident = LexiconIdentity(report.name, report.fingerprint, report.word_count, known)
    click.echo(ident.describe())
    if known is None:
        click.echo("  (its fingerprint matches no official list)")
    click.echo(f"written: {out}")


@click.command("info")
@click.argument("lexicon", required=False)
def info_cmd(lexicon: str | None) -> None:
    """Say what a lexicon is: name, edition, words, fingerprint, whether it is official.

    LEXICON is a compiled file, a word list, or a name in the config's lexicon_dirs or
    $ADJUDICATOR_LEXICONS; without it, the embedded default. The fingerprint is recomputed from
    the words themselves.

    \b
    Example:
      adjudicator info csw19.lex
    """
    lex = load_configured(lexicon)
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
        skipped = f", {src['skipped']:,} invalid lines skipped" if src.get("skipped") else ""
        rows.append(("Source", f"{src['file']} (sha256 {src['sha256'][:12]}, "
                     f"{src['lines']:,} lines{extra}{skipped})"))
    rows.append(("File", f"{os.path.abspath(lex.path)} (format {lex.header['format']})"))
    width = max(len(k) for k, _ in rows) + 1
    for key, value in rows:
        click.echo(f"{key + ':':<{width}} {value}")
    if not content_ok:
        raise click.exceptions.Exit(3)


COMMANDS = [compile_cmd, info_cmd]
