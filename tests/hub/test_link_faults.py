"""Every failure of the link is a retry for the station's sender, and one line for the command line
(issue 20, item 2): a reply cut short, a bad status line, garbage, a JSON list, a bad ack, a 500,
a refusal, a closed connection, from a real (faulty) server on 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest
from faulty_hub import REPLIES, FaultyHub
from hub_process import cli_env, wait_for

from adjudicator.journal import Journal
from adjudicator.link import forward
from adjudicator.judging.verdict import adjudicate

MODES = sorted(REPLIES)


def run(*args):
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True,
                          text=True, env=cli_env(), timeout=60)


def station_config(tmp_path, make_lexicon, url: str):
    lex = make_lexicon(["QI", "ZA"])
    config = tmp_path / "station.toml"
    config.write_text(f'station = "Desk 3"\nlexicon = "{lex.path}"\njournal = "desk.db"\n'
                      f'hub = "{url}"\nhub_token = "t"\n')
    return config


@pytest.fixture
def thread_deaths(monkeypatch):
    """Every exception that ended a thread, as threading.excepthook saw it."""
    died = []
    monkeypatch.setattr(threading, "excepthook", lambda args: died.append(args))
    return died


@pytest.mark.parametrize("mode", MODES)
def test_judge_with_a_config_keeps_the_verdicts_code_and_says_one_line(tmp_path, make_lexicon,
                                                                       mode):
    hub = FaultyHub(mode)
    try:
        config = station_config(tmp_path, make_lexicon, hub.url)
        done = run("judge", "--config", str(config), "qi", "za")
        refused = run("judge", "--config", str(config), "qi", "qq")
    finally:
        hub.close()
    assert (done.returncode, done.stdout) == (0, "ACCEPTABLE\n")
    assert (refused.returncode, refused.stdout) == (1, "UNACCEPTABLE\n")
    for result in (done, refused):
        assert "Traceback" not in result.stderr
        [line] = [ln for ln in result.stderr.splitlines() if "UNRECOGNISED WORD LIST" not in ln]
        assert line.startswith("adjudicator: the hub ") and "journal push --config" in line
        assert "\x1b" not in line  # a hub's words are never a terminal control
    assert hub.requests >= 1 or mode == "closed"


@pytest.mark.parametrize("mode", MODES)
def test_journal_push_exits_4_with_one_line(tmp_path, make_lexicon, mode):
    hub = FaultyHub(mode)
    try:
        config = station_config(tmp_path, make_lexicon, hub.url)
        with Journal.open(tmp_path / "desk.db") as journal:
            journal.record(adjudicate(make_lexicon(["QI"]), ("QI",)), station="Desk 3",
                           mode="station")
        done = run("journal", "push", "--config", str(config))
    finally:
        hub.close()
    assert done.returncode == 4 and done.stdout == ""
    assert "Traceback" not in done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("adjudicator: the hub ") and "nothing is lost" in line


@pytest.mark.parametrize("mode", MODES)
def test_the_sender_thread_outlives_every_broken_reply(tmp_path, make_lexicon, mode,
                                                       thread_deaths):
    hub = FaultyHub(mode)
    path = tmp_path / "s.db"
    with Journal.open(path) as journal:
        journal.forward()
        journal.record(adjudicate(make_lexicon(["QI"]), ("QI",)), station="S", mode="station")
    sender = forward.Forwarder(str(path), hub.url, "t", poll=0.05, timeout=2.0).start()
    try:
        wait_for(lambda: hub.requests >= 3 or (mode == "closed" and sender.problem))
        assert sender.alive and sender.problem.startswith("the hub ")
        assert sender.restarts == 0 and sender.acked is None
    finally:
        sender.stop()
        hub.close()
    assert thread_deaths == []


def test_a_sender_whose_loop_fails_is_started_again_and_says_so(tmp_path, make_lexicon,
                                                                start_hub, thread_deaths,
                                                                monkeypatch):
    """Whatever ends the loop (here a failure inside the sender itself), the thread starts it
    again, counts it, and the next heartbeat puts it on the director's page."""
    hub = start_hub()
    path = tmp_path / "s.db"
    with Journal.open(path) as journal:
        journal.forward()
    failures = iter([RuntimeError("a bug in the sender")])
    real = forward.Forwarder._loop

    def failing_once(self):
        for e in failures:
            raise e
        return real(self)
    monkeypatch.setattr(forward.Forwarder, "_loop", failing_once)
    sender = forward.Forwarder(str(path), hub.url, hub.hub.station_token, poll=0.05,
                               heartbeat=0.2).start()
    try:
        snap = wait_for(lambda: (s := hub.call(hub.hub.board.snapshot))["stations"] and s)
        assert sender.alive and sender.restarts == 1
        [station] = snap["stations"]
        assert "sender: restarted 1 time after: RuntimeError: a bug in the sender" in \
            station["alarms"]
    finally:
        sender.stop()
    assert thread_deaths == []


def test_a_sender_thread_that_ended_is_started_again(tmp_path, make_lexicon, monkeypatch):
    path = tmp_path / "s.db"
    with Journal.open(path) as journal:
        journal.forward()
    sender = forward.Forwarder(str(path), "http://127.0.0.1:9", "t")
    monkeypatch.setattr(sender, "_run", lambda: None)  # a thread that ends at once
    sender.start()
    wait_for(lambda: not sender.alive)
    monkeypatch.undo()
    sender.wake()  # a row recorded: the sender is looked at
    try:
        assert sender.alive and sender.restarts == 1
        assert sender.died == "the sender's thread ended"
    finally:
        sender.stop()


def test_a_refusal_is_kept_on_show_and_retried_slowly(tmp_path, make_lexicon):
    """A 4xx is the hub's word: the sender keeps it (for its status) and backs off instead of
    asking again every poll; it still asks again (the director may fix the hub)."""
    hub = FaultyHub("refused")
    path = tmp_path / "s.db"
    with Journal.open(path) as journal:
        journal.forward()
    sender = forward.Forwarder(str(path), hub.url, "t", poll=0.05).start()
    try:
        wait_for(lambda: sender.refused)
        time.sleep(3.0)
        assert sender.alive and sender.refused == "no?[31m such row"
        assert sender.describe() == "refused by the hub: no?[31m such row"  # its status
        assert 1 <= hub.requests <= 6  # a 0.05 s poll would have asked about 60 times
    finally:
        sender.stop()
        hub.close()


def test_a_station_starts_its_ended_sender_again_when_it_records(tmp_path, make_lexicon,
                                                                  start_hub, monkeypatch):
    """The station service wakes its sender at each recorded row: one that ended (whatever
    ended it) is started again, counted, and the row still reaches the hub."""
    from adjudicator.config.station import Config
    from adjudicator.station.service import open_station

    hub = start_hub()
    cfg = Config(station="Desk 5", journal=str(tmp_path / "d5.db"), hub=hub.url,
                 hub_token=hub.hub.station_token)
    station = open_station(cfg, make_lexicon(["QI"]))
    try:
        sender = station.hub_link
        wait_for(lambda: sender.known)
        sender._stop.set()  # the thread ends as if something had stopped it...
        sender._wake.set()
        wait_for(lambda: not sender.alive)
        sender._stop.clear()  # ...without anyone asking it to
        station.submit("qi", table="3")
        assert sender.alive and sender.restarts == 1
        wait_for(lambda: hub.hub.ledger.journal.count() == 1)
    finally:
        station.close()
