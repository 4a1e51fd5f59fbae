"""Where lists live: the shelf (`lexicon add`), the lexicon folders a name is looked up in, and
the cache of word lists compiled on the fly (each entry tied to its source)."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, NamedTuple

import platformdirs

from adjudicator.files.destination import open_regular
from adjudicator.errors import FileAccessError, LexiconError
from adjudicator.lexicon import verified
from adjudicator.lexicon.compiled import FORMAT_VERSION, Lexicon, is_compiled
from adjudicator.lexicon.known import LexiconIdentity
from adjudicator.lexicon.names import check_named
from adjudicator.lexicon.verified import CACHE_ENV, cache_dir

if TYPE_CHECKING:
    from adjudicator.lexicon.compile import CompileReport

LEXICON_DIRS_ENV = "ADJUDICATOR_LEXICONS"
SHELF_ENV = "ADJUDICATOR_SHELF"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def shelf_dir() -> str:
    """$ADJUDICATOR_SHELF, else the lexicons/ folder in the user data folder."""
    path = os.environ.get(SHELF_ENV)
    if not path:
        path = os.path.join(platformdirs.user_data_dir("adjudicator"), "lexicons")
    return path


class ShelfEntry(NamedTuple):
    """One file on the shelf: its identity, or why it cannot be used."""

    path: str
    identity: LexiconIdentity | None
    problem: str = ""


class Added(NamedTuple):
    """What `lexicon add` did: the lexicon now on the shelf, and the compile's report if any."""

    path: str
    identity: LexiconIdentity
    compiled: CompileReport | None
    already: bool = False  # the very same list was already there under this name
    replaced: bool = False


def lexicon_dirs(extra: list[str] | None = None) -> list[str]:
    """Folders searched for lexicons by name: config folders first, then $ADJUDICATOR_LEXICONS,
    then the lexicon shelf (`adjudicator lexicon add`), so a shelved list needs no setting."""
    env = [d for d in os.environ.get(LEXICON_DIRS_ENV, "").split(os.pathsep) if d]
    return list(extra or []) + env + [shelf_dir()]


def cached_lexicon(source: str) -> Lexicon:
    """The source list SOURCE compiled once, and loaded from the compile cache after that.

    An entry is named by the SHA-256 of the source's bytes, and used only when it is the very
    file compiled from them: its header names that SHA-256 as its one source, and the mark left
    when it was compiled (verified.py, "built") names the SHA-256 of its bytes. Anything else
    (the source changed, the entry damaged, replaced by another list's compiled file, or by a
    file forged to look like it) is compiled again from the source, never used."""
    from hashlib import file_digest  # (at first use: it loads OpenSSL)

    from adjudicator.lexicon.readers import check_open  # only a word list not yet compiled: its readers' bounds

    try:
        with open_regular(source) as f:  # a pipe or a device refused, never waited on
            check_open(source, f, os.fstat(f.fileno()).st_size)  # 8 GB: refused, not hashed
            digest = file_digest(f, "sha256").hexdigest()
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
    if os.path.isfile(cached):
        try:
            lex = Lexicon.load(cached)
            if _built_from(lex, digest) and verified.recall("built", digest) == lex.sha256:
                return lex
        except LexiconError:
            pass  # damaged: compiled again below
    report = _compile([source], cached)
    lex = Lexicon.load(cached)
    if not (_built_from(lex, digest) and lex.sha256 == report.sha256):
        raise LexiconError(f"{source}: the word list changed while it was compiled (or its "
                           f"compiled copy in {folder} was replaced meanwhile); try again")
    verified.remember("built", digest, lex.sha256)
    return lex


def _built_from(lex: Lexicon, digest: str) -> bool:
    """True when LEX's header names one source, whose bytes have the SHA-256 DIGEST."""
    sources = lex.header.get("sources")
    return (isinstance(sources, list) and len(sources) == 1 and isinstance(sources[0], dict)
            and sources[0].get("sha256") == digest)


def _compile(sources: list[str], out: str, **options) -> CompileReport:
    """compile.compile_sources, imported only when a list is compiled: a station loading its
    compiled lists never imports the readers of other programs' formats (its cold start)."""
    from adjudicator.lexicon.compile import compile_sources

    return compile_sources(sources, out, **options)


def entries(folder: str | None = None) -> list[ShelfEntry]:
    """Every lexicon on the shelf (FOLDER, else shelf_dir()), checked as a station would use
    it: its checksum, its names, and its words (their fingerprint computed, or a verified mark
    for these very bytes); a damaged or altered one is listed with its problem."""
    folder = folder or shelf_dir()
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return []
    except OSError as e:
        raise FileAccessError(f"cannot read the lexicon shelf {folder}: {e.strerror or e}") from e
    found = []
    for name in names:
        path = os.path.join(folder, name)
        if name.startswith(".") or not name.lower().endswith(".lex") or not os.path.isfile(path):
            continue
        try:
            lexicon = Lexicon.load(path)
            check_named(path, lexicon.identity)
            lexicon.check_words()  # a header kept and a checksum recomputed vouch for nothing
            found.append(ShelfEntry(path, lexicon.identity))
        except LexiconError as e:
            found.append(ShelfEntry(path, None, str(e)))
    return found


