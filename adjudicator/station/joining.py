"""Joining the event a hub runs: the station's whole config written from it, its lists fetched.

`adjudicator join URL` is a thin command over join_event: the config written with the settings
the event gives (event.station_settings, as a station following its hub takes them), the
hub's lines, the station's name (given, kept, or stationname.default_name) and its journal;
the event's lists this machine's shelf lacks fetched from the hub (checked by fingerprint).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from adjudicator.config.station import default_config_path, default_journal_path, load_config
from adjudicator.config.save import save_event_config
from adjudicator.errors import ConfigError, EntryError
from adjudicator.event.setup import station_settings, to_dict
from adjudicator.link.join import fetch_event, fetch_list
from adjudicator.station.lists import lists_for
from adjudicator.config.station_name import default_name, name_problem


def join_event(url: str, *, station: str | None = None, division: str | None = None,
               config_path: str | None = None, mode: str | None = None,
               say: Callable[[str], None] = print) -> None:
    """Join the hub's event at URL (`adjudicator join https://H:P/join?code=...#sha256=...`):
    STATION's name (default: the one its config has, else this machine's), the DIVISION it
    judges for (default: every one), the config CONFIG_PATH (default: the user config, or
    $ADJUDICATOR_CONFIG; an existing one changed in place), what the machine is (MODE: a
    station, a runner's desk, the phone server; default: the config's). Each step is said
    through SAY as it is done, the hub asked first. EntryError for a name or division that
    cannot be."""
    where = default_config_path(config_path)
    existing = load_config(where, must_exist=False) if os.path.exists(where) else None
    if station is not None and name_problem(station):
        raise EntryError("name", f"--name: {station!r} {name_problem(station)}")
    say(f"Asking the hub at {url.split('/join', 1)[0][:200]} for its event...")
    joined = fetch_event(url)
    event = joined.event
    served = event.divisions
    if division is not None:
        chosen = event.division(division)
        if chosen is None:
            names = ", ".join(d.name for d in event.divisions)
            raise EntryError("division", f"--division: the event has no division {division!r} "
                             f"(its divisions: {names})")
        served = (chosen,)
    for d in {d.fingerprint: d for d in served}.values():
        path = fetch_list(joined.hub, joined.code, d.fingerprint, pin=joined.fingerprint)
        say(f"List {d.lexicon} ({d.fingerprint[:12]}): {path}")
    settings = station_settings(event, served)
    del settings["event_divisions"]  # written as the file's [[division]] array
    values = {
        "station": station or (existing.station if existing and _written(where, "station")
                               else default_name()),
        "hub": joined.hub, "hub_fingerprint": joined.fingerprint, "hub_token": joined.hub_token,
        "divisions": [served[0].name] if division is not None else None,
        "lexicon": None, "challenge_rule": None,  # a key the event does not decide: taken out
    }
    if mode is not None:  # what join's last lines then say to start (issue 44 item 6)
        values["mode"] = mode
    values.update(settings)
    if "challenge_rule" in settings:
        values["challenge_rule"] = settings["challenge_rule"].value
    if not event.version:  # no version from the hub yet: the file names none
        del values["event_version"]
    if not _written(where, "journal"):
        values["journal"] = (default_journal_path() if config_path is None else
                             os.path.splitext(os.path.basename(where))[0] + ".db")
    try:
        changed = save_event_config(where, values, to_dict(event)["division"])
    except ConfigError as e:
        raise ConfigError(f"{e}; {where} is unchanged") from None
    verb = "Wrote" if existing is None else ("Updated" if changed else "Already up to date:")
    kept = " (its other settings and comments kept)" if existing is not None and changed else ""
    say(f"{verb} {where}{kept}")
    if existing is not None and changed:
        say(f"  changed: {', '.join(changed)}")
    cfg = load_config(where)
    lists = lists_for(cfg)  # as every surface will make them: the config starts as written
    served_text = ", ".join(f"{s.division.name} ({s.lexicon.name}, "
                            f"{s.division.challenge_rule.value})" for s in lists.served)
    say(f"Station {cfg.station!r} of {event.name or 'the event'}: division "
        f"{served_text}; journal {cfg.journal}; hub {cfg.hub}")
    for line in start_lines(cfg.mode, where, config_path is not None):
        say(line)


def start_lines(mode: str, where: str, named: bool) -> list[str]:
    """How to start what join set up, by the config's MODE: the kiosk (a station, a runner's
    desk), the phone server (smart-device), and judging from a terminal; WHERE: the config
    (named on each command when it is not the default one: NAMED)."""
    flag = " --config " + _quoted(where) if named else ""
    if mode == "smart-device":
        start = [f"Start it with: adjudicator serve{flag} --host 0.0.0.0  (the players' "
                 f"phones, on the hall's network; a tablet at "
                 f"a table: adjudicator kiosk{flag} --session TABLE)"]
    elif mode == "runner":
        start = [f"Start it with: adjudicator kiosk{flag}  (the runner's desk)"]
    else:
        start = [f"Start it with: adjudicator kiosk{flag}"]
    return start + [f"Or judge from a terminal: adjudicator judge --config {_quoted(where)} "
                    "WORD..."]


def _written(where: str, key: str) -> bool:
    """True when the config file WHERE sets KEY itself."""
    import tomllib

    try:
        with open(where, "rb") as f:
            return key in tomllib.load(f)
    except (OSError, ValueError):
        return False


def _quoted(text: str) -> str:
    import shlex

    return shlex.quote(text)
