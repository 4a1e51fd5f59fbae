"""Where a command writes a file it is given by path: a symlink written through, never replaced;
a device, a named pipe, a socket or a folder refused (exit 4) instead of turned into a file."""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, BinaryIO

from adjudicator.errors import FileAccessError

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
          (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"))


def kind_of(mode: int) -> str:
    """What a file of this st_mode is, in words, when it is not a regular file; else ""."""
    return next((name for test, name in _KINDS if test(mode)), "" if stat.S_ISREG(mode)
                else "not a regular file")


def destination(path: str, what: str = "") -> str:
    """The file to write (and replace) for PATH: PATH itself, or, when PATH is a symlink, the
    file it points to (os.path.realpath), so the link stays a link. FileAccessError (exit 4),
    naming PATH and what it is, when that is not a regular file or its folder is not there:
    `cannot write lexicon /dev/full: it is a device`."""
    label = f"cannot write {what + ' ' if what else ''}{path}"
    target = os.path.realpath(path)
    shown = f" ({target})" if target != os.path.abspath(path) else ""
    try:
        kind = kind_of(os.stat(target).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        kind = ""  # not there yet (or its folder is not a folder: said below)
    except OSError as e:
        raise FileAccessError(f"{label}: {e.strerror or e}") from e
    if kind:
        raise FileAccessError(f"{label}: it is {kind}{shown}, not a file")
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise FileAccessError(f"{label}: {folder} is not a folder" if os.path.exists(folder)
                              else f"{label}: the folder {folder} is not there")
    return target


@contextmanager
def replacing(path: str, what: str = "", *, binary: bool = True, prefix: str = ".tmp-",
              mode: int | None = None) -> Iterator[IO]:
    """A temporary file beside PATH's target (see destination()), moved onto it with os.replace
    when the block ends without an error: PATH then holds the whole new content or its old one,
    never half. MODE: the new file's permissions (default: the old file's, else 0o666 less the
    umask, as open() would make it). On any error the temporary file is removed and the error
    passed on, an OSError as FileAccessError (exit 4) naming PATH."""
    target = destination(path, what)
    label = f"cannot write {what + ' ' if what else ''}{path}"
    if mode is None:
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=prefix)
    except OSError as e:
        raise FileAccessError(f"{label}: {e.strerror or e}") from e
    try:
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {
                "encoding": "utf-8", "newline": ""})) as f:
            yield f
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise FileAccessError(f"{label}: {e.strerror or e}") from e
        raise


def check_journal(path: str) -> None:
    """FileAccessError (exit 4) when PATH cannot hold a journal: it is a folder, a device, a
    pipe or a socket, or its folder is not there. Only the default journal (journal.db in the
    user data folder) has its folder made: a journal on a USB stick that is not mounted must
    not end up, silently, on the local disk (issue 21). Every command taking a journal path
    calls this before anything is judged (--journal, --config, serve, hub, kiosk)."""
    label = f"cannot open the journal {path}"
    full = os.path.abspath(path)
    try:
        kind = kind_of(os.stat(full).st_mode)
    except OSError:
        kind = ""
    if kind:
        raise FileAccessError(f"{label}: it is {kind}, not a journal file")
    folder = os.path.dirname(full)
    if os.path.isdir(folder):
        return
    if os.path.lexists(folder):
        raise FileAccessError(f"{label}: {folder} is not a folder")
    if full != os.path.abspath(user_data_journal()):
        raise FileAccessError(f"{label}: the folder {folder} is not there (a drive not "
                              "mounted?); nothing is made in its place")


def user_data_journal() -> str:
    """journal.db in the user data folder: the one journal whose folder is made when missing."""
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("adjudicator"), "journal.db")


def open_regular(path: str, what: str = "word list") -> BinaryIO:
    """PATH opened for reading when it is a regular file; a named pipe, a device, a socket or a
    folder is refused at once (FileAccessError, exit 4), never waited on: opening a pipe for
    reading would block until a writer came, for ever."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_BINARY", 0))
    except OSError as e:
        raise FileAccessError(f"cannot read {what} {path}: {why_unreadable(e, path)}") from e
    try:
        kind = kind_of(os.fstat(fd).st_mode)
        if kind:
            raise FileAccessError(f"cannot read {what} {path}: it is {kind}, not a regular file")
        if sys.platform != "win32":  # opened O_NONBLOCK there (a pipe never waited on)
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def why_unreadable(e: OSError, path: str = "") -> str:
    """What an OSError from opening PATH says, a loop of symbolic links called one, and a
    symbolic link to nothing."""
    if e.errno == errno.ELOOP:
        return "it is a loop of symbolic links (too many levels of symbolic links)"
    if e.errno == errno.ENOENT and path and os.path.islink(path):
        return f"it is a symbolic link to {os.readlink(path)}, which does not exist"
    return e.strerror or str(e)
