"""Overall deadlines (issue 26, item 10): a hub answering one byte every 1.5 s never reaches a read
timeout, yet `judge --config` ends soon after its verdict, `journal push` within its limit with
one line, and a live station's sender gives up each attempt and tries again. Against a real
trickling server on 127.0.0.1 (faulty_hub.TricklingHub); no wall-clock time is asserted: a
command that never ended would fail these by the subprocess's own timeout."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
from faulty_hub import TricklingHub
from hub_process import cli_env, wait_for

from adjudicator.journal import Journal, outbox
from adjudicator.link import forward, hubclient
from adjudicator.judging.verdict import adjudicate

NEVER = 60  # seconds a command is given here; it would trickle for ever without a deadline


@pytest.fixture
def trickling():
    hub = TricklingHub(pace=1.5)
    yield hub
    hub.close()


def run(*args):
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True,
                          text=True, env=cli_env(), timeout=NEVER)


def station_config(tmp_path, make_lexicon, url: str):
    lex = make_lexicon(["QI", "ZA"])
    config = tmp_path / "station.toml"
    config.write_text(f'station = "Desk 3"\nlexicon = "{lex.path}"\njournal = "desk.db"\n'
                      f'hub = "{url}"\nhub_token = "t"\n')
    return config


def waiting(journal) -> list[int]:
    """The row numbers still queued for the hub in JOURNAL's outbox."""
    with sqlite3.connect(journal) as conn:
        return [row["seq"] for row in outbox.pending(conn, 0, 100)]


def test_judge_with_a_config_ends_after_its_verdict_and_keeps_the_row(tmp_path, make_lexicon,
                                                                     trickling):
    config = station_config(tmp_path, make_lexicon, trickling.url)
    done = run("judge", "--config", str(config), "--table", "5", "qi", "za")
    assert (done.returncode, done.stdout) == (0, "ACCEPTABLE\n")
    # asked before it judges (issue 40): the hub's line first, then the tiny list named as no
    line, warning = done.stderr.splitlines()  # official list (the list that then judged)
    assert warning.startswith("adjudicator: warning: UNRECOGNISED WORD LIST")
    assert line.startswith(f"adjudicator: the hub {trickling.url} did not")
    assert "in time" in line and "journal push --config" in line
    assert trickling.requests == 1  # it was asked, and trickled: not asked again after it
    assert waiting(tmp_path / "desk.db") == [1]  # queued for the next push


def test_journal_push_ends_within_its_limit_with_one_line(tmp_path, make_lexicon, trickling,
                                                          monkeypatch):
    config = station_config(tmp_path, make_lexicon, trickling.url)
    with Journal.open(tmp_path / "desk.db") as journal:
        journal.record(adjudicate(make_lexicon(["QI"]), ("QI",)), station="Desk 3",
                       mode="station")
    done = run("journal", "push", "--config", str(config))
    assert done.returncode == 4 and done.stdout == ""
    assert "Traceback" not in done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"adjudicator: the hub {trickling.url} did not answer in time")
    assert "nothing is lost" in line
    assert waiting(tmp_path / "desk.db") == [1]


def test_push_gives_up_at_its_limit_not_per_request(tmp_path, make_lexicon, trickling):
    """Each request is allowed more than the whole push: the push's limit still ends it."""
    path = tmp_path / "desk.db"
    with Journal.open(path) as journal:
        journal.record(adjudicate(make_lexicon(["QI"]), ("QI",)), station="Desk 3",
                       mode="station")
    sender = forward.Forwarder(str(path), trickling.url, "t", timeout=600)
    try:
        with pytest.raises(hubclient.HubUnreachable, match="did not take the rows in time "
                                                        r"\(not within 2 s\)"):
            sender.push(limit=2)
    finally:
        sender.stop()
    assert waiting(path) == [1]


def test_a_live_stations_sender_ends_each_attempt_and_tries_again(tmp_path, make_lexicon,
                                                                   trickling):
    path = tmp_path / "desk.db"
    with Journal.open(path) as journal:
        journal.record(adjudicate(make_lexicon(["QI"]), ("QI",)), station="Desk 3",
                       mode="station")
    sender = forward.Forwarder(str(path), trickling.url, "t", timeout=1.0).start()
    try:
        wait_for(lambda: trickling.requests >= 3, timeout=NEVER)  # retried, never stuck
        assert sender.alive and "did not answer in time" in sender.problem
    finally:
        sender.stop()


@pytest.mark.parametrize("sent, head, says", [
    (b"", TricklingHub.HEAD, "did not answer in time"),  # a header for ever
    (b"", b"HTT", "did not answer in time"),  # the status line itself
    # an answer's body, a byte at a time
    (b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n", b"", "did not answer in time"),
    # a refusal whose reason trickles: refused, without the reason
    (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 100000\r\n\r\n", b"",
     r"refused: Bad Request \(HTTP 400\)"),
])
def test_one_request_ends_by_its_deadline_wherever_the_hub_trickles(sent, head, says):
    hub = TricklingHub(pace=0.2, head=head, sent=sent)
    try:
        with pytest.raises(hubclient.HubUnreachable, match=says):
            hubclient.post(hub.url, "/api/heartbeat", "t", {}, timeout=1.0)
    finally:
        hub.close()
    assert hub.requests == 1
