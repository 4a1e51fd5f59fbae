"""The event at the hub (hub.toml, the director's panel) and `adjudicator join`, with tiny lists.

The tiny lists stand in for official ones: each test adds their fingerprints to the known lists
(as if known.toml named them), so the logic runs in milliseconds; tests/hub/test_event_real.py
does the same with CSW19 and NWL2020 from $ADJUDICATOR_TEST_LEXICONS.
"""

from __future__ import annotations

import json
import os
import tomllib
import urllib.error
import urllib.request

import pytest

from adjudicator.lexicon import store as shelf
from adjudicator.config.station import load_config
from adjudicator.errors import AdjudicatorError, ConfigError
from adjudicator.event.setup import EventError, parse_event
from adjudicator.hub.event_setup import pin_lists, save_event
from adjudicator.hub.hub_journal import HubJournal
from adjudicator.hub.settings import load_hub_config
from adjudicator.lexicon.known import KnownLexicon, known_lexicons

HUB_TOML = """\
journal = "hub.db"  # the hub's journal
# the event, set once
[event]
name = "Club Open 2026"

[[division]]
name = "A"
lexicon = "TINYA"   # on the hub's shelf
challenge_rule = "5-per-word"
tables = "1-20"

[[division]]
name = "B"
lexicon = "TINYB"
challenge_rule = "double"
tables = "21-40"
"""


@pytest.fixture
def lists(tmp_path, monkeypatch):
    """TINYA, TINYB and TINYC on the hub's shelf, each an 'official' list for the test."""
    made = {}
    for name, words in (("TINYA", "QI ZA CAT XU"), ("TINYB", "QI ZA DOG"),
                        ("TINYC", "QI ZO")):
        src = tmp_path / f"{name.lower()}.txt"
        src.write_text("\n".join(words.split()) + "\n")
        added = shelf.add(str(src), name=name)
        fp = added.identity.fingerprint
        monkeypatch.setitem(known_lexicons(), fp, KnownLexicon(
            name, f"Tiny list {name}", "2026", "tests", len(words.split()), fp))
        made[name] = (fp, added.path)
    return made


def hub_toml(tmp_path, text=HUB_TOML):
    path = tmp_path / "hub.toml"
    path.write_text(text)
    return path


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def post(url, body):
    request = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    return get(request)


def started(start_hub, tmp_path, text=HUB_TOML):
    cfg, _ = load_hub_config(str(hub_toml(tmp_path, text)))
    event, files = pin_lists(cfg.event, cfg.path)
    return start_hub(cfg.journal, event=event, lists=files, config_path=cfg.path)


# -- hub.toml ------------------------------------------------------------------------------


def test_hub_config_pins_each_divisions_list_by_fingerprint(tmp_path, lists):
    cfg, _ = load_hub_config(str(hub_toml(tmp_path)))
    event, files = pin_lists(cfg.event, cfg.path)
    assert [(d.name, d.lexicon, d.fingerprint) for d in event.divisions] == [
        ("A", "TINYA", lists["TINYA"][0]), ("B", "TINYB", lists["TINYB"][0])]
    assert files == {fp: path for fp, path in (lists["TINYA"], lists["TINYB"])}
    assert event.name == "Club Open 2026"


@pytest.mark.parametrize("change, said", [
    (("TINYB", "NOSUCH"), "division B: its list 'NOSUCH' cannot be used"),
    (('tables = "21-40"', 'tables = "20-40"'), "divisions A and B overlap: table 20"),
])
def test_a_list_not_found_or_overlapping_tables_is_one_line_exit_6(tmp_path, lists, change,
                                                                   said):
    path = hub_toml(tmp_path, HUB_TOML.replace(*change))
    with pytest.raises(EventError) as e:
        cfg, _ = load_hub_config(str(path))
        pin_lists(cfg.event, cfg.path)
    assert said in str(e.value) and "\n" not in str(e.value)
    assert e.value.exit_code == 6


