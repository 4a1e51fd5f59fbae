"""The `adjudicator` command group: one line on stderr and a fixed exit code for every error."""

from __future__ import annotations

import importlib
import sys

import click

from .. import __version__
from ..errors import EXIT_ENTRY, EXIT_IO, AdjudicatorError, fail


class Main(click.Group):
    """Maps every error to one stderr line and a fixed exit code (never 1: 1 is UNACCEPTABLE)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module_name = COMMAND_MODULES.get(name)
        if module_name is None:
            return None
        module = importlib.import_module(f"{__name__}.{module_name}")
        return next(c for c in module.COMMANDS if c.name == name)

    def main(self, *args, **kwargs):
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except AdjudicatorError as e:
            fail(str(e), e.exit_code)
        except click.UsageError as e:
            hint = f" (see '{e.ctx.command_path} --help')" if e.ctx else ""
            fail(e.format_message() + hint, EXIT_ENTRY)
        except click.ClickException as e:
            fail(e.format_message(), EXIT_IO)
        except click.Abort:
            fail("interrupted", EXIT_IO)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="adjudicator")
def main() -> None:
    """Word judge for Scrabble tournaments: one collective verdict for a challenged play.

    \b
    Example:
      adjudicator judge cat xu          # -> ACCEPTABLE (embedded default list)
    """


# Each command's module is imported only when that command runs (or help lists them all), so
# `adjudicator kiosk` does not pay for the printer's or the server's imports at start-up.
COMMAND_MODULES = {
    "judge": "judge",
    "compile": "lexicons",
    "info": "lexicons",
    "journal": "journal",
    "kiosk": "kiosk",
    "set-pin": "kiosk",
    "serve": "serve",
    "printer": "printer",
}
