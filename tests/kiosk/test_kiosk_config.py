"""The config file: every key optional, checked as a whole, the bad key named, saved atomically."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import pytest
from pty_driver import REPO

from adjudicator.config.station import (
    Config,
    Timers,
    default_config_path,
    load_config,
    parse_config,
)
from adjudicator.config.save import save_config
from adjudicator.errors import EXIT_CONFIG, ConfigError
from adjudicator.judging.rules import ChallengeRule

EXAMPLE = """
event = "Club Night"
station = "Station 1"
mode = "station"
lexicon = "CSW21"
secondary_lexicon = "CSW19"
lexicon_dirs = ["/srv/lexicons"]
challenge_rule = "10-per-word"
journal = "journals/station1.db"
split_window = 60
pin_hash = ""
[timers]
entry_idle = 20
verdict_hold = 3
verdict_clear = 12
[printer]
url = "socket://192.168.1.50:9100"
baudrate = 9600
flow = "rtscts"
write_timeout = 4
paper = "58mm"
columns = 32
"""


def test_every_key_read(tmp_path):
    path = tmp_path / "station.toml"
    path.write_text(EXAMPLE)
    cfg = load_config(str(path))
    assert (cfg.event, cfg.station, cfg.mode) == ("Club Night", "Station 1", "station")
    assert (cfg.lexicon, cfg.secondary_lexicon) == ("CSW21", "CSW19")
    assert cfg.lexicon_dirs == ("/srv/lexicons",)
    assert cfg.challenge_rule is ChallengeRule.WORD10
    assert cfg.journal == str(tmp_path / "journals" / "station1.db")  # relative to the file
    assert cfg.split_window == 60.0
    assert cfg.timers == Timers(entry_idle=20, verdict_hold=3, verdict_clear=12)
    p = cfg.printer
    assert (p.url, p.baudrate, p.flow, p.write_timeout, p.paper, p.columns) == (
        "socket://192.168.1.50:9100", 9600, "rtscts", 4.0, "58mm", 32)
    assert p.enabled and cfg.path == str(path)


def test_defaults_when_no_file_at_the_default_place(tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("ADJUDICATOR_JOURNAL", str(tmp_path / "j.db"))
    cfg = load_config(None)
    assert cfg.station == "Station 1" and cfg.challenge_rule is ChallengeRule.WORD5
    assert cfg.timers == Timers(30, 2, 15) and not cfg.printer.enabled
    assert cfg.journal == str(tmp_path / "j.db") and cfg.path == str(tmp_path / "none.toml")


def test_config_path_order(tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_CONFIG", "/from/env.toml")
    assert default_config_path("/given.toml") == "/given.toml"
    assert default_config_path(None) == "/from/env.toml"
    monkeypatch.delenv("ADJUDICATOR_CONFIG")
    assert default_config_path(None).endswith(os.path.join("adjudicator", "config.toml"))


def test_explicit_missing_file_is_an_error_not_defaults(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(str(tmp_path / "typo.toml"))


@pytest.mark.parametrize("text, key", [
    ('statoin = "x"', "key statoin"),
    ('station = 7', "key station"),
    ('station = ""', "key station"),
    ('mode = "arcade"', "key mode"),
    ('challenge_rule = "7-per-word"', "key challenge_rule"),
    ('lexicon_dirs = [1]', "key lexicon_dirs"),
    ('split_window = -1', "key split_window"),
    ('timers = 3', "key timers"),
    ('[timers]\nentry_idle = "soon"', "key timers.entry_idle"),
    ('[timers]\nverdict_hold = true', "key timers.verdict_hold"),
    ('[timers]\nverdict_hold = 20\nverdict_clear = 10', "timers.verdict_hold"),
    ('[timers]\nbogus = 1', "key timers.bogus"),
    # TOML reads nan and inf as floats: every timer and timeout refuses them, naming the key
    ('[timers]\nentry_idle = nan', "key timers.entry_idle"),
    ('[timers]\nverdict_hold = nan', "key timers.verdict_hold"),
    ('[timers]\nverdict_clear = inf', "key timers.verdict_clear"),
    ('[timers]\nverdict_hold = -nan', "key timers.verdict_hold"),
    ('[timers]\nentry_idle = 1e308', "key timers.entry_idle"),
    ('split_window = inf', "key split_window"),
    ('[printer]\nwrite_timeout = nan', "key printer.write_timeout"),
    ('[printer]\nflow = "hardware"', "key printer.flow"),
    ('[printer]\npaper = "A4"', "key printer.paper"),
    ('[printer]\ncolumns = 300', "key printer.columns"),
    ('[printer]\ncolumns = 20', "key printer.columns"),  # slips need 24 (the tick and cross)
    ('[printer]\nbaudrate = 9600.5', "key printer.baudrate"),
])
def test_bad_key_is_named(tmp_path, text, key):
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n")
    with pytest.raises(ConfigError) as e:
        load_config(str(path))
    assert key in str(e.value) and str(path) in str(e.value)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 1e308, -1.0])
def test_timers_built_any_way_refuse_non_finite_seconds_naming_the_key(value):
    """The director's screen and code build Timers too: nan never reaches the protocol."""
    with pytest.raises(ConfigError, match="timers.verdict_clear"):
        Timers(verdict_clear=value)


