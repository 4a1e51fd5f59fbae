"""Compiling: word lists read, checked against the names they claim, written as one .lex."""

from __future__ import annotations

import os
from dataclasses import dataclass

import marisa_trie

from adjudicator.text.entry import describe_char
from adjudicator.errors import LexiconError
from adjudicator.text.visible import is_hidden, visible
from adjudicator.lexicon.compiled import FORMAT_VERSION, fingerprint_words, write_compiled
from adjudicator.lexicon.known import identify
from adjudicator.lexicon.names import check_claims, claim_of_name
from adjudicator.lexicon.verified import remember
from adjudicator.lexicon.wordlist import SourceReport, read_source


def plain_spaces(name: str) -> str:
    """NAME with every space of another kind (a no-break space, U+2007, U+3000, the blank
    braille pattern U+2800...) and every run of them read as one plain space, none at either
    end: the name is recorded as it reads, and checked as it reads."""
    return " ".join(name.replace("\u2800", " ").split())


@dataclass
class CompileReport:
    """What a compile read and wrote, for the CLI to tell the director."""

    path: str
    name: str
    word_count: int
    fingerprint: str
    sources: list[SourceReport]
    sha256: str = ""  # of the file written


def compile_sources(
    sources: list[str], out: str, *, name: str | None = None, skip_invalid: bool = False
) -> CompileReport:
    """Read and union one or more word lists (NASPA III.A.1: OWL2 plus the Long List), write OUT."""
    if not sources:
        raise LexiconError("compile needs at least one source word list")
    reports = [read_source(p, skip_invalid=skip_invalid) for p in sources]
    words: set[str] = set()
    for report in reports:
        words |= report.words
    fingerprint = fingerprint_words(words)
    known = identify(fingerprint)
    for report in reports:  # a header or a hash inside a file names the list it says it is
        if report.claims:
            own = fingerprint if len(reports) == 1 else fingerprint_words(report.words)
            check_claims(report.path, report.claims, identify(own), len(report.words), own,
                         "check the file (a damaged or altered copy is never used)")
    if name is None:
        stem = os.path.splitext(reports[0].name)[0]
        claim = claim_of_name(stem, f"its file name {reports[0].name}")
        name = known.id if known else stem.upper()
    else:
        hidden = next((c for c in name if is_hidden(c)), None)
        if hidden is not None or not plain_spaces(name):
            what = describe_char(hidden) if hidden else "nothing to read"
            raise LexiconError(f"--name {visible(name)!r} holds {what}: a list's name is "
                               "shown on every screen and slip; use letters, digits, '-', '_'")
        name = plain_spaces(name)  # "CLUB\u00a0LIST" is kept as it reads: "CLUB LIST"
        claim = claim_of_name(name, f"the name {visible(name)}")
    if claim is not None:  # NASPA III.A.1: OWL2.txt with the Long List is TWL06
        check_claims(reports[0].path if len(reports) == 1 else ", ".join(sources), [claim],
                     known, len(words), fingerprint,
                     "check the file, or give the list a name of its own (rename it, or --name)")
        if known is not None and claim.by_look:  # "СSW24" that is CSW24: said as it reads
            name = known.id
    header = {
        "format": FORMAT_VERSION,
        "name": name,
        "word_count": len(words),
        "fingerprint": fingerprint,
        "sources": [
            {
                "file": r.name,
                "sha256": r.sha256,
                "lines": r.lines,
                "header": r.header,
                "skipped": len(r.skipped),
                **({"format": r.format} if r.format != "text" else {}),
            }
            for r in reports
        ],
    }
    sha = write_compiled(out, marisa_trie.Trie(words).tobytes(), header)
    remember("words", sha, fingerprint)  # its trie was built from the words just fingerprinted
    return CompileReport(out, name, len(words), fingerprint, reports, sha)