def test_an_unofficial_list_is_refused(tmp_path, lists):
    src = tmp_path / "club.txt"
    src.write_text("QI\nZA\n")
    shelf.add(str(src), name="CLUB")  # not in the known lists
    cfg, _ = load_hub_config(str(hub_toml(tmp_path, HUB_TOML.replace("TINYB", "CLUB"))))
    with pytest.raises(EventError, match="division B: 'CLUB' is an unrecognised list"):
        pin_lists(cfg.event, cfg.path)


def test_the_hub_command_refuses_an_event_it_cannot_run(tmp_path, run):
    hub_toml(tmp_path, HUB_TOML.replace("TINYA", "NOSUCH"))
    done = run("hub", "--host", "127.0.0.1", "--port", "0", "--config",
               str(tmp_path / "hub.toml"))
    assert done.exit_code == 6
    assert "division A: its list 'NOSUCH' cannot be used" in done.stderr


def test_set_pin_with_the_hub_config_sets_the_events_pin_in_place(tmp_path, run):
    path = hub_toml(tmp_path)
    done = run("set-pin", "--config", str(path), input="246813\n246813\n")
    assert done.exit_code == 0, done.stderr
    text = path.read_text()
    assert "# the event, set once" in text and 'lexicon = "TINYA"   # on the hub' in text
    pin = tomllib.loads(text)["event"]["pin_hash"]
    from adjudicator.event.pin import verify_pin

    assert verify_pin("246813", pin)
    assert "pin_hash" not in tomllib.loads(text)  # never a station's key in a hub's file


def test_saving_a_change_keeps_comments_and_the_other_division_as_written(tmp_path, lists):
    path = hub_toml(tmp_path)
    cfg, _ = load_hub_config(str(path))
    before, _ = pin_lists(cfg.event, cfg.path)
    from dataclasses import replace

    b = replace(before.divisions[1], lexicon="TINYC", fingerprint=lists["TINYC"][0])
    save_event(str(path), replace(before, divisions=(before.divisions[0], b)), before)
    text = path.read_text()
    assert "# the hub's journal" in text and "# on the hub's shelf" in text
    again, _ = load_hub_config(str(path))
    assert [d.lexicon for d in again.event.divisions] == ["TINYA", "TINYC"]


# -- the join address and the lists served ----------------------------------------------------


def test_join_answers_the_event_only_with_the_code(start_hub, tmp_path, lists):
    hub = started(start_hub, tmp_path)
    code = hub.hub.join_code
    status, body = get(f"{hub.url}/join?code={code}")
    assert status == 200
    said = json.loads(body)
    assert said["hub"] == hub.url and said["hub_token"] == hub.hub.station_token
    event = parse_event(said["event"], said["division"])
    assert event.name == "Club Open 2026" and event.version == 1
    assert [d.fingerprint for d in event.divisions] == [lists["TINYA"][0], lists["TINYB"][0]]
    for wrong in ("", "x", hub.hub.station_token, hub.hub.director_token):
        status, body = get(f"{hub.url}/join?code={wrong}")
        assert status == 403 and b"wrong join code" in body


def test_the_hub_serves_only_the_events_lists_and_only_with_the_code(start_hub, tmp_path,
                                                                      lists):
    hub = started(start_hub, tmp_path)
    code = hub.hub.join_code
    fp_a, path_a = lists["TINYA"]
    status, body = get(f"{hub.url}/lexicon/{fp_a}?code={code}")
    assert status == 200 and body == open(path_a, "rb").read()
    assert get(f"{hub.url}/lexicon/{fp_a}?code=wrong")[0] == 403
    assert get(f"{hub.url}/lexicon/{fp_a}")[0] == 403
    assert get(f"{hub.url}/lexicon/{lists['TINYC'][0]}?code={code}")[0] == 404  # on its shelf
    assert get(f"{hub.url}/lexicon/..%2Fhub.toml?code={code}")[0] == 404


