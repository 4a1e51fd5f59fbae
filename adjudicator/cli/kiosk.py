"""`adjudicator kiosk` (the locked challenge station) and `adjudicator set-pin` (director's PIN)."""

from __future__ import annotations

import getpass
import sys

import click

from adjudicator.config.station import MODES, load_config
from adjudicator.config.save import save_config
from adjudicator.errors import ConfigError
from adjudicator.supervisor.options import KIOSK_OPTIONS
from adjudicator.launch import run_kiosk


# Settings of the options named in kiosk_command.KIOSK_OPTIONS (the table the click-free start reads).
KIOSK_OPTION_SETTINGS = {
    "config_path": dict(
        metavar="PATH",
        help="Config file (default: $ADJUDICATOR_CONFIG, else the user config folder)."),
    "mode": dict(type=click.Choice(MODES), default=None,
                 help="Override the config's mode: station, runner or smart-device."),
    "session": dict(default="", metavar="LABEL",
                    help="Label appended to the station name in the journal, e.g. the device "
                         "or table of a tablet in smart-device mode."),
}


def kiosk_options(command):
    for option, name in reversed(KIOSK_OPTIONS):
        command = click.option(option, name, **KIOSK_OPTION_SETTINGS[name])(command)
    return command


@click.command("kiosk")
@kiosk_options
def kiosk_cmd(config_path: str | None, mode: str | None, session: str) -> None:
    """Run the locked challenge station full-screen (WESPA 3.11.1; NASPA IV.J.1).

    Players type the words, the opponent presses TAB (or ADJUDICATE); every adjudication is
    recorded in the journal before its verdict is shown. No key leaves it: the director opens
    director mode with F12 and the PIN set by `adjudicator set-pin` (with no PIN, the station
    is a try-out: F12 opens director mode at once, where a PIN can be set).

    \b
    Examples:
      adjudicator kiosk
      adjudicator kiosk --config /etc/adjudicator/station1.toml
      adjudicator kiosk --mode smart-device --session table-12
    """
    # The `adjudicator` command starts a plain `kiosk` line without click (launch.py); this is
    # the same start for every other way in (`--config` after a mistake, CliRunner, scripts).
    code = run_kiosk(config_path, mode, session)
    if code:
        raise click.exceptions.Exit(code)


@click.command("set-pin")
@click.option("--config", "config_path", metavar="PATH",
              help="Config file to store the PIN's hash in (created when missing).")
def set_pin_cmd(config_path: str | None) -> None:
    """Set the director's PIN (asked twice, hidden); only a salted hash is stored.

    \b
    Example:
      adjudicator set-pin --config /etc/adjudicator/station1.toml
    """
    from adjudicator.event.pin import check_pin_text, hash_pin

    if config_path and _hub_config(config_path):  # the event's PIN, which stations join with
        return _set_hub_pin(config_path)
    config = load_config(config_path, must_exist=False)
    pin = read_pin("New director PIN", config.path)
    try:
        check_pin_text(pin)  # refused at once, before it is asked again
    except ConfigError as e:
        raise click.UsageError(f"{e}; no PIN was set") from None
    if read_pin("Repeat the PIN", config.path) != pin:
        raise click.UsageError(f"the two PINs differ; no PIN was set, {config.path} is "
                               "unchanged")
    where = save_config(config.with_changes(pin_hash=hash_pin(pin)))
    click.echo(f"Director PIN set (salted scrypt hash) in {where}; a station running on this "
               "config asks for it at its next F12")


def _hub_config(path: str) -> bool:
    from adjudicator.hub.event_setup import is_hub_config

    return is_hub_config(path)


def _set_hub_pin(path: str) -> None:
    """set-pin --config hub.toml: the event's PIN hash in [event], the file edited in place."""
    from adjudicator.hub.event_setup import set_hub_pin
    from adjudicator.event.pin import check_event_pin, hash_event_pin

    pin = read_pin("New director PIN for the event", path)
    try:
        check_event_pin(pin)
    except ConfigError as e:
        raise click.UsageError(f"{e}; no PIN was set") from None
    if read_pin("Repeat the PIN", path) != pin:
        raise click.UsageError(f"the two PINs differ; no PIN was set, {path} is unchanged")
    set_hub_pin(path, hash_event_pin(pin))
    click.echo(f"Director PIN set for the event (salted scrypt hash) in {path}: the hub takes "
               "it at its next start or its next look at the event (journaled as hub.toml's), "
               "and hands it to the stations the director accepted")


def read_pin(prompt: str, config_path: str) -> str:
    """One PIN entry: hidden, from the terminal when standard input is one; else one line of
    standard input (a script, a pipe, ssh without a tty), whether or not a terminal exists
    (issue 21). The prompt goes to stderr. End of input: nothing set (exit 6, file unchanged)."""
    stdin = sys.stdin
    try:
        if stdin is not None and stdin.isatty():
            return getpass.getpass(f"{prompt}: ", stream=sys.stderr)
        sys.stderr.write(f"{prompt}: ")
        sys.stderr.flush()
        line = stdin.readline() if stdin is not None else ""
        sys.stderr.write("\n")
    except EOFError:
        line = ""
    if not line:
        raise ConfigError(f"no PIN was set; {config_path} is unchanged")
    return line.rstrip("\r\n")


COMMANDS = [kiosk_cmd, set_pin_cmd]
