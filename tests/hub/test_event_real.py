"""A director's event with real lists: a hub with a CSW19 and an NWL2020 division, a station
joined from an empty home (its lists fetched from the hub), its config loaded and judging."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hub_process import HubProcess, cli_env
from realdata import real_list

from adjudicator.lexicon import store as shelf

HUB_TOML = """\
journal = "hub.db"
[event]
name = "Club Open 2026"
[[division]]
name = "A"
lexicon = "CSW19"
challenge_rule = "5-per-word"
tables = "1-20"
[[division]]
name = "B"
lexicon = "NWL2020"
challenge_rule = "double"
tables = "21-40"
"""


def empty_home(folder) -> dict:
    """The environment of a new machine: HOME and XDG_* in FOLDER, no adjudicator setting."""
    env = {k: v for k, v in cli_env().items() if not k.startswith("ADJUDICATOR_")}
    env.update(HOME=str(folder), XDG_CONFIG_HOME=str(folder / ".config"),
               XDG_DATA_HOME=str(folder / ".local/share"), XDG_CACHE_HOME=str(folder / ".cache"),
               XDG_STATE_HOME=str(folder / ".local/state"))
    return env


def cli(env, *args):
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True,
                          text=True, env=env, timeout=120)


@pytest.fixture
def event_hub(tmp_path):
    for name in ("CSW19", "NWL2020"):
        shelf.add(real_list(f"{name}.txt"))
    (tmp_path / "hub.toml").write_text(HUB_TOML)
    hub = HubProcess(tmp_path / "hub.toml")  # read up to the director's page, said last
    assert any(line.startswith("▀") for line in hub.lines)  # the QR code, before it
    yield hub
    hub.stop()


def test_a_station_joins_from_an_empty_home_and_judges_with_its_divisions_list(event_hub,
                                                                              tmp_path):
    text = "\n".join(event_hub.lines)
    assert ("Division A (tables 1-20): CSW19 — Collins Scrabble Words 2019 — 4f3fcd3f6980 · "
            "5-per-word") in text
    assert "Division B (tables 21-40): NWL2020 — " in text and "efc01e7b8a42 · double" in text
    join = next(line.strip() for line in event_hub.lines
                if line.strip().startswith("adjudicator join "))
    assert "█" in text  # the join address as a QR code, in block characters
    home = tmp_path / "home"
    home.mkdir()
    env = empty_home(home)
    done = cli(env, "join", join.split()[-1], "--name", "Desk 4")
    assert done.returncode == 0, done.stderr
    shelf_dir = home / ".local/share/adjudicator/lexicons"
    assert sorted(os.listdir(shelf_dir)) == ["CSW19.lex", "NWL2020.lex"]  # fetched
    config = home / ".config/adjudicator/config.toml"
    assert config.exists()
    # both divisions: the station has no one list; a station of division A judges with CSW19
    done = cli(env, "join", join.split()[-1], "--name", "Desk 4", "--division", "A")
    assert done.returncode == 0, done.stderr
    assert "changed: " in done.stdout
    zo = cli(env, "judge", "--config", str(config), "zo")
    assert zo.returncode == 0 and "ACCEPTABLE" in zo.stdout, zo.stderr  # ZO: in CSW19 only
    info = cli(env, "info", "CSW19")
    assert "verified" in info.stdout
    b = tmp_path / "b.toml"
    done = cli(env, "join", join.split()[-1], "--name", "Desk 30", "--division", "B",
               "--config", str(b))
    assert done.returncode == 0, done.stderr
    assert "List NWL2020" in done.stdout
    zo = cli(env, "judge", "--config", str(b), "zo")
    assert zo.returncode == 1 and "UNACCEPTABLE" in zo.stdout  # NWL2020 has no ZO
    assert (tmp_path / "b.db").exists()  # its journal, beside its config


def test_a_hub_with_an_unofficial_list_does_not_start(tmp_path):
    shelf.add(real_list("CSW19.txt"))
    src = tmp_path / "club.txt"
    src.write_text("QI\nZA\n")
    shelf.add(str(src), name="CLUB")
    (tmp_path / "hub.toml").write_text(HUB_TOML.replace("NWL2020", "CLUB"))
    done = subprocess.run([sys.executable, "-m", "adjudicator", "hub", "--port", "0",
                           "--config", str(tmp_path / "hub.toml")], capture_output=True,
                          text=True, env=cli_env(), timeout=60)
    assert done.returncode == 6
    assert done.stderr.startswith("adjudicator: division B: 'CLUB' is an unrecognised list")
    assert done.stderr.count("\n") == 1


def test_an_accepted_station_fetches_a_list_the_event_changed_to_signed_with_its_key(
        event_hub, tmp_path):
    """A station that lacks the event's new list gets it from the hub once the director
    accepted it, its request signed with its key (adjudicator/station/follow.py), checked by
    fingerprint; a wrong token, or the hub_token alone (players may know it), gets nothing."""
    from hub_process import accept_waiting
    from odd_station import OddStation

    import tomllib

    from adjudicator.errors import AdjudicatorError
    from adjudicator.lexicon.known import by_id
    from adjudicator.link.join import fetch_list

    join = next(line.strip() for line in event_hub.lines
                if line.strip().startswith("adjudicator join "))
    home = tmp_path / "home"
    home.mkdir()
    done = cli(empty_home(home), "join", join.split()[-1], "--name", "Desk 5")
    assert done.returncode == 0, done.stderr
    config = tomllib.loads((home / ".config/adjudicator/config.toml").read_text())
    nwl = by_id("NWL2020").fingerprint
    mine = tmp_path / "station-shelf"  # not the hub's (tmp_path / "shelf")
    with pytest.raises(AdjudicatorError, match="wrong join code|refused"):
        fetch_list(config["hub"], "", nwl, shelf=str(mine), token="not-the-token")
    assert not mine.exists() or not os.listdir(mine)
    with pytest.raises(AdjudicatorError, match="accepted"):
        fetch_list(config["hub"], "", nwl, shelf=str(mine), token=config["hub_token"])
    station = OddStation(config["hub"], config["hub_token"], "Desk 5")
    assert station.beat()[0] == 200 and accept_waiting(event_hub.director_url) == 1
    path = fetch_list(config["hub"], "", nwl, shelf=str(mine), token=config["hub_token"],
                      key=station.key)
    assert os.path.basename(path) == "NWL2020.lex" and os.listdir(mine) == ["NWL2020.lex"]