def test_the_join_code_is_kept_in_the_hub_journal(tmp_path):
    journal = HubJournal(str(tmp_path / "hub.db"))
    code = journal.join_code()
    journal.close()
    again = HubJournal(str(tmp_path / "hub.db"))
    assert again.join_code() == code and code not in again.tokens()
    again.close()


# -- the director's panel ---------------------------------------------------------------------


def test_a_change_at_the_panel_is_saved_journaled_and_versioned(start_hub, tmp_path, lists):
    hub = started(start_hub, tmp_path)
    key = hub.hub.director_token
    status, body = get(f"{hub.local_url}/api/event?key={key}")
    state = json.loads(body)
    assert status == 200 and state["lists"] == ["TINYA", "TINYB", "TINYC"]
    change = {"name": "Club Open 2026", "version": 1, "divisions": [
        {"name": "A", "lexicon": "TINYA", "challenge_rule": "5-per-word", "tables": "1-20"},
        {"name": "B", "lexicon": "TINYC", "challenge_rule": "5-per-turn", "tables": "21-40"}]}
    assert post(f"{hub.local_url}/api/event?key=wrong", change)[0] == 403
    status, body = post(f"{hub.local_url}/api/event?key={key}", change)
    said = json.loads(body)
    assert status == 200 and said["changed"]
    assert said["what"] == "division B: list TINYB -> TINYC; division B: rule double -> 5-per-turn"
    assert hub.hub.event.version == 2
    assert hub.hub.event.division("B").fingerprint == lists["TINYC"][0]
    text = (tmp_path / "hub.toml").read_text()
    assert 'lexicon = "TINYC"' in text and "# the hub's journal" in text
    changes = hub.call(hub.hub.ledger.event_changes)
    assert [c["version"] for c in changes] == [1, 2]
    assert changes[1]["who"].startswith("director (from 127.0.0.1")
    assert changes[1]["who"].endswith("on the director's page")
    assert changes[1]["what"] == said["what"] and changes[1]["when"]
    # the new list is served to joining stations, the old one no more
    code = hub.hub.join_code
    assert get(f"{hub.url}/lexicon/{lists['TINYC'][0]}?code={code}")[0] == 200
    assert get(f"{hub.url}/lexicon/{lists['TINYB'][0]}?code={code}")[0] == 404


@pytest.mark.parametrize("change, said", [
    ({"name": "X", "divisions": [{"name": "A", "lexicon": "/etc/passwd"}]},
     "choose its list among the hub's lists"),
    ({"name": "X", "divisions": [
        {"name": "A", "lexicon": "TINYA", "tables": "1-20"},
        {"name": "B", "lexicon": "TINYB", "tables": "5"}]}, "overlap"),
    ({"name": "X", "divisions": []}, "1 to 26 divisions"),
    ({"name": "X\x1b[2J", "divisions": [{"name": "A", "lexicon": "TINYA"}]}, "control"),
    (["not", "a", "change"], "the panel's fields"),
])
def test_a_bad_change_at_the_panel_changes_nothing(start_hub, tmp_path, lists, change, said):
    hub = started(start_hub, tmp_path)
    if isinstance(change, dict):
        change = {**change, "version": 1}
    before = (tmp_path / "hub.toml").read_text()
    status, body = post(f"{hub.local_url}/api/event?key={hub.hub.director_token}", change)
    assert status == 400 and said in json.loads(body)["error"]
    assert hub.hub.event.version == 1 and (tmp_path / "hub.toml").read_text() == before


def test_a_restarted_hub_keeps_the_version_and_journals_a_hand_edit(start_hub, tmp_path,
                                                                    lists):
    first = started(start_hub, tmp_path)
    first.stop()
    again = started(start_hub, tmp_path)
    assert again.hub.event.version == 1  # the same event: the same version
    again.stop()
    edited = started(start_hub, tmp_path, HUB_TOML.replace('"double"', '"free"'))
    assert edited.hub.event.version == 2
    last = edited.call(edited.hub.ledger.event_changes)[-1]
    assert last["who"].startswith("hub.toml") and last["what"] == \
        "division B: rule double -> free"


