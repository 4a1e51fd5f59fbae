"""`adjudicator serve`: the phone page (one aiohttp process) for phones and tablets, by token."""

from __future__ import annotations

import os
import signal
import sys

import click
from click.core import ParameterSource


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets phones on the venue network connect.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--config", "config_path", metavar="PATH",
              help="Config file (default: $ADJUDICATOR_CONFIG, else the user config folder). "
                   "The token is kept next to it, in <name>.token.")
@click.option("--token-file", metavar="PATH",
              help="Where the token is kept (default: next to the config, <name>.token); "
                   "give the same file to --rotate-token.")
@click.option("--rotate-token", is_flag=True,
              help="Make a new token (old links and codes stop working at once), print the new "
                   "URL and QR code, and exit. A running server needs no restart.")
@click.option("--max-phones", default=300, show_default=True, type=click.IntRange(1, 5000),
              help="Most phone pages open at once; the next phone is told the limit is reached.")
@click.option("--per-device", default=2, show_default=True, type=click.IntRange(1, 20),
              help="Pages one device may hold (a newer page replaces its oldest).")
@click.option("--per-address", default=8, show_default=True, type=click.IntRange(0, 5000),
              help="Pages one network address may hold (0: no cap).")
@click.option("--idle-timeout", default=10.0, show_default=True, type=click.FloatRange(0.2, 600),
              help="Seconds a connection may take to send a whole request, or stay idle "
                   "between requests, before it is closed.")
@click.pass_context
def serve_cmd(ctx: click.Context, host: str, port: int, config_path: str | None,
              token_file: str | None, rotate_token: bool, max_phones: int, per_device: int,
              per_address: int, idle_timeout: float) -> None:
    """Serve the word judge to every phone and tablet at an event: smart-device mode (WESPA
    3.11.1(b)).

    One server process serves every phone a plain page (adjudication only): the table is
    chosen, the challenger types, the opponent taps ADJUDICATE or presses Enter. Every
    verdict is journaled first, as "smart device" with the table and the device. Nothing
    but the URL printed here (with its token, also shown as a QR code) opens it.

    \b
    Examples:
      adjudicator serve                                  # this computer only
      adjudicator serve --host 0.0.0.0 --config event.toml
      adjudicator serve --rotate-token --config event.toml   # new round, new code
    """
    from adjudicator.config.station import load_config
    from adjudicator.net.announce import base_url, print_url, token_url
    from adjudicator.net.token import TokenStore, token_path

    cfg = load_config(config_path)
    tokens = TokenStore(os.path.abspath(token_file) if token_file else token_path(cfg.path))
    if rotate_token:
        token = tokens.rotate()
        explicit = any(ctx.get_parameter_source(p) is not ParameterSource.DEFAULT
                       for p in ("host", "port"))
        base = base_url(host, port) if explicit or not tokens.base() else tokens.base()
        print_url(token_url(base, token), sys.stdout,
                  heading="New token: old links no longer open the judge. New link:")
        return
    from adjudicator.files.destination import check_journal

    check_journal(cfg.journal)  # a folder not there (a drive not mounted): exit 4, not started
    tokens.ensure()
    from adjudicator.phone.build import build_phone_app
    from adjudicator.phone.limits import Limits
    from adjudicator.phone.run import PhoneServer

    limits = Limits(max_phones=max_phones, per_device=per_device, per_address=per_address,
                    idle_timeout=idle_timeout)
    app = build_phone_app(cfg, tokens=tokens, limits=limits,
                          warn=lambda text: click.echo(f"adjudicator: warning: {text}", err=True))
    server = PhoneServer(app, host=host, port=port)
    server.serve()  # every page closed, whatever the signal
    if server.stopped_by == signal.SIGINT:  # Ctrl-C: 130 and one line, as `hub` (README)
        raise KeyboardInterrupt


COMMANDS = [serve_cmd]
