"""A station's name, as both ends of the link read it: its own part, then a device's, one separator.

A phone's (or a `kiosk --session`'s) rows name "<station> / <device>"; the hub reads the part
before the first SEPARATOR as the station (hub/identity.py, hub/board.py). So a station's own
name may not hold SEPARATOR: "Hall / Desk 2" would be read as station "Hall", device "Desk 2"
(docs/station.md). Both ends import this module; neither writes the separator itself.
"""

from __future__ import annotations

from adjudicator.text.entry import describe_char
from adjudicator.text.visible import is_hidden

SEPARATOR = " / "
MAX_STATION_NAME = 100  # characters: the hub takes 500, a phone's device label goes after it
FALLBACK = "Station 1"  # a config that names no station, a machine without a host name
MAX_HOST_PART = 60  # characters of the host name a default name takes


def joined(station: str, device: str = "") -> str:
    """The name a row carries: STATION, and DEVICE after the separator when there is one."""
    return f"{station}{SEPARATOR}{device}" if device else station


def base_name(name: str) -> str:
    """The station a row's NAME belongs to (a phone's row: the part before the separator)."""
    return name.split(SEPARATOR, 1)[0].strip()


def with_base(name: str, base: str) -> str:
    """A row's NAME with BASE for its station's part (a device's part kept)."""
    _, between, device = name.partition(SEPARATOR)
    return base + between + device


def of_station(name: str, station: str) -> bool:
    """NAME is STATION's own name or one of its devices' names."""
    return name == station or name.startswith(station + SEPARATOR)


def default_name() -> str:
    """A station's name when none is given (`judge --journal`, `join`): this machine's host
    name (printable, at most MAX_HOST_PART characters), else FALLBACK. The one answer."""
    import socket

    host = "".join(c for c in socket.gethostname() if c.isprintable()).strip()
    host = host.replace(SEPARATOR, " - ")[:MAX_HOST_PART].strip()
    return host or FALLBACK


def name_problem(name: str) -> str:
    """Why NAME cannot be a station's own name ("" when it can): empty, too long, a control or
    invisible character (a screen or slip could not draw it: visible.py), or the separator
    (the hub would read the rest as a device's name)."""
    if not name.strip():
        return "is empty"
    if len(name) > MAX_STATION_NAME:
        return f"is longer than {MAX_STATION_NAME} characters"
    hidden = next((ch for ch in name if is_hidden(ch)), None)
    if hidden is not None:
        return (f"holds {describe_char(hidden)}, a control or invisible character: use "
                "letters, digits, spaces and punctuation")
    if SEPARATOR in name:
        return (f"holds {SEPARATOR.strip()!r} between spaces, which the hub reads as the start "
                f"of a phone's device name ({base_name(name)!r} would be the station): write "
                f"it another way, e.g. {name.replace(SEPARATOR, ' - ')!r}")
    return ""
