"""A station's name, as both ends of the link read it (adjudicator/config/station_name.py)."""

from __future__ import annotations

import socket

import pytest

from adjudicator.config import station_name as stationname
from adjudicator.config.station import Config, parse_config
from adjudicator.errors import ConfigError
from adjudicator.hub import identity
from adjudicator.config.station_name import (
    SEPARATOR,
    base_name,
    default_name,
    joined,
    name_problem,
    of_station,
    with_base,
)


def test_a_phones_name_is_split_where_it_was_joined():
    name = joined("Phones", "phone-3f2a7c")
    assert name == "Phones / phone-3f2a7c"
    assert base_name(name) == "Phones" and of_station(name, "Phones")
    assert with_base(name, "Hall phones") == "Hall phones / phone-3f2a7c"
    assert joined("Desk 1") == "Desk 1" and base_name("Desk 1") == "Desk 1"
    assert not of_station("Phones 2 / x", "Phones")


def test_the_hub_splits_with_the_same_rule():
    """hub/identity.py's names are the shared ones: the hub cannot read a name apart otherwise."""
    assert identity.base_name is stationname.base_name
    assert identity.with_base is stationname.with_base


@pytest.mark.parametrize("name", ["Hall / Desk 2", " / ", "A / B / C"])
def test_the_separator_is_refused_in_a_stations_own_name(name):
    problem = name_problem(name)
    assert SEPARATOR.strip() in problem and "device" in problem
    with pytest.raises(ConfigError, match=r"key station: holds '/' between spaces"):
        parse_config({"station": name}, "station.toml")


@pytest.mark.parametrize("name", ["Hall/Desk 2", "Hall - Desk 2", "A /B", "Station 1"])
def test_a_slash_not_between_spaces_is_a_name_like_any_other(name):
    assert name_problem(name) == ""
    assert parse_config({"station": name}).station == name


def test_the_default_name_is_the_machines_else_station_1(monkeypatch):
    monkeypatch.setattr(socket, "gethostname", lambda: "desk-4\x07")
    assert default_name() == "desk-4"
    monkeypatch.setattr(socket, "gethostname", lambda: "")
    assert default_name() == Config().station == "Station 1"
    monkeypatch.setattr(socket, "gethostname", lambda: "x" * 300)
    assert default_name() == "x" * stationname.MAX_HOST_PART


def test_judge_names_a_station_as_join_does(monkeypatch, tmp_path, make_lexicon):
    """`judge --journal` without --station records under the default name, the one `join`
    writes on a machine whose config names none (joining.py uses default_name)."""
    from adjudicator.station import joining
    from adjudicator.terminal.recording import terminal_station

    monkeypatch.setattr(socket, "gethostname", lambda: "")
    station = terminal_station(make_lexicon(["QI"]), str(tmp_path / "j.db"), None)
    try:
        assert station.config.station == "Station 1"
        assert station.submit("qi").recorded
        assert [r.station for r in station.journal.rows()] == ["Station 1"]
    finally:
        station.close()
    assert joining.default_name is default_name
