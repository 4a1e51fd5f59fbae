"""Players' names at a table from tsh's html/tourney.js and its `tables` setting (read only)."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from adjudicator.errors import ConfigError
from adjudicator.hub.board import Board
from adjudicator.hub.tsh import TshNames, games_at_tables, read_tourney


def player(pid, name, pairings, boards, scores=()):
    return {"id": pid, "name": name, "pairings": pairings, "scores": list(scores),
            "etc": {"board": boards}}


def tourney(tables=None):
    """Two divisions, both numbering their boards from 1; round 2 is being played."""
    a = [None,
         player(1, "Smith, Ann", [2, 3], [1, 2], [400, 380]),
         player(2, "Jones, Bo", [1, 4], [1, 1], [350]),
         player(3, "Lee, Cy", [4, 1], [2, 2], [410, 300]),
         player(4, "Kim, Di", [3, 2], [2, 1], [390])]
    b = [None,
         player(1, "Ng, Ed", [2, 0], [1, 0], [300]),
         player(2, "Ola, Fe", [1, 3], [1, 1], [330]),
         player(3, "Po, Gu", [0, 2], [0, 1], [50])]
    config = {"max_rounds": 7}
    if tables is not None:
        config["tables"] = tables
    return {"config": config, "divisions": [{"name": "a", "players": a},
                                            {"name": "b", "players": b}]}


def write(tmp_path, data, name="tourney.js") -> str:
    path = tmp_path / name
    path.write_text("newt = " + json.dumps(data) + ";\n")
    return str(path)


def test_boards_map_to_tables_through_tshs_tables_setting_not_board_equals_table():
    t = tourney({"a": [11, 12], "b": [21, 22]})
    assert games_at_tables(t) == {  # round 2 (index 1): the round not every player has scored
        "11": ["A: Jones, Bo - Kim, Di"], "12": ["A: Smith, Ann - Lee, Cy"],
        "21": ["B: Ola, Fe - Po, Gu"]}  # Ng, Ed has a bye
    assert games_at_tables(t, round1=1)["11"] == ["A: Smith, Ann - Jones, Bo"]


def test_divisions_sharing_board_numbers_without_tables_show_every_game_there():
    games = games_at_tables(tourney(), round1=1)
    assert games["1"] == ["A: Smith, Ann - Jones, Bo", "B: Ng, Ed - Ola, Fe"]


def test_one_division_needs_no_division_label(tmp_path):
    t = tourney({"a": [11, 12]})
    t["divisions"] = t["divisions"][:1]
    names = TshNames(write(tmp_path, t))
    assert names.at("12") == "Smith, Ann - Lee, Cy"
    assert names.at("12", "1") == "Lee, Cy - Kim, Di"
    assert names.at("11", "1") == "Smith, Ann - Jones, Bo"


def test_tshs_file_is_read_when_it_changes_and_never_written(tmp_path):
    path = write(tmp_path, tourney({"a": [11, 12], "b": [21, 22]}))
    before = (hashlib.sha256(open(path, "rb").read()).hexdigest(), os.stat(path).st_mtime_ns)
    names = TshNames(path)
    assert names.at("21") == "B: Ola, Fe - Po, Gu"
    assert (hashlib.sha256(open(path, "rb").read()).hexdigest(),
            os.stat(path).st_mtime_ns) == before
    changed = tourney({"a": [11, 12], "b": [31, 32]})
    with open(path, "w") as f:
        f.write("newt = " + json.dumps(changed) + ";\n")
    os.utime(path, ns=(before[1] + 10**9, before[1] + 10**9))
    assert names.refresh() and not names.refresh()  # read once per change
    assert names.at("21") == "" and names.at("31") == "B: Ola, Fe - Po, Gu"
    assert names.warning() is None
    text = "newt = " + json.dumps(changed) + ";\n"
    with open(path, "w") as f:
        f.write(text[:len(text) // 2])  # tsh caught mid-write: the last good reading stays
    os.utime(path, ns=(before[1] + 2 * 10**9, before[1] + 2 * 10**9))
    assert names.refresh()
    assert names.at("31") == "B: Ola, Fe - Po, Gu"
    warning = names.warning()
    assert "not tsh's tourney.js" in warning["problem"] and "cut short" in warning["problem"]
    assert warning["names_kept"] and warning["since"]
    with open(path, "w") as f:
        f.write(text)
    os.utime(path, ns=(before[1] + 3 * 10**9, before[1] + 3 * 10**9))
    assert names.refresh() and names.warning() is None


def test_an_event_folder_is_read_through_its_html_folder(tmp_path):
    (tmp_path / "html").mkdir()
    write(tmp_path / "html", tourney())
    assert read_tourney(str(tmp_path))["divisions"][0]["name"] == "a"


def test_a_file_that_is_not_tshs_is_said_plainly(tmp_path):
    bad = tmp_path / "bad.js"
    bad.write_text("var x = 1;")
    with pytest.raises(ConfigError, match="is not tsh's tourney.js"):
        read_tourney(str(bad))
    with pytest.raises(ConfigError, match="cannot read tsh's"):
        read_tourney(str(tmp_path / "missing.js"))


def test_the_board_shows_the_players_at_each_table(tmp_path):
    names = TshNames(write(tmp_path, tourney({"a": [11, 12], "b": [21, 22]})))
    board = Board(names=names.at)
    board.add_rows("j", [{"station": "Desk 1", "game_table": "12", "acceptable": 1,
                          "time_utc": "2026-11-22T14:00:00+00:00", "words": "QI",
                          "flags": "[]", "recheck_of": None, "origin_seq": 1, "round": None}])
    [table] = board.snapshot()["tables"]
    assert table["players"] == "A: Smith, Ann - Lee, Cy"


def test_the_hub_shows_tshs_names_on_the_directors_state(tmp_path, make_lexicon):
    import urllib.request

    from hub_process import HubProcess, accept_waiting

    from adjudicator.link.forward import Forwarder
    from adjudicator.journal import Journal
    from adjudicator.judging.verdict import adjudicate

    write(tmp_path, tourney({"a": [11, 12], "b": [21, 22]}))
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\ntsh = "tourney.js"\n')
    hub = HubProcess(tmp_path / "hub.toml")
    try:
        assert any("Players' names from tsh" in line for line in hub.lines)
        lex = make_lexicon(["QI"])
        with Journal.open(tmp_path / "s.db") as journal:
            journal.forward()
            journal.record(adjudicate(lex, ("QI",)), station="Desk 1", mode="station",
                           table="21")
        fwd = Forwarder(str(tmp_path / "s.db"), hub.url, hub.token)
        fwd.push()
        fwd.stop()
        assert accept_waiting(hub.director_url) == 1
        url = hub.director_url.replace("/?key=", "/state?key=")
        with urllib.request.urlopen(url, timeout=10) as r:
            [table] = json.loads(r.read())["tables"]
        assert (table["table"], table["players"]) == ("21", "B: Ola, Fe - Po, Gu")
    finally:
        hub.stop()


def test_a_wrong_tsh_path_stops_the_hub_with_one_line(tmp_path):
    import subprocess
    import sys

    from hub_process import cli_env

    (tmp_path / "hub.toml").write_text('tsh = "nowhere/tourney.js"\n')
    done = subprocess.run([sys.executable, "-m", "adjudicator", "hub", "--port", "0",
                           "--config", str(tmp_path / "hub.toml")], capture_output=True,
                          text=True, env=cli_env(), timeout=60)
    assert done.returncode == 6 and done.stderr.count("\n") == 1
    assert "cannot read tsh's" in done.stderr


def test_divisions_sharing_table_numbers_group_per_division_when_stations_name_it(tmp_path):
    """Without tsh's `tables`, A's board 1 and B's board 1 are two tables numbered 1: typed as
    "A1" and "B1" they are two tables on the page, each with its own division's game, a
    division's tables together; typed "1", one table showing both games (hub/tables.py)."""
    names = TshNames(write(tmp_path, tourney()))
    board = Board(names=names.at)

    def at(table, seq):
        return {"station": "Desk 1", "game_table": table, "acceptable": 1, "round": "1",
                "time_utc": f"2026-11-22T14:00:{seq:02d}+00:00", "words": "QI",
                "flags": "[]", "recheck_of": None, "origin_seq": seq}
    board.add_rows("j", [at("B1", 1), at("A2", 2), at("a1", 3), at("1", 4)])
    players = {t["table"]: t["players"] for t in board.snapshot()["tables"]}
    assert list(players) == ["1", "a1", "A2", "B1"]
    assert players == {"1": "A: Smith, Ann - Jones, Bo; B: Ng, Ed - Ola, Fe",
                       "a1": "A: Smith, Ann - Jones, Bo", "A2": "A: Lee, Cy - Kim, Di",
                       "B1": "B: Ng, Ed - Ola, Fe"}