# -- adjudicator join ------------------------------------------------------------------------


def station_home(tmp_path, monkeypatch):
    """An empty station machine: its own shelf, config and journal places."""
    home = tmp_path / "station"
    monkeypatch.setenv("ADJUDICATOR_SHELF", str(home / "shelf"))
    monkeypatch.setenv("ADJUDICATOR_CONFIG", str(home / "config.toml"))
    monkeypatch.setenv("ADJUDICATOR_JOURNAL", str(home / "journal.db"))
    return home


def test_join_writes_a_whole_station_config_and_fetches_the_lists(start_hub, tmp_path, lists,
                                                                  monkeypatch, run):
    hub = started(start_hub, tmp_path)
    home = station_home(tmp_path, monkeypatch)
    url = hub.join_url
    done = run("join", url, "--name", "Desk 4", "--division", "B")
    assert done.exit_code == 0, done.stderr
    cfg = load_config(str(home / "config.toml"))
    assert (cfg.event, cfg.station, cfg.hub, cfg.hub_token) == (
        "Club Open 2026", "Desk 4", hub.url, hub.hub.station_token)
    assert cfg.divisions == ("B",) and [d.name for d in cfg.event_divisions] == ["A", "B"]
    assert cfg.lexicon == "TINYB" and cfg.challenge_rule.value == "double"
    assert cfg.journal == str(home / "journal.db")
    assert os.listdir(home / "shelf") == ["TINYB.lex"]  # only the list it judges with
    from adjudicator.lexicon.library import load_lexicon

    assert load_lexicon(cfg.lexicon).fingerprint == lists["TINYB"][0]
    judged = run("judge", "--config", str(home / "config.toml"), "dog")
    assert judged.exit_code == 0 and "ACCEPTABLE" in judged.output  # TINYB has DOG
    assert done.output.splitlines()[-2:] == [  # how to start what it set up (issue 33)
        "Start it with: adjudicator kiosk",
        f"Or judge from a terminal: adjudicator judge --config {home / 'config.toml'} WORD..."]


def test_join_changes_an_existing_config_in_place(start_hub, tmp_path, lists, monkeypatch,
                                                  run):
    hub = started(start_hub, tmp_path)
    home = station_home(tmp_path, monkeypatch)
    home.mkdir()
    path = home / "desk.toml"
    path.write_text('# Desk 7, by the window\nstation = "Desk 7"\nsplit_window = 60  # slow\n'
                    'mode = "smart-device"\n[timers]\nentry_idle = 45\n')
    done = run("join", hub.join_url, "--config", str(path))
    assert done.exit_code == 0, done.stderr
    text = path.read_text()
    assert "# Desk 7, by the window" in text and "split_window = 60  # slow" in text
    cfg = load_config(str(path))
    assert cfg.station == "Desk 7" and cfg.timers.entry_idle == 45
    assert cfg.lexicon == "" and len(cfg.event_setup.served_by(cfg.divisions)) == 2  # two lists
    assert cfg.journal == str(home / "desk.db")
    assert "changed: " in done.output
    assert done.output.splitlines()[-2] == (  # a phone server: serve, not the kiosk
        f"Start it with: adjudicator serve --config {path} --host 0.0.0.0  (the players' "
        f"phones, on the hall's network; a tablet at a table: adjudicator kiosk --config {path} "
        "--session TABLE)")
    again = run("join", hub.join_url, "--config", str(path))
    assert "Already up to date" in again.output and path.read_text() == text


