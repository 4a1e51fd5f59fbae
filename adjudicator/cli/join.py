"""`adjudicator join URL`: a station's whole config for the event, its lists from the hub."""

from __future__ import annotations

import sys

import click

from adjudicator.config.modes import MODES


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
    from adjudicator.station.joining import join_event

    def say(line: str) -> None:  # each step as it is done: an output that cannot be written
        click.echo(line)  # is said before anything is done
        sys.stdout.flush()

    join_event(url, station=station, division=division, config_path=config_path, mode=mode,
               say=say)


COMMANDS = [join_cmd]
