"""`adjudicator join URL`: a station's whole config for the event, its lists from the hub."""

from __future__ import annotations

import os
import socket
import sys

import click

from ..modes import MODES


@click.command("join")
@click.argument("url", metavar="URL")
@click.option("--name", "station", metavar="NAME",
              help="This station's name (default: the one its config has, else the machine's).")
@click.option("--division", "division", metavar="D",
              help="The division this station judges for (default: every division).")
@click.option("--config", "config_path", metavar="PATH",
              help="The config to write (default: the user config file, or "
                   "$ADJUDICATOR_CONFIG); an existing one is changed in place.")
@click.option("--mode", type=click.Choice(MODES), default=None,
              help="What this machine is: a challenge station, a runner's desk, or the "
                   "players' phone server (smart-device)  [default: the config's, else "
                   "station]")
def join_cmd(url: str, station: str | None, division: str | None,
             config_path: str | None, mode: str | None) -> None:
    """Join the event a hub runs: one command sets this station up.

    URL is the `adjudicator join https://H:P/join?code=...#sha256=...` address the hub printed
    (its sha256: the hub's certificate, the only one this station will trust). Writes the
    station's config (the event, its divisions, lists by name, rules, the hub lines, its
    journal; the director's PIN comes from the hub once the director accepts the station), and
    fetches from the hub the event's lists this machine's shelf lacks (checked by fingerprint
    before they are shelved). Then `adjudicator kiosk` (a station, a runner's desk) and
    `adjudicator serve` (the phone server) need no other setting.

    \b
    Examples:
      adjudicator join https://192.168.1.20:8080/join?code=...#sha256=...
      adjudicator join https://192.168.1.20:8080/join?code=...#sha256=... --name "Desk 4"
      adjudicator join URL --name Phones --mode smart-device --config phones.toml
    """
    from ..config import default_config_path, default_journal_path, load_config, \
        station_name_problem
    from ..config_save import save_event_config
    from ..errors import ConfigError, EntryError
    from ..event import to_dict
    from ..lists import lists_for
    from ..link.join import fetch_event, fetch_list

    where = default_config_path(config_path)
    existing = load_config(where, must_exist=False) if os.path.exists(where) else None
    if station is not None and station_name_problem(station):
        raise EntryError("name", f"--name: {station!r} {station_name_problem(station)}")
    click.echo(f"Asking the hub at {url.split('/join', 1)[0][:200]} for its event...")
    sys.stdout.flush()  # standard output that cannot be written is said before anything is done
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
        click.echo(f"List {d.lexicon} ({d.fingerprint[:12]}): {path}")
    lists = {(d.lexicon, d.fingerprint) for d in served}
    rules = {d.challenge_rule.value for d in served}
    name = station or (existing.station if existing and _written(where, "station") else
                       _machine_name())
    values = {
        "station": name,
        "hub": joined.hub, "hub_fingerprint": joined.fingerprint, "hub_token": joined.hub_token,
        "divisions": [served[0].name] if division is not None else None,
        "lexicon": next(iter(lists))[0] if len(lists) == 1 else None,
        "challenge_rule": next(iter(rules)) if len(rules) == 1 else None,
    }
    if mode is not None:  # what join's last lines then say to start (issue 44 item 6)
        values["mode"] = mode
    if event.name:
        values["event"] = event.name
    if event.version:  # the version a hub out of reach is said to leave it on (issue 40)
        values["event_version"] = event.version
    if event.pin_hash:  # an event without a PIN leaves the station's own PIN as it is
        values["pin_hash"] = event.pin_hash
    if not _written(where, "journal"):
        values["journal"] = (default_journal_path() if config_path is None else
                             os.path.splitext(os.path.basename(where))[0] + ".db")
    try:
        changed = save_event_config(where, values, to_dict(event)["division"])
    except ConfigError as e:
        raise ConfigError(f"{e}; {where} is unchanged") from None
    verb = "Wrote" if existing is None else ("Updated" if changed else "Already up to date:")
    kept = " (its other settings and comments kept)" if existing is not None and changed else ""
    click.echo(f"{verb} {where}{kept}")
    if existing is not None and changed:
        click.echo(f"  changed: {', '.join(changed)}")
    cfg = load_config(where)
    lists = lists_for(cfg)  # as every surface will make them: the config starts as written
    served_text = ", ".join(f"{s.division.name} ({s.lexicon.name}, "
                            f"{s.division.challenge_rule.value})" for s in lists.served)
    click.echo(f"Station {cfg.station!r} of {event.name or 'the event'}: division "
               f"{served_text}; journal {cfg.journal}; hub {cfg.hub}")
    for line in start_lines(cfg.mode, where, config_path is not None):
        click.echo(line)


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


def _machine_name() -> str:
    name = "".join(c for c in socket.gethostname() if c.isprintable()).strip()[:60]
    return name or "Station 1"


def _quoted(text: str) -> str:
    import shlex

    return shlex.quote(text)


COMMANDS = [join_cmd]
