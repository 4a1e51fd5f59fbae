"""The one loader: a name, a path or a pinned fingerprint to a checked lexicon, read once per file."""

from __future__ import annotations

import errno
import os
import threading
from collections.abc import Callable
from typing import NamedTuple

from adjudicator.files.destination import kind_of, why_unreadable
from adjudicator.errors import AdjudicatorError, FileAccessError, LexiconError
from adjudicator.lexicon.compiled import Lexicon, is_compiled
from adjudicator.lexicon.known import SHIPPED
from adjudicator.lexicon.names import check_named, official_id
from adjudicator.lexicon.store import cached_lexicon, lexicon_dirs

DEFAULT_NAMES = ("default", "enable")
# Another program's file is found by name too (lexicon/readers): Zyzzyva, Quackle, KWG.
_SOURCE_SUFFIXES = (".txt", ".lst", ".dic", ".dwg", ".db", ".dawg", ".kwg", "")
_remembered: dict[tuple, Lexicon] = {}  # (path, device, inode, size, mtime) -> its lexicon
_remembering = threading.Lock()
Fetch = Callable[[str], str]  # a pinned fingerprint -> the path of that list, fetched and shelved


def default_path() -> str:
    """The shipped, compiled ENABLE list (public domain; not a tournament word list)."""
    return os.path.join(SHIPPED, "enable.lex")


def load_lexicon(spec: str | None = None, *, dirs: list[str] | None = None, pin: str = "",
                 check_words: bool = True, fetch: Fetch | None = None) -> Lexicon:
    """The list SPEC names: None or 'default' the embedded default, else a file's path, else a
    name looked up in the lexicon folders (DIRS first, then $ADJUDICATOR_LEXICONS, the shelf).

    A file is read once per process (remembered while it is unchanged). CHECK_WORDS: its
    fingerprint is computed from its words now (else before its first verdict: verdict.py), so
    no header speaks for other words. PIN: the fingerprint the event pins; another list is
    refused (LexiconError, exit 3), never judged, unless FETCH (the station's hub) gets the
    pinned one onto the shelf."""
    try:
        path = locate(spec, dirs)
        lexicon = _remember(path, check_words)
        if pin and lexicon.fingerprint != pin:
            raise LexiconError(
                f"the list {spec!r} found here is {lexicon.name} {lexicon.fingerprint[:12]}, not "
                f"the one the event pins ({pin[:12]}): get the event's list (adjudicator join) "
                "or ask the director")
    except AdjudicatorError:
        if not (fetch and pin):
            raise
        lexicon = _fetched(spec, pin, fetch)
    if check_words:
        lexicon.check_words()
    return lexicon


def _fetched(spec: str | None, pin: str, fetch: Fetch) -> Lexicon:
    """The pinned list FETCH puts on the shelf (checked there by its fingerprint), loaded."""
    try:
        lexicon = _remember(fetch(pin))
    except AdjudicatorError as e:
        raise LexiconError(f"the list {spec} is not on this station's shelf and the hub could "
                           f"not send it ({e})") from None
    if lexicon.fingerprint != pin:
        raise LexiconError(f"the list fetched for {spec} is {lexicon.name} "
                           f"{lexicon.fingerprint[:12]}, not the one pinned ({pin[:12]})")
    return lexicon


def locate(spec: str | None, dirs: list[str] | None = None) -> str:
    """The file SPEC names (see load_lexicon); LexiconError (exit 3) when no list answers to it,
    FileAccessError (exit 4) when it is a folder, a pipe, a device."""
    if spec is None or spec.lower() in DEFAULT_NAMES and not os.path.exists(spec):
        return default_path()
    if os.path.isfile(spec):
        return spec
    if os.path.exists(spec):  # a folder, a named pipe, a device: exit 4, as any file unread
        raise FileAccessError(f"cannot read lexicon {spec}: it is "
                              f"{kind_of(os.stat(spec).st_mode) or 'not a file'}, not a regular file")
    _refuse_broken_link(spec)
    found = find_by_name(spec, dirs)
    if found is None:
        searched = ", ".join(lexicon_dirs(dirs))
        raise LexiconError(
            f"lexicon {spec!r} not found: it is not a file, and no lexicon of that name is in "
            f"the lexicon folders ({searched}); add it with 'adjudicator lexicon add FILE'"
        )
    return found


