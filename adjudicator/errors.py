"""One small error tree: every failure the core can report, each with its CLI exit code."""

from __future__ import annotations

import sys

# Exit codes (0 ACCEPTABLE and 1 UNACCEPTABLE belong to verdicts; errors are 2 or more so no
# script can mistake an error for UNACCEPTABLE).
EXIT_ENTRY = 2  # malformed entry, invalid batch line, bad command-line usage
EXIT_LEXICON = 3  # lexicon missing, refused or corrupt; word list refused
EXIT_IO = 4  # a file that cannot be read or written
EXIT_NOT_RECORDED = 5  # the verdict was given but the journal could not record it
EXIT_CONFIG = 6  # configuration file invalid
EXIT_PRINTER = 7  # printer problem (printer test)
EXIT_HANGUP = 129  # the kiosk's terminal hung up: 128 + SIGHUP
EXIT_INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as a shell reports it
EXIT_TERMINATED = 143  # the kiosk stopped by SIGTERM: 128 + SIGTERM


class AdjudicatorError(Exception):
    """Base of every error the project reports to a person in one line."""

    exit_code = EXIT_IO


class FileAccessError(AdjudicatorError):
    """A file (or standard output) that cannot be read or written: exit 4."""

    exit_code = EXIT_IO


class EntryError(AdjudicatorError):
    """A typed entry that cannot be judged; `code` names the rejection."""

    exit_code = EXIT_ENTRY

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


class LexiconError(AdjudicatorError):
    """A lexicon that cannot be used: missing, refused, corrupt or foreign."""

    exit_code = EXIT_LEXICON


class WordListError(LexiconError):
    """A source word list refused at a given line."""

    def __init__(self, path: str, line_no: int, line: str, reason: str):
        shown = line if len(line) <= 40 else line[:40] + "..."
        super().__init__(f"{path}, line {line_no}: {reason}: {shown!r}")
        self.path, self.line_no, self.line, self.reason = path, line_no, line, reason


class ConfigError(AdjudicatorError):
    """A configuration file that cannot be used as a whole."""

    exit_code = EXIT_CONFIG


class JournalError(AdjudicatorError):
    """The journal cannot be written, read or verified."""

    exit_code = EXIT_NOT_RECORDED


class JournalLockedError(JournalError):
    """Another program held the journal's lock past the wait: nothing was written."""


class JournalLostError(JournalError):
    """The file at the journal's path is no longer the one the station opened (deleted,
    replaced by another file or a folder): nothing is written into the file it holds (issue 42)."""


class JournalUnwritableError(JournalError):
    """The journal's files cannot be written now (read-only, immutable): nothing was tried."""


class JournalFileError(JournalError, FileAccessError):
    """A journal file that is not there or cannot be read: exit 4, still a JournalError."""

    exit_code = EXIT_IO


class HubRefusal(AdjudicatorError):
    """What the hub will not take from a station: a request, or rows for the hub journal
    (hub/refusals.py). The hub answers it with an HTTP refusal (4xx) and records nothing; it is
    no journal's failure. A command meets it as the station's `journal push`, which exits 4 with
    the hub's reason, as when the hub cannot be reached: nothing is lost, the rows wait."""

    exit_code = EXIT_IO


class PrinterError(AdjudicatorError):
    """The docket printer cannot be reached or reports a fault."""

    exit_code = EXIT_PRINTER


def fail(message: str, code: int) -> None:
    """One line on stderr, then exit CODE (never 1: 1 is UNACCEPTABLE)."""
    if sys.stderr is not None:  # with stderr closed, the exit code alone must tell
        try:
            print(f"adjudicator: {' '.join(message.split())}", file=sys.stderr, flush=True)
        except OSError:
            pass
    sys.exit(code)
