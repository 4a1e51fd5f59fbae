"""Issue 40 item 1: a verdict comes only from verified bytes. A compiled list is read into memory
once, its checksum verified over those bytes and its trie built from them: the file overwritten
in place (same inode), truncated or replaced under a running station changes no verdict and
never kills the process (it was memory-mapped: a shorter file gave SIGBUS)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from adjudicator.config.station import Config
from adjudicator.errors import LexiconError
from adjudicator.journal import Journal
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.library import load_lexicon
from adjudicator.station.service import open_station
from adjudicator.judging.verdict import adjudicate

WORDS = ["QI", "ZA", "CAT", "XU"]
OTHER = ["ZA", "CAT", "XU", "ZZZZZQ"]  # QI out, a non-word in


def _compile(tmp_path, words, out, name="CLUB"):
    src = tmp_path / f"src-{len(os.listdir(tmp_path))}.txt"
    src.write_text("\n".join(words) + "\n")
    compile_sources([str(src)], str(out), name=name)
    return out.read_bytes()


def _overwrite_in_place(path, data: bytes) -> None:
    """As `cp other.lex CLUB.lex` does: the same inode, its bytes rewritten."""
    inode = os.stat(path).st_ino
    with open(path, "r+b") as f:
        f.write(data)
        f.truncate(len(data))
    assert os.stat(path).st_ino == inode


@pytest.fixture
def club(tmp_path):
    """(CLUB.lex, the bytes of another list under the same name)."""
    lists = tmp_path / "lists"
    lists.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    path = lists / "CLUB.lex"
    _compile(work, WORDS, path)
    other = _compile(work, OTHER, work / "other.lex")
    return path, other


@pytest.mark.parametrize("check_words", [True, False], ids=["checked", "kiosk-deferred"])
def test_the_loaded_list_ignores_its_file_rewritten_or_truncated(club, check_words):
    path, other = club
    lex = load_lexicon(str(path), check_words=check_words)
    _overwrite_in_place(path, other)
    if not check_words:  # the kiosk checks after its first paint: the bytes read at open
        lex.check_words()
    assert adjudicate(lex, ("QI",)).acceptable and not adjudicate(lex, ("ZZZZZQ",)).acceptable
    assert lex.words_match
    with open(path, "r+b") as f:
        f.truncate(20)  # a mapped file this short killed the process at its next look-up
    assert adjudicate(lex, ("QI", "ZA")).acceptable and not adjudicate(lex, ("XI",)).acceptable
    assert sorted(lex) == sorted(WORDS)


def test_the_deferred_checksum_is_over_the_bytes_read_not_the_file_now(club):
    """A kiosk's list is opened before its first paint and its checksum verified after: a file
    damaged meanwhile is not what is checked, and a file damaged before the open is refused."""
    path, _ = club
    lex = load_lexicon(str(path), check_words=False)
    with open(path, "r+b") as f:
        f.seek(30)
        f.write(b"\x00" * 40)
    lex.check_words()  # the bytes in memory are intact
    with pytest.raises(LexiconError, match="checksum mismatch|not a usable lexicon"):
        load_lexicon(str(path), check_words=False).check_words()  # read after the damage


def test_the_station_service_keeps_its_list(club, tmp_path):
    """open_station, as the kiosk and the phone server use it (the same loader): the list
    rewritten under the running station changes neither verdict nor the recorded identity."""
    path, other = club
    config = Config(event="Test", station="Desk 1", mode="runner", lexicon=str(path),
                    journal=str(tmp_path / "j.db"))
    for check_words in (True, False):
        station = open_station(config, check_words=check_words)
        try:
            first = station.submit("qi za")
            _overwrite_in_place(path, other)
            if not check_words:
                station.lists.check_words()
            second = station.submit("qi za")
            with open(path, "r+b") as f:
                f.truncate(100)
            third = station.submit("qi za")
            assert [o.verdict.acceptable for o in (first, second, third)] == [True] * 3
            assert {o.verdict.lexicon.fingerprint for o in (first, second, third)} == {
                first.verdict.lexicon.fingerprint}
        finally:
            station.close()
        _compile(tmp_path / "lists", WORDS, path)  # a fresh file for the next round


def test_judge_batch_whole_process_keeps_its_verdicts(club, tmp_path):
    """`judge --lexicon CLUB.lex --batch - --journal j.db` running; the file rewritten in place
    with another list, then cut short: every verdict is the first list's, every row recorded
    under its fingerprint, and the process ends normally (no SIGBUS)."""
    path, other = club
    journal = tmp_path / "j.db"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
        + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    for extra in ([], ["--journal", str(journal)]):
        proc = subprocess.Popen(
            [sys.executable, "-m", "adjudicator", "judge", "--lexicon", str(path), "--batch",
             "-", *extra], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env=env)
        try:
            answers = []

            def ask(line: str, proc=proc, answers=answers) -> None:
                proc.stdin.write(line + "\n")
                proc.stdin.flush()
                answers.append(proc.stdout.readline().strip())

            ask("qi za")
            _overwrite_in_place(path, other)
            ask("qi za")
            ask("zzzzzq")
            with open(path, "r+b") as f:
                f.truncate(16)
            ask("qi cat")
            ask("xi")
            proc.stdin.close()
            code = proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert answers == ["ACCEPTABLE", "ACCEPTABLE", "UNACCEPTABLE", "ACCEPTABLE",
                           "UNACCEPTABLE"], (answers, proc.stderr.read())
        assert code == 0, proc.stderr.read()
        assert "Traceback" not in proc.stderr.read()
        _compile(tmp_path / "work", WORDS, path)  # the list as it was, for the journal's run
    with Journal.open(str(journal)) as j:
        rows = list(j.rows())
    assert len(rows) == 5 and {r.fingerprint for r in rows} == {
        load_lexicon(str(path)).fingerprint}
