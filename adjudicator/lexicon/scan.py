"""Find the word lists Zyzzyva, Quackle and the KWG programs keep, where they install them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from adjudicator.errors import LexiconError
from adjudicator.lexicon.compiled import fingerprint_words
from adjudicator.lexicon.known import KnownLexicon, identify
from adjudicator.lexicon.names import claim_of_name, refusal
from adjudicator.lexicon.readers.zyzzyva_db import NotALexiconDatabase
from adjudicator.lexicon.wordlist import read_source

MAX_DEPTH = 3  # data/words/British/CSW19.dwg is two folders below data/: enough, never the disk
MAX_ENTRIES = 2000  # folder entries looked at in one place
MAX_LISTS = 100  # lists read in one scan
_LIST_SUFFIXES = (".dwg", ".db", ".dawg", ".kwg", ".txt")
_NOT_LISTS = ("-r.dwg", "-checksums.txt", "-playability.txt", "-definitions.txt", "readme.txt",
              "copyrights.txt", "license.txt", "changes.txt")


@dataclass
class Found:
    """One list found: where, in what format, how many words, which official list (or why not)."""

    path: str
    format: str = ""
    words: int = 0
    known: KnownLexicon | None = None
    problem: str = ""


def default_places() -> list[str]:
    """Where Zyzzyva, Quackle, macondo and MAGPIE keep lists on Linux, macOS and Windows: the
    program's data folders (data/words, data/lexica) and Zyzzyva's per-user lexicon databases."""
    home = os.path.expanduser("~")
    places = [
        # Zyzzyva (Collins Zyzzyva and NASPA Zyzzyva): built-in graphs and per-user databases
        os.path.join(home, ".collinszyzzyva", "lexicons"),
        os.path.join(home, ".zyzzyva", "lexicons"),
        os.path.join(home, "Zyzzyva", "lexicons"),
        os.path.join(home, "Zyzzyva"),
        "/usr/share/zyzzyva/data/words", "/usr/local/share/zyzzyva/data/words",
        "/opt/zyzzyva/data/words", "/opt/collins-zyzzyva/data/words",
        "/usr/share/collins-zyzzyva/data/words", "/usr/local/zyzzyva/data/words",
        "/Applications/Collins Zyzzyva.app/Contents/MacOS/data/words",
        "/Applications/Zyzzyva.app/Contents/MacOS/data/words",
        # Quackle
        "/usr/share/quackle/data/lexica", "/usr/local/share/quackle/data/lexica",
        "/opt/quackle/data/lexica", os.path.join(home, "quackle", "data", "lexica"),
        "/Applications/Quackle.app/Contents/MacOS/data/lexica",
        "/Applications/Quackle.app/Contents/Resources/data/lexica",
        # Quackle's per-user lexica (settings.cpp: QStandardPaths::AppDataLocation, organisation
        # Quackle.org, application Quackle): Linux, macOS; Windows below
        os.path.join(os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share"),
                     "Quackle.org", "Quackle", "lexica"),
        os.path.join(home, ".local", "share", "Quackle.org", "Quackle", "lexica"),
        os.path.join(home, "Library", "Application Support", "Quackle.org", "Quackle", "lexica"),
        # macondo and MAGPIE (KWG files)
        os.path.join(home, "macondo", "data", "lexica", "gaddag"),
        os.path.join(home, "MAGPIE", "data", "lexica"),
        os.path.join(home, "magpie", "data", "lexica"),
    ]
    profile = os.environ.get("USERPROFILE")
    if profile:
        places += [os.path.join(profile, "Zyzzyva"),
                   os.path.join(profile, ".collinszyzzyva", "lexicons")]
    for var in ("APPDATA", "LOCALAPPDATA"):  # Quackle's per-user lexica on Windows
        root = os.environ.get(var)
        if root:
            places.append(os.path.join(root, "Quackle.org", "Quackle", "lexica"))
    for var in ("ProgramFiles", "ProgramFiles(x86)", "ProgramW6432"):
        root = os.environ.get(var)
        if root:
            places += [os.path.join(root, "Collins Zyzzyva", "data", "words"),
                       os.path.join(root, "Zyzzyva", "data", "words"),
                       os.path.join(root, "Quackle", "data", "lexica")]
    return list(dict.fromkeys(places))


def candidates(folder: str) -> Iterator[str]:
    """Files in FOLDER (at most MAX_DEPTH folders down) named like a word list, in name order."""
    seen = 0
    stack = [(folder, 0)]
    while stack:
        current, depth = stack.pop()
        try:
            with os.scandir(current) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        below = []
        for entry in entries:
            seen += 1
            if seen > MAX_ENTRIES:
                return
            name = entry.name.lower()
            try:
                if entry.is_dir(follow_symlinks=False):
                    if depth < MAX_DEPTH and not name.startswith("."):
                        below.append((entry.path, depth + 1))
                elif entry.is_file() and name.endswith(_LIST_SUFFIXES) and not name.endswith(
                        _NOT_LISTS):
                    yield entry.path
            except OSError:
                continue
        stack.extend(reversed(below))


def scan(folders: list[str]) -> Iterator[Found]:
    """Every list in FOLDERS, read in full and checked (a refused one is given with why)."""
    done: set[str] = set()
    for folder in folders:
        for path in candidates(folder):
            real = os.path.realpath(path)
            if real in done:
                continue
            done.add(real)
            if len(done) > MAX_LISTS:
                return
            try:
                report = read_source(path)
            except NotALexiconDatabase:  # Zyzzyva's quiz databases, a journal: not lists
                continue
            except LexiconError as e:
                yield Found(path, problem=str(e))
                continue
            fmt = report.format if report.format != "text" else "text word list"
            fingerprint = fingerprint_words(report.words)
            known = identify(fingerprint)
            name = os.path.basename(path)
            claims = [*report.claims, claim_of_name(os.path.splitext(name)[0],
                                                    f"its file name {name}")]
            why = next(filter(None, (refusal(c, known, len(report.words), fingerprint)
                                     for c in claims if c is not None)), "")
            if why:  # `lexicon add` would refuse it: never offered under the name it claims
                yield Found(path, fmt, len(report.words), None, f"{path}: {why}; refused")
                continue
            yield Found(path, fmt, len(report.words), known)
