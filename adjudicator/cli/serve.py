"""`adjudicator serve`: the locked kiosk for phones and tablets in a browser, behind a token."""

from __future__ import annotations

import os
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
@click.option("--max-sessions", default=48, show_default=True, type=click.IntRange(1, 1000),
              help="Most devices connected at once (each runs its own kiosk).")
@click.pass_context
def serve_cmd(ctx: click.Context, host: str, port: int, config_path: str | None,
              token_file: str | None, rotate_token: bool, max_sessions: int) -> None:
    """Serve the locked kiosk to phones and tablets: smart-device mode (WESPA 3.11.1(b)).

    Every browser tab gets its own kiosk in adjudication mode only, journaled as
    "smart device" with a session label; closing the tab ends it. Nothing but the URL
    printed here (with its token, also shown as a QR code) opens it.

    \b
    Examples:
      adjudicator serve                                  # this computer only
      adjudicator serve --host 0.0.0.0 --config event.toml
      adjudicator serve --rotate-token --config event.toml   # new round, new code
    """
    from ..config import load_config
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
    tokens.ensure()
    from kiosk.web.server import KioskServer

    kiosk_config = os.path.abspath(cfg.path) if (config_path or os.path.exists(cfg.path)) else None
    KioskServer(config_path=kiosk_config, tokens=tokens, host=host, port=port,
                max_sessions=max_sessions).serve()


COMMANDS = [serve_cmd]
