"""`journal backup`: a consistent copy of a live journal (SQLite's online backup API) and its head."""

from __future__ import annotations

import os
import sqlite3

from adjudicator.files.destination import destination
from adjudicator.errors import JournalError, JournalFileError
from adjudicator.journal import anchor, chain, db


def backup(path: str, dest: str, *, force: bool = False) -> chain.ChainReport:
    """Copy the journal at PATH (every committed row, -wal included) to DEST, with DEST.head.

    Safe while a station keeps recording: the copy is one consistent snapshot. The copy is
    written beside DEST and moved into place only once it verifies; returns its report.
    """
    if os.path.realpath(path) == os.path.realpath(dest):
        raise JournalError(f"{dest} is the journal itself; choose another destination")
    target = destination(dest)  # a symlink's target; a device, pipe or folder: exit 4
    if os.path.exists(target) and not force:
        raise JournalFileError(f"{dest} already exists (use --force to replace it)")
    src = db.connect_ro(path)
    tmp = target + ".copying"
    remove_journal_files(tmp)
    try:
        out = sqlite3.connect(tmp, isolation_level=None)
        try:
            src.backup(out)
            out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal
            report = chain.check_connection(out, dest)
            info = db.meta(out)
        finally:
            out.close()
    except sqlite3.Error as e:
        remove_journal_files(tmp)
        raise JournalError(db.explain(e, dest)) from e
    except BaseException:
        remove_journal_files(tmp)
        raise
    finally:
        src.close()
    if not report.intact:
        remove_journal_files(tmp)
        raise chain.ChainBroken(path, report.broken_row or 0, report.reason)
    try:
        remove_journal_files(target)
        os.replace(tmp, target)
        if report.rows:
            anchor.write_head(target, anchor.Head(info["journal_id"], report.rows,
                                                report.head_hash))
    except OSError as e:
        raise JournalFileError(f"cannot write {dest}: {e.strerror or e}") from e
    return report


def remove_journal_files(path: str, *, beside_only: bool = False) -> None:
    """Remove a journal at PATH and everything beside it that belongs to it (-wal, -shm,
    -journal, the head file), or with BESIDE_ONLY those alone (PATH is about to be replaced);
    what is not there is fine, what cannot go is a JournalFileError."""
    beside = (path + "-wal", path + "-shm", path + "-journal", anchor.head_path(path))
    for p in beside if beside_only else (path, *beside):
        try:
            os.remove(p)
        except (FileNotFoundError, NotADirectoryError):
            pass
        except OSError as e:
            raise JournalFileError(f"cannot replace {p}: {e.strerror or e}") from e