def test_join_mode_makes_a_phone_server_or_a_runners_desk_and_says_how_to_start_it(
        start_hub, tmp_path, lists, monkeypatch, run):
    """`join --mode smart-device` writes the phone server's config (issue 44 item 6: join
    was said to prepare one and had no way to), and its last lines start it for the hall."""
    hub = started(start_hub, tmp_path)
    home = station_home(tmp_path, monkeypatch)
    phones = home / "phones.toml"
    done = run("join", hub.join_url, "--name", "Phones", "--mode", "smart-device",
               "--config", str(phones))
    assert done.exit_code == 0, done.stderr
    assert load_config(str(phones)).mode == "smart-device"
    assert done.output.splitlines()[-2].startswith(
        f"Start it with: adjudicator serve --config {phones} --host 0.0.0.0  (")
    runner = run("join", hub.join_url, "--name", "Runner", "--mode", "runner")
    assert runner.exit_code == 0, runner.stderr
    assert load_config(str(home / "config.toml")).mode == "runner"
    assert runner.output.splitlines()[-2] == ("Start it with: adjudicator kiosk  (the runner's "
                                              "desk)")
    again = run("join", hub.join_url, "--name", "Runner")  # no --mode: the config's kept
    assert load_config(str(home / "config.toml")).mode == "runner", again.output


def test_join_failures_are_one_line_each(start_hub, tmp_path, lists, monkeypatch, run):
    hub = started(start_hub, tmp_path)
    home = station_home(tmp_path, monkeypatch)
    wrong = run("join", f"{hub.url}/join?code=nope&sha256={hub.pin}")
    assert wrong.exit_code == 2 and "wrong join code" in wrong.stderr
    assert not (home / "config.toml").exists()
    gone = run("join", f"https://127.0.0.1:1/join?code=abc&sha256={hub.pin}")
    assert gone.exit_code == 4 and "cannot reach the hub" in gone.stderr
    nonsense = run("join", "not a url")
    assert nonsense.exit_code == 2 and "is not a join address" in nonsense.stderr
    no_division = run("join", hub.join_url, "--division", "Z")
    assert no_division.exit_code == 2 and "no division 'Z'" in no_division.stderr
    old_line = run("join", f"http://127.0.0.1:{hub.port}/join?code={hub.hub.join_code}")
    assert old_line.exit_code == 2 and "carries no certificate fingerprint" in old_line.stderr
    assert "use the join line the hub prints now" in old_line.stderr
    for result in (wrong, gone, nonsense, no_division, old_line):
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("adjudicator: ")


def test_a_list_whose_fingerprint_differs_is_not_shelved(start_hub, tmp_path, lists,
                                                         monkeypatch, run):
    hub = started(start_hub, tmp_path)
    fp_a = lists["TINYA"][0]
    hub.hub.event_lists[fp_a] = lists["TINYC"][1]  # a hub serving the wrong file for A
    home = station_home(tmp_path, monkeypatch)
    done = run("join", hub.join_url, "--division", "A")
    assert done.exit_code == 3, done.stderr
    assert f"the hub sent another list (TINYC" in done.stderr
    assert not (home / "shelf").exists() or os.listdir(home / "shelf") == []
    assert not (home / "config.toml").exists()


def test_a_damaged_list_from_the_hub_is_not_shelved(start_hub, tmp_path, lists, monkeypatch,
                                                    run):
    hub = started(start_hub, tmp_path)
    bad = tmp_path / "bad.lex"
    data = bytearray(open(lists["TINYA"][1], "rb").read())
    data[3] ^= 0xFF
    bad.write_bytes(bytes(data))
    hub.hub.event_lists[lists["TINYA"][0]] = str(bad)
    home = station_home(tmp_path, monkeypatch)
    done = run("join", hub.join_url, "--division", "A")
    assert done.exit_code == 3 and "not a usable list" in done.stderr
    assert not (home / "shelf").exists() or os.listdir(home / "shelf") == []


def test_config_errors_stop_join_before_the_file_changes(tmp_path):
    from adjudicator.config.save import save_event_config

    path = tmp_path / "c.toml"
    path.write_text('station = "Desk"\n')
    with pytest.raises(ConfigError):
        save_event_config(str(path), {"hub": "ftp://x"}, [])
    assert path.read_text() == 'station = "Desk"\n'


