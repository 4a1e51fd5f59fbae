"""`judge` and `info` without --lexicon judge with the station's own list (issue 27 item 5)."""

from __future__ import annotations

import os

from adjudicator.config.station import load_config
from adjudicator.config.save import save_config


def _station_uses(lexicon: str) -> str:
    """Save LEXICON as the station's list, as director mode's Save does; the config's path."""
    cfg = load_config()
    return save_config(cfg.with_changes(lexicon=lexicon))


def test_judge_without_lexicon_uses_the_list_the_station_saved(run, tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "CLUB.txt").write_text("ZO\nQI\n")  # ZO is not in ENABLE
    assert run("judge", "zo").exit_code == 1  # no station list yet: the embedded ENABLE
    with open(os.environ["ADJUDICATOR_CONFIG"], "w") as f:
        f.write(f'lexicon_dirs = ["{folder}"]\n')
    path = _station_uses("CLUB")
    judged = run("judge", "zo")
    assert (judged.stdout, judged.exit_code) == ("ACCEPTABLE\n", 0)  # as the station judges
    # not an official list: stderr names it and the config it came from
    assert "UNRECOGNISED WORD LIST CLUB" in judged.stderr and path in judged.stderr
    info = run("info")
    assert "Name:        CLUB" in info.stdout and f"Config:      {path}" in info.stdout
    # --lexicon still names another list
    assert run("judge", "--lexicon", "default", "zo").exit_code == 1


def test_judge_says_on_stderr_it_used_enable_and_where_to_set_another(run):
    judged = run("judge", "cat")
    assert judged.stdout == "ACCEPTABLE\n"
    (line,) = judged.stderr.splitlines()
    assert line.startswith("adjudicator: warning: ENABLE: NOT A TOURNAMENT WORD LIST")
    assert os.environ["ADJUDICATOR_CONFIG"] in line  # where the station's list is set
    assert "ENABLE" in run("info").stdout
