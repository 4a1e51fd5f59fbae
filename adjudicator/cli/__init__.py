"""The `adjudicator` command group: one line on stderr and a fixed exit code for every error."""

from __future__ import annotations

import click

from .. import __version__
from ..errors import AdjudicatorError


class Main(click.Group):
    """Maps the core's errors to one stderr line and their exit code (never 1: 1 is UNACCEPTABLE)."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except AdjudicatorError as e:
            click.echo(f"adjudicator: {e}", err=True)
            ctx.exit(e.exit_code)


@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="adjudicator")
def main() -> None:
    """Word judge for Scrabble tournaments: one collective verdict for a challenged play.

    \b
    Example:
      adjudicator judge cat xu          # -> ACCEPTABLE (embedded default list)
    """


def _register() -> None:
    from . import judge, lexicons

    for module in (judge, lexicons):
        for command in module.COMMANDS:
            main.add_command(command)


_register()