# -- tables from tsh ---------------------------------------------------------------------------


def test_a_division_without_tables_takes_tsh_s_tables(tmp_path):
    from adjudicator.hub.event_setup import with_tsh_tables

    cfg, _ = load_hub_config(str(hub_toml(tmp_path, HUB_TOML.replace('tables = "1-20"\n', ""))))
    tourney = {"config": {"tables": {"a": [1, 2, 3, 5, "6", None, -4, "x"], "B": [99]}},
               "divisions": []}
    event = with_tsh_tables(cfg.event, tourney)
    assert event.division("A").tables_text == "1-3, 5-6"
    assert event.division("B").tables_text == "21-40"  # its own tables stay
    clash = {"config": {"tables": {"A": [20, 21]}}}
    with pytest.raises(EventError, match="divisions A and B overlap: table 21"):
        with_tsh_tables(cfg.event, clash)


def test_the_events_pin_reaches_the_station_and_no_pin_leaves_the_stations_own(
        start_hub, tmp_path, lists, monkeypatch, run):
    from adjudicator.event.pin import hash_pin, verify_pin

    from odd_station import OddStation

    pin = hash_pin("2468")
    hub = started(start_hub, tmp_path, HUB_TOML.replace(
        'name = "Club Open 2026"', f'name = "Club Open 2026"\npin_hash = "{pin}"'))
    home = station_home(tmp_path, monkeypatch)
    status, body = get(hub.join_url)
    assert status == 200 and json.loads(body)["event"]["pin_hash"] == ""  # never over /join
    done = run("join", hub.join_url)
    assert done.exit_code == 0, done.stderr
    assert load_config(str(home / "config.toml")).pin_hash == ""  # none yet: the hub's
    # answers give it once the director accepted the station (this hub accepts at once)
    status, answer = OddStation(hub.url, hub.hub.station_token).beat()
    assert status == 200 and verify_pin("2468", answer["event"]["event"]["pin_hash"])
    hub.stop()
    own = hash_pin("1357")
    path = home / "own.toml"
    path.write_text(f'pin_hash = "{own}"\n')
    cfg, _ = load_hub_config(str(hub_toml(tmp_path, HUB_TOML)))  # an event with no PIN
    event, files = pin_lists(cfg.event, cfg.path)
    nopin = start_hub(str(tmp_path / "hub2.db"), event=event, lists=files,
                      config_path=cfg.path)
    done = run("join", nopin.join_url, "--config", str(path))
    assert done.exit_code == 0, done.stderr
    assert load_config(str(path)).pin_hash == own


def test_fetch_list_puts_the_list_on_the_shelf_it_is_given(start_hub, tmp_path, lists):
    from adjudicator.link.join import fetch_event, fetch_list

    hub = started(start_hub, tmp_path)
    joined = fetch_event(hub.join_url)
    folder = tmp_path / "another-shelf"
    fp = joined.event.division("A").fingerprint
    path = fetch_list(joined.hub, joined.code, fp, str(folder))
    assert path == str(folder / "TINYA.lex")
    assert fetch_list(joined.hub, joined.code, fp, str(folder)) == path  # there: not fetched


