"""`adjudicator kiosk` (the locked challenge station) and `adjudicator set-pin` (director's PIN)."""

from __future__ import annotations

import gc

import click

from ..config import MODES, load_config, save_config
from ..errors import EXIT_IO, ConfigError


@click.command("kiosk")
@click.option("--config", "config_path", metavar="PATH",
              help="Config file (default: $ADJUDICATOR_CONFIG, else the user config folder).")
@click.option("--mode", type=click.Choice(MODES), default=None,
              help="Override the config's mode: station, runner or smart-device.")
@click.option("--session", default="", metavar="LABEL",
              help="Label appended to the station name (one browser session, one phone).")
def kiosk_cmd(config_path: str | None, mode: str | None, session: str) -> None:
    """Run the locked challenge station full-screen (WESPA 3.11.1; NASPA IV.J.1).

    Players type the words, the opponent presses TAB (or ADJUDICATE); every adjudication is
    recorded in the journal before its verdict is shown. No key leaves it: the director opens
    director mode with F12 and the PIN set by `adjudicator set-pin`.

    \b
    Examples:
      adjudicator kiosk
      adjudicator kiosk --config /etc/adjudicator/station1.toml
      adjudicator kiosk --mode smart-device --session table-12
    """
    config = load_config(config_path)  # ConfigError (exit 6) names the key; nothing starts
    if mode:
        config = config.with_changes(mode=mode)
    # Start-up builds thousands of objects that live as long as the kiosk: the garbage collector
    # would walk them again and again before the first paint. The app collects once, after it.
    gc.disable()
    try:
        from kiosk.app import build_app  # Textual only here: the core never imports it

        app = build_app(config, session=session, defer_journal=True)  # LexiconError: exit 3
        app.run()
    finally:
        gc.enable()
    if app.return_code:  # Textual reports a crash as 1: UNACCEPTABLE's code, never passed on
        click.echo("adjudicator: the kiosk stopped unexpectedly (see above)", err=True)
        raise click.exceptions.Exit(EXIT_IO)


@click.command("set-pin")
@click.option("--config", "config_path", metavar="PATH",
              help="Config file to store the PIN's hash in (created when missing).")
def set_pin_cmd(config_path: str | None) -> None:
    """Set the director's PIN (asked twice, hidden); only a salted hash is stored.

    \b
    Example:
      adjudicator set-pin --config /etc/adjudicator/station1.toml
    """
    from ..pin import check_pin_text, hash_pin

    config = load_config(config_path, must_exist=False)
    try:
        pin = click.prompt("New director PIN", hide_input=True,
                           confirmation_prompt="Repeat the PIN")
    except click.exceptions.Abort:  # end of input or ctrl+c: exit 6, never 1 (UNACCEPTABLE)
        raise ConfigError(f"no PIN was set; {config.path} is unchanged") from None
    check_pin_text(pin)
    where = save_config(config.with_changes(pin_hash=hash_pin(pin)))
    click.echo(f"Director PIN set (salted scrypt hash) in {where}")


COMMANDS = [kiosk_cmd, set_pin_cmd]
