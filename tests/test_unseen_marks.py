"""Shown-marks that survive a full disk, and no temporary file left by a kill (issue 42 item 5)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from adjudicator.journal import anchor
from adjudicator.station.unseen import last_shown, mark_shown, prepare_marks


@pytest.fixture
def full_disk(tmp_path):
    """A small tmpfs of its own (root only), for a disk that fills: its path."""
    where = tmp_path / "small"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(where)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("a tmpfs of its own needs root (mount)")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(folder) -> None:
    fd = os.open(os.path.join(folder, "filler"), os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"x" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)


def test_a_verdict_shown_on_a_full_disk_is_marked_shown(full_disk):
    state = str(full_disk / "j.db.kiosk-state.json")
    prepare_marks(state)  # at start, while there is room
    mark_shown(state, 7)
    fill(full_disk)
    with pytest.raises(OSError):
        fd = os.open(full_disk / "more", os.O_WRONLY | os.O_CREAT)
        try:
            os.write(fd, b"x" * 8192)
        finally:
            os.close(fd)
    mark_shown(state, 8)  # a new copy of the state file could not be written now
    mark_shown(state, 9)
    assert last_shown(state) == 9


def test_a_mark_cut_half_way_leaves_the_one_before(tmp_path):
    state = str(tmp_path / "s.json")
    prepare_marks(state)
    mark_shown(state, 4)
    mark_shown(state, 5)
    with open(state + ".shown", "r+b") as f:  # slot of 5 torn
        f.seek(32 + 15)
        f.write(b"9999")
    assert last_shown(state) == 4


def test_a_head_file_left_half_written_by_a_killed_process_is_cleared(tmp_path):
    journal = str(tmp_path / "j.db")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = f"{journal}.head.{dead}.tmp"
    mine = f"{journal}.head.{os.getpid()}.tmp.keep"
    open(stale, "w").close()
    open(mine, "w").close()
    anchor.write_head(journal, anchor.Head("id", 1, "ab" * 32))
    assert not os.path.exists(stale) and os.path.exists(mine)
    assert anchor.read_head(journal).seq == 1