def test_a_list_not_official_or_named_as_a_path_is_not_shelved(start_hub, tmp_path, lists,
                                                                 monkeypatch):
    """A hostile hub pins and serves a list of its own: refused, nothing written anywhere."""
    from dataclasses import replace

    import marisa_trie

    from adjudicator.lexicon.compiled import FORMAT_VERSION, fingerprint_words, write_compiled
    from adjudicator.link.join import fetch_list

    hub = started(start_hub, tmp_path)
    for name, official in (("CLUB", False), ("../evil-adjudicator-test", True)):
        words = ["QI", "ZA", "ZO"] if official else ["QI", "XU", "ZO"]
        fp = fingerprint_words(words)
        out = tmp_path / f"served-{official}.lex"
        write_compiled(str(out), marisa_trie.Trie(words).tobytes(), {
            "format": FORMAT_VERSION, "name": name, "word_count": len(words),
            "fingerprint": fp, "sources": []})
        if official:
            monkeypatch.setitem(known_lexicons(), fp, KnownLexicon(
                "CLUBX", "Club", "1", "t", len(words), fp))
        hub.hub.event_lists[fp] = str(out)
        hub.hub.event = replace(hub.hub.event, divisions=(replace(
            hub.hub.event.divisions[0], fingerprint=fp),) + hub.hub.event.divisions[1:])
        with pytest.raises(AdjudicatorError) as e:
            fetch_list(hub.url, hub.hub.join_code, fp, str(tmp_path / "s"))
        assert "not an official tournament list" in str(e.value), str(e.value)
        assert e.value.exit_code == 3
        assert not (tmp_path / "s").exists() or os.listdir(tmp_path / "s") == []
        import tempfile

        assert not os.path.exists(os.path.join(tempfile.gettempdir(),
                                               "evil-adjudicator-test.lex"))


@pytest.mark.parametrize("text, name, hub", [
    ('journal = "hub.db"\n', "hub.toml", True),  # as `adjudicator hub` writes it
    ('journal = "hub.db"\n', "station.toml", False),
    ('journal = "x.db"\n[event]\nname = "Open"\n', "event.toml", True),
    ('journal = "x.db"\ntsh = "t.js"\n', "a.toml", True),
    ('event = "Open"\nstation = "Desk"\n', "hub.toml", False),  # a station's, whatever its name
    ('station = "Desk"\n[[division]]\nname = "A"\nlexicon = "CSW19"\n', "hub.toml", False),
])
def test_set_pin_tells_a_hubs_config_from_a_stations(tmp_path, text, name, hub):
    from adjudicator.hub.event_setup import is_hub_config

    (tmp_path / name).write_text(text)
    assert is_hub_config(str(tmp_path / name)) is hub


def test_set_pin_on_a_new_hub_toml_keeps_it_a_hubs_config(tmp_path, run):
    path = tmp_path / "hub.toml"
    path.write_text('journal = "hub.db"  # the hub\'s journal\n')
    done = run("set-pin", "--config", str(path), input="246813\n246813\n")
    assert done.exit_code == 0, done.stderr
    cfg, _ = load_hub_config(str(path))  # still a hub's config: the hub starts
    assert cfg.event is not None and cfg.event.pin_hash.startswith("scrypt$")


def test_tables_from_tsh_are_not_written_into_hub_toml(tmp_path, lists):
    from dataclasses import replace

    from adjudicator.hub.event_setup import with_tsh_tables

    path = hub_toml(tmp_path, HUB_TOML.replace('tables = "1-20"\n', ""))
    cfg, _ = load_hub_config(str(path))
    before, _ = pin_lists(with_tsh_tables(cfg.event, {"config": {"tables": {"A": [1, 2]}}}),
                          cfg.path)
    after = replace(before, name="Club Open, day 2")
    save_event(str(path), after, before, frozenset({"A"}))
    again, _ = load_hub_config(str(path))
    assert again.event.name == "Club Open, day 2"
    assert again.event.division("A").tables == ()  # still tsh's to say
    moved = replace(after, divisions=(replace(after.divisions[0], tables=((3, 4),)),
                                      after.divisions[1]))
    save_event(str(path), moved, after, frozenset({"A"}))
    assert load_hub_config(str(path))[0].event.division("A").tables_text == "3-4"