def add(source: str, *, name: str | None = None, replace: bool = False,
        skip_invalid: bool = False, folder: str | None = None) -> Added:
    """Compile SOURCE (a word list, or copy a compiled lexicon) onto the shelf as NAME.lex.

    NAME defaults to the official id when the words match a known list (known.toml), else the
    file's name. A list named like an official one (CSW19.txt) whose words are not that list as
    published is refused: a station must never say CSW19 while judging other words. FOLDER: the
    shelf (default shelf_dir()).
    """
    if name is not None and not _NAME.fullmatch(name):
        raise LexiconError(f"{name!r} cannot name a lexicon: use letters, digits, '-', '_', '.'")
    folder = folder or shelf_dir()
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise FileAccessError(f"cannot create the lexicon shelf {folder}: {e.strerror or e} "
                              f"(set ${SHELF_ENV} to another folder)") from e
    tmp = os.path.join(folder, f".adding-{os.getpid()}.lex")
    try:
        lex, report = _stage(source, tmp, name, skip_invalid)
        final = lex.name  # the name in the file is the one screens and slips show
        if not _NAME.fullmatch(final):
            raise LexiconError(f"{final!r} cannot be a shelf name (use letters, digits, '-', '_', "
                               "'.'): add the word list with --name")
        # compile_sources and Lexicon.load have refused a list named like an official one that
        # is not it (file name, header, checksums, the name inside a compiled file)
        return _place(lex, report, tmp, folder, final, replace)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _stage(source: str, tmp: str, name: str | None, skip_invalid: bool
           ) -> tuple[Lexicon, CompileReport | None]:
    """The lexicon to add, written to TMP and loaded from there (so checked as it will be used)."""
    if is_compiled(source):
        named = Lexicon.load(source).name  # refused here if damaged, before anything is copied
        if name is None:  # CSW21.lex must be CSW21, whatever name is inside it
            check_named(source, Lexicon.load(source).identity)
        if name is not None and name != named:
            raise LexiconError(f"{source} is a compiled lexicon named {named}; to add it under "
                               "another name, add its word list with --name")
        try:
            import shutil  # only adding a compiled list copies one (a kiosk never does)

            shutil.copyfile(source, tmp)
        except OSError as e:
            raise FileAccessError(f"cannot copy {source} to the shelf: {e.strerror or e}") from e
        lex = Lexicon.load(tmp)
        check_named(tmp, lex.identity)  # the name inside it (its file here names nothing)
        if not lex.verify_fingerprint():  # a checksum is not a signature: recompute from words
            raise LexiconError(f"{source}: its words do not match its fingerprint; refused")
        return lex, None
    report = _compile([source], tmp, name=name, skip_invalid=skip_invalid)
    return Lexicon.load(tmp), report


def _place(lex: Lexicon, report: CompileReport | None, tmp: str, folder: str, final: str,
           replace: bool) -> Added:
    existing = [e for e in os.listdir(folder) if e.lower() == f"{final.lower()}.lex"]
    dest = os.path.join(folder, f"{final}.lex")
    if existing:
        old_path = os.path.join(folder, existing[0])
        try:
            old = Lexicon.load(old_path).identity
        except LexiconError:
            old = None  # a damaged file is replaced only when asked, like any other
        if old is not None and old.fingerprint == lex.fingerprint and not replace:
            return Added(old_path, old, report, already=True)
        if not replace:
            raise LexiconError(
                f"a different lexicon named {final} is already on the shelf ({old_path}); "
                "add with --replace to replace it, or choose another --name")
    try:
        for old_name in existing:
            os.unlink(os.path.join(folder, old_name))
        os.replace(tmp, dest)
    except OSError as e:
        raise FileAccessError(f"cannot write {dest}: {e.strerror or e}") from e
    return Added(dest, Lexicon.load(dest).identity, report, replaced=bool(existing))


def remove(name: str) -> str:
    """Take NAME.lex (any case) off the shelf; the path removed. A station configured with that
    name will then refuse to start, naming it, until the list is added again."""
    folder = shelf_dir()
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        names = []
    found = [e for e in names if e.lower() == f"{name.lower()}.lex"]
    if not _NAME.fullmatch(name) or not found:
        raise LexiconError(f"no lexicon named {name!r} on the shelf ({folder}); "
                           "see 'adjudicator lexicon list'")
    path = os.path.join(folder, found[0])
    try:
        os.unlink(path)
    except OSError as e:
        raise FileAccessError(f"cannot remove {path}: {e.strerror or e}") from e
    return path

