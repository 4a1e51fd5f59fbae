"""The `adjudicator` command group: one line on stderr and a fixed exit code for every error."""

from __future__ import annotations

import errno
import importlib
import os
import signal
import sys

import click

from adjudicator import __version__
from adjudicator.errors import EXIT_ENTRY, EXIT_INTERRUPTED, EXIT_IO, AdjudicatorError, fail


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

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # before click's own handler, which would exit 1
            die_of_sigpipe()
        except KeyboardInterrupt:  # before click's, which adds a blank line to the one line
            if sys.stderr is not None and sys.stderr.isatty():
                sys.stderr.write("\n")  # end the terminal's ^C echo
            fail("interrupted", EXIT_INTERRUPTED)

    def main(self, *args, **kwargs):
        kwargs["standalone_mode"] = False
        if sys.stdout is None:  # started with stdout closed (>&-): writing to it fails, exit 4
            sys.stdout = ClosedOutput()
        try:
            code = super().main(*args, **kwargs)
            sys.stdout.flush()  # a full disk or closed pipe is found here, not at exit
        except BrokenPipeError:
            die_of_sigpipe()
        except OSError as e:  # standard output (or a file no command caught) cannot be written
            fail(describe_os_error(e), EXIT_IO)
        except AdjudicatorError as e:
            fail(str(e), e.exit_code)
        except click.exceptions.NoArgsIsHelpError as e:  # `adjudicator` alone: its help, as asked
            self._help(e.ctx)
            code = 0
        except click.UsageError as e:
            hint = f" (see '{e.ctx.command_path} --help')" if e.ctx else ""
            fail(e.format_message() + hint, EXIT_ENTRY)
        except click.ClickException as e:
            fail(e.format_message(), EXIT_IO)
        except click.Abort:
            fail("interrupted", EXIT_INTERRUPTED)
        sys.exit(code if isinstance(code, int) else 0)


    @staticmethod
    def _help(ctx: click.Context | None) -> None:
        try:
            click.echo(ctx.get_help() if ctx else "see 'adjudicator --help'")
            sys.stdout.flush()
        except BrokenPipeError:
            die_of_sigpipe()
        except OSError as e:
            stop_writing_stdout()
            fail(f"cannot write standard output: {e.strerror or e}", EXIT_IO)


class ClosedOutput:
    """Standard output when the process was started without one: every write fails (exit 4)."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        pass  # nothing was ever written

    def isatty(self) -> bool:
        return False


def describe_os_error(e: OSError) -> str:
    """One line for an OSError no command caught: standard output's, or a named file's."""
    why = e.strerror or str(e)
    if e.filename is None and e.errno in _STDOUT_ERRNOS:  # what writing stdout raises
        stop_writing_stdout()
        return f"cannot write standard output: {why}"
    if e.filename is not None:
        return f"cannot read or write {e.filename}: {why}"
    return f"input/output error: {why}"


# A full disk or quota, a descriptor not open for writing, a device error: how a write to
# standard output fails (a closed pipe, EPIPE, is not an error: die_of_sigpipe).
_STDOUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EBADF, errno.EIO}


def stop_writing_stdout() -> None:
    """Point fd 1 at /dev/null, so the interpreter's last flush of what is buffered succeeds
    quietly instead of printing 'Exception ignored' and exiting 120."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def die_of_sigpipe() -> None:
    """The reader of a pipe went away (`... | head -1`): end as `cat` does, by SIGPIPE, quietly.
    Never exit 1, which would read as UNACCEPTABLE."""
    stop_writing_stdout()
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGPIPE)
    sys.exit(0)


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
    "lexicon": "lexicons",
    "journal": "journal",
    "kiosk": "kiosk",
    "set-pin": "kiosk",
    "serve": "serve",
    "hub": "hub",
    "join": "join",
    "printer": "printer",
}
