"""A station at an event with divisions on different lists (issue 27): the table decides the list
and the rule; a table this station does not judge for is refused before anything is judged; the
journal row names the list and the rule actually used."""

from __future__ import annotations

import pytest

from adjudicator.config.station import parse_config
from adjudicator.station.lists import NO_TABLE, DivisionError, lists_for
from adjudicator.errors import LexiconError
from adjudicator.journal import Journal
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.station.service import open_station

ALPHA = ["ZO", "QI", "CAT"]  # a CSW-like tiny list: ZO is good
BETA = ["QI", "CAT"]  # an NWL-like tiny list: ZO is not


@pytest.fixture
def shelf(tmp_path):
    """A lexicon folder with two tiny lists, ALPHA and BETA; their fingerprints."""
    folder = tmp_path / "lists"
    folder.mkdir()
    prints = {}
    for name, words in (("ALPHA", ALPHA), ("BETA", BETA)):
        src = tmp_path / f"{name}.txt"
        src.write_text("\n".join(words) + "\n")
        compile_sources([str(src)], str(folder / f"{name}.lex"), name=name)
        prints[name] = Lexicon.load(str(folder / f"{name}.lex")).fingerprint
    return str(folder), prints


def event_config(tmp_path, shelf, *, served=(), pin=True, b_list="BETA", **extra):
    folder, prints = shelf
    divisions = [
        {"name": "A", "lexicon": "ALPHA", "challenge_rule": "5-per-word", "tables": "1-20",
         **({"fingerprint": prints["ALPHA"]} if pin else {})},
        {"name": "B", "lexicon": b_list, "challenge_rule": "double", "tables": "21-40",
         **({"fingerprint": prints[b_list]} if pin else {})},
    ]
    data = {"event": "Club Open 2026", "station": "Desk 1", "lexicon_dirs": [folder],
            "journal": str(tmp_path / "journal.db"), "division": divisions,
            "divisions": list(served), **extra}
    return parse_config(data, str(tmp_path / "station.toml"))


def test_each_table_is_judged_with_its_divisions_list_and_rule_and_the_row_says_so(
        tmp_path, shelf):
    config = event_config(tmp_path, shelf)
    station = open_station(config, link="none")
    try:
        at_a = station.submit("zo", table="5")
        at_b = station.submit("zo", table="25")
    finally:
        station.close()
    assert at_a.verdict.acceptable and not at_b.verdict.acceptable
    assert (at_a.verdict.lexicon.name, at_b.verdict.lexicon.name) == ("ALPHA", "BETA")
    assert "double" in at_b.consequence or "turn" in at_b.consequence.lower()
    with Journal.open(config.journal) as journal:
        a, b = journal.get(at_a.seq), journal.get(at_b.seq)
    _, prints = shelf
    assert (a.lexicon_name, a.fingerprint, a.rule) == ("ALPHA", prints["ALPHA"], "5-per-word")
    assert (b.lexicon_name, b.fingerprint, b.rule) == ("BETA", prints["BETA"], "double")


@pytest.mark.parametrize("table, says", [
    ("", NO_TABLE),
    ("41", "Table 41 is in no division here (A (tables 1-20): ALPHA · B (tables 21-40): BETA)"),
    ("Top", "Table Top is in no division here"),
])
def test_a_table_in_no_division_is_refused_and_nothing_is_judged_or_recorded(
        tmp_path, shelf, table, says):
    station = open_station(event_config(tmp_path, shelf), link="none")
    try:
        with pytest.raises(DivisionError) as refused:
            station.submit("zo", table=table)
        with pytest.raises(DivisionError):
            station.judge_group([("ZO",), ("QI",)], table=table)
        assert station.journal.count() == 0
    finally:
        station.close()
    assert says in str(refused.value)


def test_a_station_serving_one_division_refuses_another_divisions_table(tmp_path, shelf):
    station = open_station(event_config(tmp_path, shelf, served=["B"]), link="none")
    try:
        assert not station.submit("zo").verdict.acceptable  # one list: no table needed
        assert station.lexicon.name == "BETA"
        assert station.submit("zo", table="30").verdict.lexicon.name == "BETA"
        with pytest.raises(DivisionError, match="Table 7 plays in division A, which this "
                                                "station does not judge"):
            station.submit("zo", table="7")
        assert station.journal.count() == 2
        rows = station.recent()
    finally:
        station.close()
    assert {r.rule for r in rows} == {"double"}  # B's rule, even with no table given


def test_divisions_sharing_one_list_and_rule_judge_without_a_table(tmp_path, shelf):
    config = event_config(tmp_path, shelf, b_list="ALPHA")
    same_rule = tuple(d.__class__(d.name, d.lexicon, config.event_divisions[0].challenge_rule,
                                  d.tables, d.fingerprint) for d in config.event_divisions)
    station = open_station(config.with_changes(event_divisions=same_rule), link="none")
    try:
        outcome = station.submit("zo")
        assert outcome.verdict.acceptable and outcome.verdict.lexicon.name == "ALPHA"
        assert not station.lists.needs_table
    finally:
        station.close()


def test_divisions_sharing_one_list_under_different_rules_need_the_table(tmp_path, shelf):
    """The consequence shown is the table's division's rule, never a guess: one list, two
    rules, no table: refused before anything is judged; each table: its own rule."""
    config = event_config(tmp_path, shelf, b_list="ALPHA")
    station = open_station(config, link="none")
    try:
        with pytest.raises(DivisionError, match="Which table"):
            station.submit("zo")
        assert station.submit("qi", table="25").recorded and station.submit("qi", table="5")
        rows = sorted(r.rule for r in station.recent())
    finally:
        station.close()
    assert rows == ["5-per-word", "double"]


