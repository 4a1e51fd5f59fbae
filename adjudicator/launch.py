"""`adjudicator kiosk` without click: read a plain kiosk command line, start the locked kiosk."""

from __future__ import annotations

import sys


# `adjudicator kiosk`'s options: (option, parameter name). The click command in cli/kiosk.py is
# built from this table, and a test proves both parsers read every command line the same way.
KIOSK_OPTIONS = (("--config", "config_path"), ("--mode", "mode"), ("--session", "session"))


def plain_kiosk_args(args: list[str]) -> dict[str, str | None] | None:
    """The kiosk's parameters when ARGS is `kiosk` with plain, valid options; else None.

    Plain: each option once, as `--name value` or `--name=value`, with a value that is not empty
    and does not start with '-', and a mode click would accept. Nothing else is guessed at.
    """
    from .config import MODES

    if not args or args[0] != "kiosk":
        return None
    names = dict(KIOSK_OPTIONS)
    found: dict[str, str] = {}
    rest = args[1:]
    i = 0
    while i < len(rest):
        option, equals, value = rest[i].partition("=")
        if option not in names or names[option] in found:
            return None
        if not equals:
            if i + 1 == len(rest):
                return None
            i += 1
            value = rest[i]
        if not value or value.startswith("-"):
            return None
        found[names[option]] = value
        i += 1
    if found.get("mode", MODES[0]) not in MODES:
        return None
    return {"config_path": found.get("config_path"), "mode": found.get("mode"),
            "session": found.get("session", "")}


def kiosk_args(config_path: str | None, mode: str | None, session: str) -> list[str]:
    """The plain `kiosk ...` command line for these parameters (the supervised child's)."""
    args = ["kiosk"]
    for (option, _), value in zip(KIOSK_OPTIONS, (config_path, mode, session or None)):
        if value:
            args.append(f"{option}={value}")
    return args


def run_kiosk(config_path: str | None, mode: str | None, session: str) -> int:
    """Start the locked kiosk full-screen, supervised; its exit code. Errors: AdjudicatorError.

    This process supervises (adjudicator/supervise.py); the kiosk itself runs in a child,
    started again on Ready if it ever dies.
    """
    import gc
    import os

    from .config import load_config
    from .supervise import (CHILD_ENV, EXIT_CRASHED, Supervisor, child_errors_to_log,
                            child_ready_callback)

    config = load_config(config_path)  # ConfigError (exit 6) names the key; nothing starts
    if mode:
        config = config.with_changes(mode=mode)
    if not os.environ.get(CHILD_ENV):
        from .destination import check_journal

        check_journal(config.journal)  # its folder not there: one line, exit 4, nothing starts
        return Supervisor(kiosk_args(config_path, mode, session), config.journal).run()
    child_errors_to_log()
    # Start-up builds thousands of objects that live as long as the kiosk: the garbage collector
    # would walk them again and again before the first paint. The app collects once, after it.
    gc.disable()
    try:
        from kiosk.app import build_app  # Textual only here: the core never imports it

        app = build_app(config, session=session, defer_journal=True)  # LexiconError: exit 3
        app.on_first_paint = child_ready_callback()
        app.run()
    finally:
        gc.enable()
    if app.return_code:  # Textual reports a crash as 1: UNACCEPTABLE's code, never passed on
        print("adjudicator: the kiosk stopped unexpectedly (see above)", file=sys.stderr)
        return EXIT_CRASHED  # the supervisor starts it again
    return 0
