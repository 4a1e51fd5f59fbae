"""A station's journal file lost or made unwritable under it (issue 42): never a number from a
file that is not the journal, never numbering from #1 again, never a SIGBUS, and recording
resumes by itself once the journal can be written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from adjudicator.config.station import load_config
from adjudicator.journal import Journal
from adjudicator.journal.anchor import read_head
from adjudicator.station.service import open_station


@pytest.fixture
def station(tmp_path):
    (tmp_path / "tiny.txt").write_text("QI\nZA\nCAT\n")
    path = tmp_path / "station.toml"
    path.write_text(f'station = "S"\nlexicon = "{tmp_path / "tiny.txt"}"\n'
                    f'journal = "{tmp_path / "j.db"}"\n')
    made = open_station(load_config(str(path)))
    yield made
    made.close()


def verify(path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run([sys.executable, "-m", "adjudicator", "journal", "verify", str(path)],
                          capture_output=True, text=True, env=env)


def test_a_journal_deleted_under_the_station_is_said_and_continued_never_restarted(station):
    path = station.config.journal
    assert [station.submit(w).seq for w in ("qi", "za")] == [1, 2]
    os.unlink(path)
    lost = station.submit("cat")
    assert lost.seq is None and "deleted" in lost.problem  # never a number from the lost file
    station.check_journal()
    assert station.journal is not None  # the file that continues it, made at Ready
    assert "challenges 1-2 are not in it" in station.journal_note
    assert station.submit("qi").seq == 3  # numbering goes on
    done = verify(path)
    assert done.returncode == 5 and "row 1 is missing" in done.stderr  # never 'intact'


def test_a_restart_after_the_journal_was_deleted_goes_on_from_its_head_file(station, tmp_path):
    station.submit("qi")
    station.submit("za")
    station.close()
    os.unlink(station.config.journal)
    again = open_station(station.config)
    try:
        assert again.submit("cat").seq == 3
        assert "challenges 1-2" in again.journal_note
    finally:
        again.close()


def test_a_folder_in_the_journal_s_place_is_never_written_and_recording_resumes(station):
    path = station.config.journal
    station.submit("qi")
    os.rename(path, path + ".moved")
    os.mkdir(path)
    assert "folder" in station.submit("za").problem
    assert station.submit("za").seq is None  # still not available
    os.rmdir(path)
    assert station.submit("cat").seq == 2  # continued from what the station knew


def test_another_journal_put_in_its_place_is_not_written_into(station, tmp_path):
    path = station.config.journal
    station.submit("qi")
    other = tmp_path / "other.db"
    with Journal.open(str(other)) as journal:
        assert journal.count() == 0
    os.replace(other, path)
    assert station.submit("za").seq is None
    outcome = station.submit("za")
    assert outcome.seq is None and "another journal" in outcome.problem
    with Journal.open(path) as journal:
        assert journal.count() == 0


def test_the_station_s_own_journal_put_back_is_used_again(station, tmp_path):
    path = station.config.journal
    station.submit("qi")
    shutil.copy(path, tmp_path / "copy.db")  # (checkpointed after every commit)
    os.unlink(path)
    os.replace(tmp_path / "copy.db", path)
    assert station.submit("za").seq is None  # the file changed under it: said once
    assert station.submit("za").seq == 2
    assert read_head(path).seq == 2


def _chattr(flag: str, *paths) -> bool:
    try:
        done = subprocess.run(["chattr", flag, *map(str, paths)], capture_output=True)
    except FileNotFoundError:
        return False
    return done.returncode == 0


IMMUTABLE = '''
import os, subprocess, sys
from adjudicator.config.station import load_config
from adjudicator.station.service import open_station
station = open_station(load_config(sys.argv[1]))
path = station.config.journal
files = [path, path + "-wal", path + "-shm"]
print(station.submit("qi").seq, flush=True)
subprocess.run(["chattr", "+i", *files], check=True)
try:
    first = station.submit("za")
    station.check_journal()
    print(first.seq, bool(station.journal_alarm), station.judged_count(), flush=True)
finally:
    subprocess.run(["chattr", "-i", *files], check=True)
station.check_journal()
print(repr(station.journal_alarm), station.submit("cat").seq, flush=True)
'''


def test_an_immutable_journal_is_no_sigbus_and_recording_resumes_by_itself(tmp_path):
    """`chattr +i` on the journal's files (its -shm memory-mapped): the child died with SIGBUS
    at the next TAB. Now the files are looked at before SQLite touches them."""
    probe = tmp_path / "probe"
    probe.write_text("")
    if not _chattr("+i", probe):
        pytest.skip("chattr +i needs root on a filesystem that has it")
    _chattr("-i", probe)
    (tmp_path / "tiny.txt").write_text("QI\nZA\nCAT\n")
    config = tmp_path / "station.toml"
    config.write_text(f'station = "S"\nlexicon = "{tmp_path / "tiny.txt"}"\n'
                      f'journal = "{tmp_path / "j.db"}"\n')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-c", IMMUTABLE, str(config)], capture_output=True,
                          text=True, env=env, timeout=120)
    for name in ("j.db", "j.db-wal", "j.db-shm"):
        _chattr("-i", tmp_path / name)
    assert done.returncode == 0, done.stderr  # -7 was SIGBUS
    assert done.stdout.split("\n")[:3] == ["1", "None True None", "'' 2"]
