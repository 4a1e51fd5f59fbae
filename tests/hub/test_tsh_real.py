"""tsh's html/tourney.js as tsh wrote it for real events (read from the shared test folder, never
copied here): players' names at each table, and a file rewritten under a running hub."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest

from adjudicator.hub.tsh import TshNames, current_round0, read_tourney


def tsh_folder() -> Path:
    """ADJUDICATOR_TEST_TSH, else the tsh folder beside ADJUDICATOR_TEST_LEXICONS."""
    given = os.environ.get("ADJUDICATOR_TEST_TSH")
    if given:
        return Path(given)
    lexicons = os.environ.get("ADJUDICATOR_TEST_LEXICONS")
    if not lexicons:
        pytest.skip("real tsh files: set ADJUDICATOR_TEST_TSH (or ADJUDICATOR_TEST_LEXICONS "
                    "with a tsh folder beside it)")
    return Path(lexicons).parent / "tsh"


def real(name: str) -> str:
    path = tsh_folder() / name
    if not path.is_file():
        pytest.skip(f"real tsh file {name} not found in {path.parent}")
    return str(path)


def test_every_real_tsh_file_there_reads():
    folder = tsh_folder()
    files = sorted(folder.glob("*.js")) if folder.is_dir() else []
    if not files:
        pytest.skip(f"no real tsh files in {folder}")
    for path in files:  # any file tsh wrote, not only the two known here
        event = read_tourney(str(path))
        assert event["divisions"] and all(isinstance(d, dict) for d in event["divisions"])
        raw = path.read_bytes()
        assert b"undefined" not in raw or event  # JavaScript's undefined was read, not refused


def test_spc_boards_14_to_23_share_tables_14_to_18_as_its_tables_setting_says():
    names = TshNames(real("2024-spc-a-tourney.js"))
    assert names.warning() is None
    # round 1: boards 22 and 23 are both at table 18; board 13 alone at table 13
    assert names.at("18", "1") == ("Lipkin, Seth - Owens, Mark Edward; "
                                   "Luebkemann, John - Appel, Scott")
    assert names.at("14") == "Smylie, Jackson - Pistol, Howard; Owens, Mark Edward - Withers, Ben"
    assert names.at("13") == "Rowland, Craig - Early, Michael"
    # boards 19-23 exist, but no game is at tables 19-23: a board number is not a table
    assert [names.at(t) for t in ("19", "20", "23")] == ["", "", ""]
    assert names.at("0") == "" and names.at("nowhere") == ""


def test_spc_all_rounds_scored_falls_back_to_the_last_paired_round():
    event = read_tourney(real("2024-spc-a-tourney.js"))
    [division] = event["divisions"]
    assert current_round0(division) == 30  # every one of 31 rounds scored: the last one
    names = TshNames(real("2024-spc-a-tourney.js"))
    assert names.at("18") == names.at("18", "31") == "Luebkemann, John - Li, Jason"
    assert names.at("1") == "Walton, Noah - Fatsis, Chloe"  # one division: no prefix
    assert names.at("18", "32") == ""  # a round tsh has no pairings for


def test_sample_four_divisions_are_named_and_unpaired_ones_show_nothing():
    event = read_tourney(real("sample-tourney.js"))
    assert [d["name"] for d in event["divisions"]] == ["A", "B", "C", "D"]
    names = TshNames(real("sample-tourney.js"))  # no tables setting: the board is the table
    assert names.at("1") == "A: Daniel, Robin Pollock - Przybyszewski, Mark"  # round 1: no scores
    assert names.at("1", "3") == "A: Daniel, Robin Pollock - Sykes, Christopher"
    assert names.at("9") == "A: Kaufman, Zev - Paolella, Libero"
    assert names.at("10") == ""  # B, C and D are not paired yet


def test_a_real_file_rewritten_under_a_running_hub_warns_and_keeps_the_last_good_names(
        tmp_path, make_lexicon):
    from hub_process import HubProcess, accept_waiting, wait_for

    from adjudicator.link.forward import Forwarder
    from adjudicator.journal import Journal
    from adjudicator.judging.verdict import adjudicate

    text = Path(real("2024-spc-a-tourney.js")).read_bytes()
    tourney = tmp_path / "tourney.js"
    tourney.write_bytes(text)
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\ntsh = "tourney.js"\n')
    hub = HubProcess(tmp_path / "hub.toml")
    state_url = hub.director_url.replace("/?key=", "/state?key=")

    def state():
        with urllib.request.urlopen(state_url, timeout=10) as r:
            return json.loads(r.read())
    try:
        with Journal.open(tmp_path / "s.db") as journal:
            journal.forward()
            journal.record(adjudicate(make_lexicon(["QI"]), ("QI",)), station="Desk 1",
                           mode="station", table="18")
        fwd = Forwarder(str(tmp_path / "s.db"), hub.url, hub.token)
        fwd.push()
        fwd.stop()
        assert accept_waiting(hub.director_url) == 1
        players = "Luebkemann, John - Li, Jason"
        assert state()["tsh"] is None and state()["tables"][0]["players"] == players
        before = time.time()
        tourney.write_bytes(text[:len(text) // 2])  # tsh caught mid-write
        warning = wait_for(lambda: state()["tsh"], timeout=20)
        assert "cut short" in warning["problem"] and warning["names_kept"]
        since = datetime.fromisoformat(warning["since"]).timestamp()
        assert before - 1 <= since <= time.time() + 1
        assert state()["tables"][0]["players"] == players  # the last good names stay
        tourney.write_bytes(b"newt={garbled")
        time.sleep(1.5)
        assert state()["tsh"]["since"] == warning["since"]  # still unreadable since then
        tourney.write_bytes(text)
        wait_for(lambda: state()["tsh"] is None, timeout=20)
        assert state()["tables"][0]["players"] == players
    finally:
        hub.stop()