def test_two_changes_at_once_are_two_versions(start_hub, tmp_path, lists):
    import threading

    hub = started(start_hub, tmp_path)
    url = f"{hub.local_url}/api/event?key={hub.hub.director_token}"
    changes = [{"name": name, "version": 1, "divisions": [
        {"name": "A", "lexicon": "TINYA", "challenge_rule": "5-per-word", "tables": "1-20"},
        {"name": "B", "lexicon": lexicon, "challenge_rule": "double", "tables": "21-40"}]}
        for name, lexicon in (("Day 2", "TINYC"), ("Day 3", "TINYA"))]
    answers = []
    threads = [threading.Thread(target=lambda c=c: answers.append(post(url, c)))
               for c in changes]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    # both loaded at version 1: one is saved, the other refused with what changed (issue 33)
    assert sorted(status for status, _ in answers) == [200, 409]
    refused = next(json.loads(body) for status, body in answers if status == 409)
    assert "the event changed since this panel was loaded (version 1, now 2)" in \
        refused["error"] and refused["event"]["event"]["version"] == 2
    versions = [c["version"] for c in hub.call(hub.hub.ledger.event_changes)]
    assert versions == [1, 2] and hub.hub.event.version == 2


# -- join as a library call (joining.py), and the one config made from an event ---------------

def test_join_event_is_a_library_call_that_says_each_step(start_hub, tmp_path, lists,
                                                          monkeypatch):
    """joining.join_event: no click, each step said through SAY as it is done (the hub asked
    first), the config written with the settings follow.prepare would take from the event."""
    from dataclasses import replace

    from adjudicator.event.setup import station_settings
    from adjudicator.station.joining import join_event

    hub = started(start_hub, tmp_path)
    home = station_home(tmp_path, monkeypatch)
    said: list[str] = []
    join_event(hub.join_url, station="Desk 9", division="A", say=said.append)
    assert said[0].startswith("Asking the hub at ") and said[1].startswith("List TINYA")
    assert said[-2:] == ["Start it with: adjudicator kiosk",
                         "Or judge from a terminal: adjudicator judge --config "
                         f"{home / 'config.toml'} WORD..."]
    cfg = load_config(str(home / "config.toml"))
    event = replace(cfg.event_setup, version=cfg.event_version)  # the event as written
    assert event.version >= 1
    settings = station_settings(event, event.served_by(("A",)))
    assert {k: getattr(cfg, k) for k in settings} == settings  # the one made from an event
    assert cfg.station == "Desk 9" and cfg.lexicon == "TINYA"


def test_join_refuses_a_name_the_hub_would_read_as_a_device(start_hub, tmp_path, lists,
                                                            monkeypatch, run):
    hub = started(start_hub, tmp_path)
    home = station_home(tmp_path, monkeypatch)
    refused = run("join", hub.join_url, "--name", "Hall / Desk 2")
    assert refused.exit_code == 2 and "between spaces" in refused.stderr
    assert "'Hall' would be the station" in refused.stderr
    assert not (home / "config.toml").exists()  # refused before the hub is asked


def test_one_config_is_made_from_an_event_for_join_and_follow(tmp_path, lists):
    """event.station_settings: the list and rule only when every served division shares one;
    follow.prepare takes the same settings from the hub's event as join writes."""
    from adjudicator.config.station import Config
    from adjudicator.event.setup import Division, Event, station_settings
    from adjudicator.station.follow import prepare
    from adjudicator.station.lists import lists_for
    from adjudicator.judging.rules import ChallengeRule
    from adjudicator.station.service import Station

    a = Division("A", "TINYA", ChallengeRule.WORD5, ((1, 20),), lists["TINYA"][0])
    b = Division("B", "TINYB", ChallengeRule.DOUBLE, ((21, 40),), lists["TINYB"][0])
    event = Event("Club Open 2026", (a, b), "", 3)
    both = station_settings(event, (a, b))
    assert both == {"event": "Club Open 2026", "event_divisions": (a, b), "event_version": 3}
    only_b = station_settings(event, (b,))
    assert only_b["lexicon"] == "TINYB" and only_b["challenge_rule"] is ChallengeRule.DOUBLE
    old = Config(journal=str(tmp_path / "s.db"), event="Before", divisions=("B",),
                 event_divisions=(a, b))
    change = prepare(Station(old, lists_for(old)), event)
    assert {k: change.changes[k] for k in only_b} == only_b
