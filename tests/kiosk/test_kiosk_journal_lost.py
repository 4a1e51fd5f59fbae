"""A station's journal lost or made unwritable while it runs, through a real pty (issue 42): said
on Ready and at the verdict, never a SIGBUS, never the supervisor's end, and recording resumes
by itself."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from pty_driver import PtyApp, child_env, kiosk_argv, kiosk_child, station_config
from pty_screen import Shown

from adjudicator.journal import Journal

# A pseudo-terminal, POSIX signals and kill -9 of a supervised child: Linux and macOS only (on
# Windows the kiosk is spawned, tests/kiosk/test_kiosk_spawn.py; Windows has no SIGKILL or pty)
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty and POSIX signals")

NOT_AVAILABLE = "JOURNAL NOT AVAILABLE"


def start(tmp_path):
    config, journal = station_config(tmp_path)
    app = PtyApp(kiosk_argv(config), child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache")))
    shown = Shown(app)
    shown.wait("station: 0")  # the journal open
    return app, shown, journal


def judge(app, shown, play: bytes, *expected: str) -> list[str]:
    mark = len(app.screen)
    app.write(play + b"\t")
    app.read_until(b"the play is", start=mark)
    lines = shown.wait(*expected)
    shown.wait("next challenge")
    app.write(b" ")
    shown.wait("CHALLENGER:")
    return lines


def test_a_folder_in_place_of_the_journal_is_said_and_a_restart_does_not_end_the_station(
        tmp_path):
    app, shown, journal = start(tmp_path)
    try:
        judge(app, shown, b"qi", "Challenge #1")
        os.rename(journal, journal + ".moved")
        os.mkdir(journal)
        shown.wait(NOT_AVAILABLE, "folder")  # said at Ready, before any TAB
        lines = judge(app, shown, b"za", "NOT RECORDED")
        assert not any("Challenge #" in line for line in lines)
        child = kiosk_child(app)
        if sys.platform == "win32":  # (skipped there: the spawned kiosk, test_kiosk_spawn.py)
            os.kill(child, signal.SIGTERM)  # TerminateProcess: as abrupt as SIGKILL
        else:
            os.kill(child, signal.SIGKILL)  # (issue 42: the supervisor exited, code 4)
        shown.wait(NOT_AVAILABLE, "folder")
        assert app.proc.poll() is None
        os.rmdir(journal)
        shown.wait("NEW JOURNAL FILE")  # the file that continues it, made at Ready
        judge(app, shown, b"cat", "Challenge #2")
        with Journal.open(journal) as j:
            assert [r.seq for r in j.rows()] == [2]
    finally:
        app.close()


def _chattr(flag: str, *paths) -> bool:
    try:
        return subprocess.run(["chattr", flag, *map(str, paths)],
                              capture_output=True).returncode == 0
    except FileNotFoundError:
        return False


def test_an_immutable_journal_is_no_crash_and_recording_resumes(tmp_path):
    probe = tmp_path / "probe"
    probe.write_text("")
    if not _chattr("+i", probe):
        pytest.skip("chattr +i needs root on a filesystem that has it")
    _chattr("-i", probe)
    app, shown, journal = start(tmp_path)
    files = [journal, journal + "-wal", journal + "-shm"]
    try:
        judge(app, shown, b"qi", "Challenge #1")
        child = kiosk_child(app)
        assert _chattr("+i", *files)
        try:
            lines = judge(app, shown, b"za", "NOT RECORDED")
            assert not any("Challenge #" in line for line in lines)
            shown.wait(NOT_AVAILABLE)
            assert kiosk_child(app) == child  # no SIGBUS, no restart
        finally:
            _chattr("-i", *files)
        shown.wait("station: ", absent=NOT_AVAILABLE)  # the alarm gone by itself
        judge(app, shown, b"cat", "Challenge #2")
        assert kiosk_child(app) == child
    finally:
        _chattr("-i", *files)
        app.close()