def test_not_toml_is_refused_with_the_line(tmp_path):
    path = tmp_path / "not_toml.toml"
    path.write_text('station = "x\n')
    with pytest.raises(ConfigError, match="not valid TOML.*line 1"):
        load_config(str(path))


def test_save_and_load_round_trip(tmp_path):
    path = tmp_path / "sub" / "c.toml"
    cfg = parse_config({"station": "Hall", "challenge_rule": "double",
                        "timers": {"verdict_clear": 9}}, str(path))
    save_config(cfg)
    again = load_config(str(path))
    assert again == cfg
    assert os.stat(path).st_mode & 0o077 == 0  # the PIN hash is not for other users
    assert not [p for p in os.listdir(path.parent) if p.startswith(".config-")]


def test_config_module_is_core_without_textual():
    code = "import sys, adjudicator.config.station, adjudicator.event.pin; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert out.stdout.strip() == "False", out.stderr


@pytest.mark.parametrize("text, key", [('mode = "x"', "key mode"),
                                       ('[timers]\nentry_idle = "soon"', "timers.entry_idle"),
                                       ('[timers]\nverdict_clear = nan', "timers.verdict_clear")])
def test_kiosk_refuses_to_start_on_invalid_config(tmp_path, text, key):
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n")
    env = dict(os.environ, PYTHONPATH=REPO)
    out = subprocess.run([sys.executable, "-m", "adjudicator", "kiosk", "--config", str(path)],
                         capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == EXIT_CONFIG
    assert out.stderr.startswith("adjudicator: ") and key in out.stderr
    assert "\x1b[" not in out.stdout  # nothing was painted: the kiosk did not start


def test_with_changes_keeps_the_rest(tmp_path):
    cfg = Config(path=str(tmp_path / "c.toml"))
    changed = cfg.with_changes(station="B", journal_setting="j.db")
    assert changed.station == "B" and changed.journal == str(tmp_path / "j.db")
    assert changed.timers == cfg.timers


def test_director_idle_is_a_timer_key_with_a_floor():
    from adjudicator.config.station import parse_config
    from adjudicator.errors import ConfigError

    assert parse_config({"timers": {"director_idle": 300}}).timers.director_idle == 300
    with pytest.raises(ConfigError, match="timers.director_idle"):
        parse_config({"timers": {"director_idle": 1}})


@pytest.mark.parametrize("key,value", [("station", "Hall\\u001b[41m 2"), ("event", "Open\\u202e"),
                                       ("station", "Hall\\u200b2")])
def test_a_name_holding_a_control_is_refused_naming_it(tmp_path, key, value):
    """Issue 21: the station and event names are drawn on every screen: an ESC in one was
    written to the terminal as-is (a red header). Refused, named by its code."""
    path = tmp_path / "bad.toml"
    path.write_text(f'{key} = "{value}"\n')
    with pytest.raises(ConfigError) as e:
        load_config(str(path))
    code = value.split("\\u")[1][:4].upper()
    assert f"key {key}: holds U+{code}" in str(e.value)
    assert parse_config({"station": "Hall 2 · Tisch 3", "event": "Grand Prix d'Été"})
