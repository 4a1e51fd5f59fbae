"""`adjudicator join` from an empty home to a station ready to judge, CSW19 fetched from the hub,
against `adjudicator lexicon add CSW19.txt` on the same machine, measured in the same run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from benchutil import csw19_path, report

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "hub"))

from hub_process import HubProcess, cli_env  # noqa: E402

RUNS = 5
HUB_TOML = """\
journal = "hub.db"
[event]
name = "Bench Open"
[[division]]
name = "A"
lexicon = "CSW19"
challenge_rule = "5-per-word"
"""


def empty_home(folder: Path) -> dict:
    env = {k: v for k, v in cli_env().items() if not k.startswith("ADJUDICATOR_")}
    env.update(HOME=str(folder), XDG_CONFIG_HOME=str(folder / ".config"),
               XDG_DATA_HOME=str(folder / ".local/share"), XDG_CACHE_HOME=str(folder / ".cache"))
    return env


def timed(args, env) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "adjudicator", *args], env=env,
                          capture_output=True, text=True, timeout=300)
    took = time.perf_counter() - start
    assert done.returncode == 0, done.stderr
    return took


def test_join_to_a_station_ready_to_judge(tmp_path):
    source = csw19_path()
    hub_dir = tmp_path / "hub"
    hub_dir.mkdir()
    hub_env = {**cli_env(), "ADJUDICATOR_SHELF": str(hub_dir / "shelf")}
    subprocess.run([sys.executable, "-m", "adjudicator", "lexicon", "add", source],
                   env=hub_env, check=True, capture_output=True, timeout=300)
    (hub_dir / "hub.toml").write_text(HUB_TOML)
    old = os.environ.get("ADJUDICATOR_SHELF")
    os.environ["ADJUDICATOR_SHELF"] = str(hub_dir / "shelf")  # HubProcess's environment
    try:
        hub = HubProcess(hub_dir / "hub.toml")
    finally:
        if old is None:
            os.environ.pop("ADJUDICATOR_SHELF", None)
        else:
            os.environ["ADJUDICATOR_SHELF"] = old
    try:
        while not any("/join?code=" in line for line in hub.lines):
            hub.lines.append(hub.proc.stdout.readline().rstrip("\n"))
        url = next(line.split()[-1] for line in hub.lines if "/join?code=" in line)
        joins, adds = [], []
        for n in range(RUNS):  # interleaved: both see the same machine load
            home = tmp_path / f"join{n}"
            home.mkdir()
            env = empty_home(home)
            joins.append(timed(["join", url, "--name", f"Desk {n}"], env))
            judged = subprocess.run([sys.executable, "-m", "adjudicator", "judge", "--config",
                                     str(home / ".config/adjudicator/config.toml"), "zo"],
                                    env=env, capture_output=True, text=True, timeout=60)
            assert judged.returncode == 0, judged.stderr  # ready: CSW19 judges ZO acceptable
            base = tmp_path / f"add{n}"
            base.mkdir()
            adds.append(timed(["lexicon", "add", source], empty_home(base)))
    finally:
        hub.stop()
    join, add = sorted(joins)[RUNS // 2], sorted(adds)[RUNS // 2]
    report("join, CSW19 fetched (goal <= 5 s)", f"{join:.2f} s (loopback, median of {RUNS})",
           f"takes {join / add:.2f}x the time of `lexicon add CSW19.txt` ({add:.2f} s)")
