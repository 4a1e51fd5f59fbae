"""The `adjudicator` command group: one line on stderr and a fixed exit code for every error."""

from __future__ import annotations

import sys

import click

from .. import __version__
from ..errors import EXIT_ENTRY, EXIT_IO, AdjudicatorError


class Main(click.Group):
    """Maps every error to one stderr line and a fixed exit code (never 1: 1 is UNACCEPTABLE)."""

    def main(self, *args, **kwargs):
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except AdjudicatorError as e:
            _fail(str(e), e.exit_code)
        except click.UsageError as e:
            hint = f" (see '{e.ctx.command_path} --help')" if e.ctx else ""
            _fail(e.format_message() + hint, EXIT_ENTRY)
        except click.ClickException as e:
            _fail(e.format_message(), EXIT_IO)
        except click.Abort:
            _fail("interrupted", EXIT_IO)
        sys.exit(code if isinstance(code, int) else 0)


def _fail(message: str, code: int) -> None:
    click.echo(f"adjudicator: {' '.join(message.split())}", err=True)
    sys.exit(code)


@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="adjudicator")
def main() -> None:
    """Word judge for Scrabble tournaments: one collective verdict for a challenged play.

    \b
    Example:
      adjudicator judge cat xu          # -> ACCEPTABLE (embedded default list)
    """


def _register() -> None:
    from . import journal, judge, kiosk, lexicons, printer, serve

    for module in (judge, lexicons, journal, kiosk, serve, printer):
        for command in module.COMMANDS:
            main.add_command(command)


_register()
