"""The `adjudicator` command's entry: a plain `kiosk` start skips click; all else goes to click."""

from __future__ import annotations

import sys

from adjudicator.errors import EXIT_INTERRUPTED, AdjudicatorError, fail
from adjudicator.supervisor.options import plain_kiosk_args
from adjudicator.launch import run_kiosk


def main(argv: list[str] | None = None) -> None:
    """Run the command line ARGV (default: sys.argv[1:]) and exit with the command's code.

    A station boots straight into `adjudicator kiosk [--config P] [--mode M] [--session S]`;
    that line starts the kiosk without importing click (about 15 ms of its cold start, issue 3).
    Anything else (help, a mistake, every other command) is click's to parse and answer.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    kiosk_args = plain_kiosk_args(args)
    if kiosk_args is None:
        from adjudicator.cli import main as cli

        cli.main(args, prog_name="adjudicator")
        return
    try:
        code = run_kiosk(**kiosk_args)
    except AdjudicatorError as e:
        fail(str(e), e.exit_code)
    except KeyboardInterrupt:
        fail("interrupted", EXIT_INTERRUPTED)
    sys.exit(code)
