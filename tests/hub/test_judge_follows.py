"""Issue 40: a one-shot `judge` on a joined machine asks its hub for the event before it judges.

Each call is a whole process (`python -m adjudicator judge ...`) against a real hub on a socket:
the very first call after the director changes division B's list judges with the new list, with
`--config` and with the user config alike; a hub that never answers costs about 1.5 s, and the
call judges with the config's lists and says which event version that is. The hub's page then
shows no stale "runs event version" alarm for the station.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from test_event_join import lists, post, started, station_home  # noqa: F401

from adjudicator.config.station import load_config
from adjudicator.hub import eventalarms
from adjudicator.lexicon import store as shelf

REPO = Path(__file__).resolve().parents[2]
CHANGE = {"name": "Club Open 2026", "version": 1, "divisions": [
    {"name": "A", "lexicon": "TINYA", "challenge_rule": "5-per-word", "tables": "1-20"},
    {"name": "B", "lexicon": "TINYC", "challenge_rule": "double", "tables": "21-40"}]}


def judge(*args: str) -> subprocess.CompletedProcess:
    """`adjudicator judge ARGS` as its own process, with this test's environment."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "adjudicator", "judge", *args], env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def notes(done: subprocess.CompletedProcess) -> list[str]:
    """stderr's lines but the tiny lists' warning (they are not official lists out here)."""
    return [line for line in done.stderr.splitlines() if "warning:" not in line]


@pytest.fixture
def station(start_hub, tmp_path, lists, monkeypatch, run):  # noqa: F811 - the fixture
    """The hub of HUB_TOML (A on TINYA, B on TINYB) and a station home joined to it with the
    user config; TINYC is on the station's shelf too (the fetch is test_event_join's)."""
    hub = started(start_hub, tmp_path)
    hub_shelf = os.environ["ADJUDICATOR_SHELF"]
    monkeypatch.setattr(eventalarms, "BEHIND_AFTER", 0.0)  # a station behind: an alarm at once
    home = station_home(tmp_path, monkeypatch)
    done = run("join", hub.join_url, "--name", "Laptop")
    assert done.exit_code == 0, done.output
    shelf.add(str(tmp_path / "tinyc.txt"), name="TINYC", folder=str(home / "shelf"))
    return hub, hub_shelf, home / "config.toml"


def change_b(hub, hub_shelf, monkeypatch) -> None:
    """The director changes division B's list to TINYC on the page (version 2)."""
    with monkeypatch.context() as at_the_hub:  # this process is the hub's laptop too
        at_the_hub.setenv("ADJUDICATOR_SHELF", hub_shelf)
        status, body = post(f"{hub.local_url}/api/event?key={hub.hub.director_token}", CHANGE)
    assert status == 200 and json.loads(body)["changed"], body


def laptop_alarms(hub) -> list[str]:
    rows = hub.call(hub.hub.board.snapshot)["stations"]
    return next(r["alarms"] for r in rows if r["name"] == "Laptop")


@pytest.mark.parametrize("how", ["--config", "user config"])
def test_the_first_call_after_a_change_judges_with_the_new_list(station, monkeypatch, how):
    hub, hub_shelf, config = station
    given = ("--config", str(config)) if how == "--config" else ()
    before = judge(*given, "--table", "25", "zo")  # TINYB has no ZO
    assert (before.returncode, before.stdout) == (1, "UNACCEPTABLE\n"), before.stderr
    assert notes(before) == []
    assert load_config(str(config)).event_version == 1
    change_b(hub, hub_shelf, monkeypatch)

    first = judge(*given, "--table", "25", "zo")  # the very first call after it: TINYC's ZO
    assert (first.returncode, first.stdout) == (0, "ACCEPTABLE\n"), first.stderr
    assert notes(first) == [("adjudicator: The director changed the event: division B: list "
                             "TINYB -> TINYC.")]
    # the hub heard what the call judged with: no stale list or "runs event version" alarm
    assert not [a for a in laptop_alarms(hub) if "event version" in a or "judges with" in a]
    cfg = load_config(str(config))  # written, as a kiosk writes it at Ready
    assert [d.lexicon for d in cfg.event_divisions] == ["TINYA", "TINYC"]
    assert cfg.event_version == 2
    again = judge(*given, "--table", "25", "zo")  # nothing new: said once
    assert (again.returncode, again.stdout, notes(again)) == (0, "ACCEPTABLE\n", [])
    assert not [a for a in laptop_alarms(hub) if "event version" in a or "judges with" in a]


def test_the_heartbeat_of_a_one_shot_says_the_version_it_judged_with(station, monkeypatch):
    hub, hub_shelf, config = station
    change_b(hub, hub_shelf, monkeypatch)
    done = judge("--config", str(config), "--table", "5", "cat")
    assert done.returncode == 0, done.stderr
    assert not [a for a in laptop_alarms(hub) if "event version" in a]
    view = next(v for v in hub.call(lambda: list(hub.hub.board.stations.values()))
                if v.name == "Laptop")
    assert view.event_version == 2


@pytest.fixture
def silent_hub():
    """A hub address that takes connections and never answers a byte."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()


@pytest.mark.parametrize("how", ["--config", "user config"])
def test_a_hub_that_never_answers_costs_the_verdict_a_bounded_wait_and_says_the_version(
        station, silent_hub, how):
    _, _, config = station
    config.write_text(config.read_text().replace(load_config(str(config)).hub, silent_hub))
    given = ("--config", str(config)) if how == "--config" else ()
    done = judge(*given, "--table", "25", "dog")  # judged with TINYB, the config's
    assert (done.returncode, done.stdout) == (0, "ACCEPTABLE\n"), done.stderr
    said = notes(done)
    assert len(said) == 1 and said[0].startswith(f"adjudicator: the hub {silent_hub} did not "
                                                 "answer in time (not within 1.5 s): judging "
                                                 f"with event version 1, as {config} has it")
    if how == "--config":  # the row recorded, waiting for the hub
        assert said[0].endswith(f"(adjudicator journal push --config {config})")
