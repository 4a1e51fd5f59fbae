"""`adjudicator judge` as library calls (terminal.py, recording.py): no click, streams given."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from adjudicator.errors import EXIT_ENTRY, EXIT_NOT_RECORDED, EntryError
from adjudicator.journal import Journal
from adjudicator.terminal.judge import judge


def streams():
    return io.StringIO(), io.StringIO()


def test_the_library_modules_import_no_click():
    """The judge, its batch loops, the hub's one pass and join are callable without click."""
    code = ("import sys\nimport adjudicator.terminal.judge, adjudicator.terminal.recording, adjudicator.terminal.batch,"
            " adjudicator.station.joining, adjudicator.link.once\n"
            "print('click' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def test_words_are_judged_with_the_list_given(tiny):
    out, err = streams()
    assert judge(("QI", "ZA"), lexicon=tiny, out=out, err=err) == 0
    assert out.getvalue() == "ACCEPTABLE\n"
    assert judge(("QI", "ZZZ"), lexicon=tiny, out=out, err=err) == 1
    assert out.getvalue() == "ACCEPTABLE\nUNACCEPTABLE\n"


def test_a_recorded_challenge_is_in_the_journal_before_its_verdict_is_written(tiny, tmp_path):
    journal = str(tmp_path / "j.db")
    seen = []

    class Watching(io.StringIO):
        def write(self, text):
            with Journal.open(journal) as j:
                seen.append(len(list(j.rows())))
            return super().write(text)

    out, err = Watching(), io.StringIO()
    assert judge(("CAT",), lexicon=tiny, journal=journal, station="Desk", table="4",
                 out=out, err=err) == 0
    assert seen == [1] and out.getvalue() == "ACCEPTABLE\n"
    with Journal.open(journal) as j:
        (row,) = j.rows()
    assert (row.station, row.table) == ("Desk", "4")


def test_a_recheck_of_a_challenge_not_held_is_refused_before_anything_is_judged(tiny,
                                                                               tmp_path):
    journal = str(tmp_path / "j.db")
    out, err = streams()
    assert judge(("QI",), lexicon=tiny, journal=journal, out=out, err=err) == 0
    with pytest.raises(EntryError, match="--recheck-of 7: .*no challenge 7"):
        judge(("QI",), lexicon=tiny, journal=journal, recheck_of=7, out=out, err=err)
    assert judge(("QI",), lexicon=tiny, journal=journal, recheck_of=1, out=out, err=err) == 0
    with Journal.open(journal) as j:
        assert [r.recheck_of for r in j.rows()] == [None, 1]


def test_a_batch_is_recorded_in_group_commits_and_says_its_invalid_lines(tiny, tmp_path,
                                                                        monkeypatch):
    from adjudicator.terminal import recording

    monkeypatch.setattr(recording, "BATCH_GROUP", 3)
    source = tmp_path / "batch.txt"
    source.write_text("qi\nzzz\nq1\nza\ncat\n")
    journal = str(tmp_path / "j.db")
    commits = []
    original = Journal.record_many
    monkeypatch.setattr(Journal, "record_many", lambda self, items: commits.append(
        len(items := list(items))) or original(self, items))
    out, err = streams()
    code = judge(None, batch=str(source), lexicon=tiny, journal=journal, out=out, err=err)
    assert code == EXIT_ENTRY  # one line was not a play
    lines = out.getvalue().splitlines()
    assert lines[:2] == ["ACCEPTABLE", "UNACCEPTABLE"] and lines[2].startswith("INVALID")
    assert lines[3:] == ["ACCEPTABLE", "ACCEPTABLE"]
    assert commits == [2, 2]  # three lines a group, the invalid one recorded by none


def test_a_journal_that_cannot_record_still_gives_the_verdict(tiny, tmp_path, monkeypatch):
    def full(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Journal, "record_many", full)  # record is record_many of one
    out, err = streams()
    code = judge(("QI",), lexicon=tiny, journal=str(tmp_path / "j.db"), out=out, err=err)
    assert (code, out.getvalue()) == (EXIT_NOT_RECORDED, "ACCEPTABLE\n")
    warning, missed = err.getvalue().splitlines()
    assert warning.startswith("adjudicator: warning: UNRECOGNISED WORD LIST")  # issue 29
    assert missed.startswith("adjudicator: NOT RECORDED: call the director (OSError")


class _Link:
    """A once link that answers: what judge --config's pass did with it, in order."""

    problem = ""

    def __init__(self, done: list):
        self.done = done

    def ask(self, wait):
        self.done.append("ask")

    def push(self, limit):
        self.done.append("push")

    def close(self):
        pass

    def stop(self):
        self.done.append("stop")


def _joined_station(done: list):
    from types import SimpleNamespace

    config = SimpleNamespace(hub="https://hub:8443", hub_token="t", path="s.toml",
                             journal="j.db")
    following = SimpleNamespace(version=3, note="", note_until=0)
    return SimpleNamespace(config=config, hub_link=_Link(done), following=following)


def test_the_hub_pass_asks_first_tells_after_and_tells_nothing_when_the_verdicts_fail():
    """`judge --config` on a joined machine (link/once.py one_pass): its hub asked before the
    verdicts and told after; verdicts that raise (a refused table) are told nothing, and the
    link is stopped either way."""
    from adjudicator.link.once import one_pass

    done: list = []
    with one_pass(_joined_station(done), err=io.StringIO()):
        done.append("verdicts")
    assert done == ["ask", "verdicts", "push", "stop"]
    done.clear()
    with pytest.raises(EntryError), one_pass(_joined_station(done), err=io.StringIO()):
        raise EntryError("table", "give the table (--table T)")
    assert done == ["ask", "stop"]
    done.clear()
    with one_pass(_joined_station(done), ask=False, err=io.StringIO()):  # --lexicon: not asked
        done.append("verdicts")
    assert done == ["verdicts", "push", "stop"]
