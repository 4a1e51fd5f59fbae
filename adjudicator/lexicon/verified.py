"""Verified marks in the cache folder: bytes with this SHA-256 hold words with that fingerprint."""

from __future__ import annotations

import os
import re
import stat
import sys

CACHE_ENV = "ADJUDICATOR_CACHE"
_FOLDER = "verified-v1"  # one small file a mark, named by the SHA-256 it speaks for
_KINDS = ("words", "built")  # words: a .lex's bytes -> its words' fingerprint (checked);
# built: a source list's bytes -> the SHA-256 of the .lex compiled from it (the compile cache)
_HEX = re.compile(r"[0-9a-f]{64}")
_MAX_MARK = 512  # a mark is about 150 bytes: anything longer is no mark of ours


def cache_dir() -> str:
    """Where source lists compiled on the fly, and the verified marks, are kept."""
    found = os.environ.get(CACHE_ENV)
    if found:
        return found
    import platformdirs  # (the loader imports it anyway; kept here so this module stays light)

    return platformdirs.user_cache_dir("adjudicator")


def _path(kind: str, key: str) -> str:
    return os.path.join(cache_dir(), _FOLDER, f"{kind}-{key}")


def _text(kind: str, key: str, value: str) -> str:
    return f"adjudicator verified mark 1\n{kind}\n{key}\n{value}\n"


def recall(kind: str, key: str) -> str | None:
    """The value marked for KEY (a SHA-256 in hex), or None: no mark, or a mark that is not
    exactly one of ours for this very KEY (damaged, copied from another key's file, a link,
    a folder, another user's or writable by others): such a mark is ignored, never trusted."""
    if kind not in _KINDS or not _HEX.fullmatch(key):
        return None
    path = _path(kind, key)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not _trusted(st):
            return None
        data = os.read(fd, _MAX_MARK + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        lines = data.decode("ascii").split("\n")
    except UnicodeDecodeError:
        return None
    if len(data) > _MAX_MARK or len(lines) != 5 or not _HEX.fullmatch(lines[3]):
        return None
    return lines[3] if data.decode("ascii") == _text(kind, key, lines[3]) else None


def _trusted(st: os.stat_result) -> bool:
    """A regular file; on POSIX, this user's and writable by no one else."""
    if not stat.S_ISREG(st.st_mode):
        return False
    if sys.platform != "win32":
        return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return True


def remember(kind: str, key: str, value: str) -> None:
    """Mark KEY as holding VALUE (written whole, then renamed: a reader sees all or nothing).
    A cache folder that cannot be written costs only the check again next time: never an error."""
    if kind not in _KINDS or not (_HEX.fullmatch(key) and _HEX.fullmatch(value)):
        return
    path = _path(kind, key)
    folder = os.path.dirname(path)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
        try:
            os.write(fd, _text(kind, key, value).encode("ascii"))
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def forget(kind: str, key: str) -> None:
    """Take KEY's mark away (a mark found untrue: never again trusted)."""
    try:
        os.unlink(_path(kind, key))
    except OSError:
        pass