def test_a_list_that_is_not_the_one_pinned_refuses_to_start(tmp_path, shelf):
    folder, prints = shelf
    config = event_config(tmp_path, shelf)
    wrong = config.event_divisions[1].__class__(**{**config.event_divisions[1].__dict__,
                                                   "fingerprint": prints["ALPHA"]})
    config = config.with_changes(event_divisions=(config.event_divisions[0], wrong))
    with pytest.raises(LexiconError) as e:
        lists_for(config)
    message = str(e.value)
    assert message.startswith("division B: the list 'BETA' found here is BETA ")
    assert prints["ALPHA"][:12] in message and "\n" not in message


def test_a_missing_list_names_its_division(tmp_path, shelf):
    config = event_config(tmp_path, shelf, pin=False)
    config = config.with_changes(event_divisions=(
        config.event_divisions[0].__class__("B", "GAMMA", tables=((21, 40),)),))
    with pytest.raises(LexiconError, match="division B: lexicon 'GAMMA' not found"):
        open_station(config, link="none")


def test_the_serve_command_refuses_a_list_not_pinned_with_exit_3(tmp_path, shelf, run):
    folder, prints = shelf
    (tmp_path / "event.toml").write_text(
        f'lexicon_dirs = ["{folder}"]\njournal = "{tmp_path / "j.db"}"\n'
        '[[division]]\nname = "A"\nlexicon = "ALPHA"\n'
        f'fingerprint = "{prints["BETA"]}"\n')
    result = run("serve", "--config", str(tmp_path / "event.toml"), "--port", "0")
    assert result.exit_code == 3


def test_the_hub_says_the_event_and_its_lists_at_start(tmp_path, monkeypatch, run):
    """Item 5: `adjudicator hub` prints the event, each list (name, edition, fingerprint) and
    its journal; a hub without an event prints no event lines."""
    from adjudicator.event.setup import parse_event
    from adjudicator.lexicon.known import by_id

    csw19 = by_id("CSW19").fingerprint
    event = parse_event({"name": "Club Open 2026"}, [
        {"name": "A", "lexicon": "CSW19", "fingerprint": csw19, "tables": "1-20"},
        {"name": "B", "lexicon": "NWL2020", "challenge_rule": "double", "tables": "21-40"}])

    class FakeHub:
        station_token, director_token, join_code = "st", "dt", "jc"
        director_port = 8081

        class certificate:  # noqa: N801 - as the hub's Certificate reads
            fingerprint = "c" * 64

    async def fake_serve(journal, host, port, ready, tsh="", **kwargs):
        ready(FakeHub, 8080)

    monkeypatch.setattr("adjudicator.hub.run.serve", fake_serve)
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\n')
    plain = run("hub", "--config", str(tmp_path / "hub.toml"), "--host", "127.0.0.1")
    assert "Event:" not in plain.output and "Hub journal: " in plain.output
    FakeHub.event = event
    said = run("hub", "--config", str(tmp_path / "hub.toml"), "--host", "127.0.0.1").output
    assert said.splitlines()[:3] == [
        "Event: Club Open 2026",
        f"Division A (tables 1-20): CSW19 — Collins Scrabble Words 2019 — {csw19[:12]} · "
        "5-per-word",
        "Division B (tables 21-40): NWL2020 — NASPA Word List 2020 — not pinned · double"]
    assert f"Hub journal: {tmp_path / 'hub.db'}" in said


def test_a_changed_event_reuses_the_lists_already_loaded(tmp_path, shelf, monkeypatch):
    """The one loader reads each file once per process (lexicon/library.py): lists made again
    for a changed event take the same Lexicon objects without reading them."""
    config = event_config(tmp_path, shelf)
    lists = lists_for(config)
    from adjudicator.lexicon import library

    monkeypatch.setattr(library, "_load_path", lambda *a, **k: pytest.fail("read again"))
    swapped = config.with_changes(event_divisions=tuple(
        d.__class__(d.name, d.lexicon, d.challenge_rule, ((1, 10),) if d.name == "A" else
                    ((11, 40),), d.fingerprint) for d in config.event_divisions))
    again = lists_for(swapped)
    assert again.choose("15").lexicon is lists.find("B").lexicon


def test_director_mode_cannot_set_a_list_the_event_would_not_judge_with(tmp_path, shelf):
    """Issue 32 finding 3: at an event the divisions' lists judge; a list set by hand at the
    station would be shown (Ready, config, heartbeat) and judge nothing: refused, nothing
    changed; any other setting is saved as before."""
    from adjudicator.errors import ConfigError

    config = event_config(tmp_path, shelf, served=["A"])
    config.path and open(config.path, "w").write("# as joined\n")
    station = open_station(config, link="none")
    try:
        with pytest.raises(ConfigError, match="change a division's list on the director's page"):
            station.reconfigure(config.with_changes(lexicon="BETA"))
        assert station.config.lexicon == config.lexicon
        assert open(config.path).read() == "# as joined\n"
        station.reconfigure(config.with_changes(station="Desk 9"))
        assert station.config.station == "Desk 9" and station.lexicon.name == "ALPHA"
        assert station.submit("zo", table="3").verdict.lexicon.name == "ALPHA"
    finally:
        station.close()