def _refuse_broken_link(spec: str) -> None:
    """A symbolic link at SPEC (or on its way) that leads nowhere, a loop or to nothing, is said
    to be one, never taken for a name to look up (FileAccessError, exit 4)."""
    try:
        os.stat(spec)
    except OSError as e:
        if e.errno == errno.ELOOP or os.path.islink(spec):
            raise FileAccessError(f"cannot read lexicon {spec}: {why_unreadable(e, spec)}") from e


def _remember(path: str, checksum_now: bool = True) -> Lexicon:
    try:
        st = os.stat(path)
    except OSError as e:
        raise FileAccessError(f"cannot read lexicon {path}: {e.strerror or e}") from e
    key = (os.path.realpath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    with _remembering:
        lexicon = _remembered.get(key)
    if lexicon is None:
        lexicon = _load_path(path, checksum_now)
        with _remembering:
            lexicon = _remembered.setdefault(key, lexicon)
    check_named(path, lexicon.identity)  # the name it is found by must not claim another list
    return lexicon


def _load_path(path: str, checksum_now: bool) -> Lexicon:
    """A compiled file, its checksum verified now or with its words (CHECKSUM_NOW); a source
    list through its compiled cache, checked now (an entry not built from it is made again)."""
    if is_compiled(path):
        return Lexicon.load(path, checksum_now=checksum_now)
    return cached_lexicon(path)


def find_by_name(name: str, dirs: list[str] | None = None) -> str | None:
    """A compiled NAME.lex, or a source list NAME.txt (any case), in the lexicon folders; a
    program's spelling of an official list (NWL23, nwl-23) finds that list shelved."""
    for wanted in dict.fromkeys(n.lower() for n in (name, official_id(name) or name)):
        for folder in lexicon_dirs(dirs):
            try:
                entries = sorted(os.listdir(folder))
            except OSError:
                continue
            by_lower = {e.lower(): e for e in entries}
            for candidate in [wanted + ".lex"] + [wanted + s for s in _SOURCE_SUFFIXES]:
                if candidate in by_lower and os.path.isfile(os.path.join(folder,
                                                                         by_lower[candidate])):
                    return os.path.join(folder, by_lower[candidate])
    return None


def available(dirs: list[str] | None = None) -> list[str]:
    """Every lexicon file in the lexicon folders (compiled or source), for the director's choice."""
    found = []
    for folder in lexicon_dirs(dirs):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for entry in names:
            path = os.path.join(folder, entry)
            if os.path.isfile(path) and entry.lower().endswith((".lex", ".txt")):
                found.append(path)
    return found


class ListChoice(NamedTuple):
    """One list a director may choose: the NAME written to the config (never a path, which
    fails on the next machine) and what it is (name, edition, fingerprint) for the label."""

    name: str
    label: str
    path: str


def choices(dirs: list[str] | None = None) -> list[ListChoice]:
    """Every list in the lexicon folders and on the shelf that a NAME finds (the first of a
    name, as find_by_name does), described by its identity: what director mode offers. A
    compiled list's identity is read from its header (cheap); a word list not yet compiled is
    named as a file; either is checked, words and all, when chosen."""
    found: list[ListChoice] = []
    seen: set[str] = set()
    for path in available(dirs):
        name = os.path.splitext(os.path.basename(path))[0]
        if name.lower() in seen or name.lower() in DEFAULT_NAMES or not name.strip():
            continue
        seen.add(name.lower())
        if os.path.realpath(find_by_name(name, dirs) or "") != os.path.realpath(path):
            continue  # another file answers to this name
        found.append(ListChoice(name, describe_choice(name, path), path))
    return found


def describe_choice(name: str, path: str) -> str:
    """'CSW21 · Collins Scrabble Words 2021 (2021) · 3f9c0e1a2b4d', or why it cannot be used."""
    if not is_compiled(path):
        return f"{name} · word list {os.path.basename(path)} (checked when saved)"
    try:
        ident = Lexicon.load(path).identity
    except LexiconError:
        return f"{name} · DAMAGED: refused when saved"
    known = ident.known
    what = (f"{known.title} ({known.edition})" if known else "UNRECOGNISED LIST")
    if known is not None and not known.tournament:
        what += ", not a tournament word list"
    return f"{name} · {what} · {ident.short_fingerprint}"


def name_of(spec: str, dirs: list[str] | None = None) -> str:
    """SPEC as a name when it is a path to a list a name finds (a config saved before issue 27
    held the shelf file's full path): the name; else SPEC unchanged."""
    if not spec or not os.path.isabs(spec):
        return spec
    name = os.path.splitext(os.path.basename(spec))[0]
    found = find_by_name(name, dirs)
    if found and os.path.realpath(found) == os.path.realpath(spec):
        return name
    return spec
