"""Find the lexicon a user names: a compiled file, a source list (compiled once, cached), a name."""

from __future__ import annotations

import errno
import hashlib
import os
from dataclasses import dataclass

from .errors import FileAccessError, LexiconError
from .known import OFFICIAL_NAMES, SHIPPED
from .lexicon import FORMAT_VERSION, Lexicon, check_file_name, compile_sources, is_compiled

LEXICON_DIRS_ENV = "ADJUDICATOR_LEXICONS"
CACHE_ENV = "ADJUDICATOR_CACHE"
DEFAULT_NAMES = ("default", "enable")
# Another program's file is found by name too (adjudicator/readers): Zyzzyva, Quackle, KWG.
_SOURCE_SUFFIXES = (".txt", ".lst", ".dic", ".dwg", ".db", ".dawg", ".kwg", "")


def default_path() -> str:
    """The shipped, compiled ENABLE list (public domain; not a tournament word list)."""
    return os.path.join(SHIPPED, "enable.lex")


def lexicon_dirs(extra: list[str] | None = None) -> list[str]:
    """Folders searched for lexicons by name: config folders first, then $ADJUDICATOR_LEXICONS,
    then the lexicon shelf (`adjudicator lexicon add`), so a shelved list needs no setting.
    The CLI, the kiosk and the phone server all find names here."""
    from .shelf import shelf_dir  # only for a name: a kiosk on a file path paints without it

    env = [d for d in os.environ.get(LEXICON_DIRS_ENV, "").split(os.pathsep) if d]
    return list(extra or []) + env + [shelf_dir()]


def cache_dir() -> str:
    """Where source lists compiled on the fly are kept."""
    path = os.environ.get(CACHE_ENV)
    if not path:
        import platformdirs

        path = platformdirs.user_cache_dir("adjudicator")
    return path


def load_lexicon(spec: str | None = None, *, dirs: list[str] | None = None) -> Lexicon:
    """Load what --lexicon names; None or 'default' gives the embedded default."""
    if spec is None or spec.lower() in DEFAULT_NAMES and not os.path.exists(spec):
        return Lexicon.load(default_path())
    if os.path.isfile(spec):
        return _load_path(spec)
    if os.path.exists(spec):  # a folder, a named pipe, a device: exit 4, as any file unread
        from .destination import kind_of

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
    return _load_path(found)


def _refuse_broken_link(spec: str) -> None:
    """A symbolic link at SPEC (or on its way) that leads nowhere, a loop or to nothing, is said
    to be one, never taken for a name to look up (FileAccessError, exit 4)."""
    try:
        os.stat(spec)
    except OSError as e:
        if e.errno == errno.ELOOP or os.path.islink(spec):
            from .readers import why_unreadable

            raise FileAccessError(f"cannot read lexicon {spec}: {why_unreadable(e, spec)}") from e


def load_configured(spec: str | None = None) -> Lexicon:
    """load_lexicon for the command line: a name is also looked up in the configuration file's
    lexicon_dirs, as the kiosk does. The configuration is read only when SPEC is such a name."""
    dirs = None
    if spec and spec.lower() not in DEFAULT_NAMES and not os.path.exists(spec):
        from .config import load_config

        dirs = list(load_config().lexicon_dirs)  # ConfigError (exit 6) names the bad key
    return load_lexicon(spec, dirs=dirs)


def find_by_name(name: str, dirs: list[str] | None = None) -> str | None:
    """A compiled NAME.lex, or a source list NAME.txt (any case), in the lexicon folders."""
    wanted = name.lower()
    for folder in lexicon_dirs(dirs):
        try:
            entries = sorted(os.listdir(folder))
        except OSError:
            continue
        by_lower = {e.lower(): e for e in entries}
        for candidate in [wanted + ".lex"] + [wanted + s for s in _SOURCE_SUFFIXES]:
            if candidate in by_lower and os.path.isfile(os.path.join(folder, by_lower[candidate])):
                return os.path.join(folder, by_lower[candidate])
    official = OFFICIAL_NAMES.get(name.upper())  # NWL23, as Woogles says it: the NWL2023 shelved
    if official is not None and len(official[1]) == 1 and official[1][0] != name.upper():
        return find_by_name(official[1][0], dirs)
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


def _load_path(path: str) -> Lexicon:
    if is_compiled(path):
        lex = Lexicon.load(path)
    else:
        cached = compiled_cache_for(path)
        try:
            lex = Lexicon.load(cached)
        except LexiconError:  # a damaged cache entry is rebuilt from the source, never used
            compile_sources([path], cached)
            lex = Lexicon.load(cached)
    check_file_name(path, lex)
    return lex



def compiled_cache_for(source: str) -> str:
    """Compile a source list once; later uses load the cached file (keyed by the source's bytes)."""
    from .readers import check_open, open_regular  # only a word list not yet compiled

    try:
        with open_regular(source) as f:  # a pipe or a device refused, never waited on
            check_open(source, f, os.fstat(f.fileno()).st_size)  # 8 GB: refused, not hashed
            digest = hashlib.file_digest(f, "sha256").hexdigest()
    except OSError as e:
        raise FileAccessError(f"cannot read word list {source}: {e.strerror or e}") from e
    folder = cache_dir()
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise FileAccessError(f"cannot create the lexicon cache folder {folder}: "
                              f"{e.strerror or e} (set ${CACHE_ENV} to another folder)") from e
    stem = os.path.splitext(os.path.basename(source))[0]
    cached = os.path.join(folder, f"{stem}-{digest[:16]}-v{FORMAT_VERSION}.lex")
    if not os.path.exists(cached):
        compile_sources([source], cached)
    return cached


@dataclass(frozen=True)
class ListChoice:
    """One list a director may choose: the NAME written to the config (never a path, which
    fails on the next machine) and what it is (name, edition, fingerprint) for the label."""

    name: str
    label: str
    path: str


def choices(dirs: list[str] | None = None) -> list[ListChoice]:
    """Every list in the lexicon folders and on the shelf that a NAME finds (the first of a
    name, as resolve.find_by_name does), described by its identity (issue 27): what director
    mode offers. A compiled list's identity is read from its header (cheap); a word list not
    yet compiled is named as a file, checked when chosen."""
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
