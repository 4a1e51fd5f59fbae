"""The `adjudicator kiosk` command line's options, and a plain one read without click."""

from __future__ import annotations

from adjudicator.config.modes import MODES

# `adjudicator kiosk`'s options: (option, parameter name). The click command in cli/kiosk.py is
# built from this table, and a test proves both parsers read every command line the same way.
KIOSK_OPTIONS = (("--config", "config_path"), ("--mode", "mode"), ("--session", "session"))


def plain_kiosk_args(args: list[str]) -> dict[str, str | None] | None:
    """The kiosk's parameters when ARGS is `kiosk` with plain, valid options; else None.

    Plain: each option once, as `--name value` or `--name=value`, with a value that is not empty
    and does not start with '-', and a mode click would accept. Nothing else is guessed at.
    """
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
