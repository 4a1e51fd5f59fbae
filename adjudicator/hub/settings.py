"""hub.toml: the hub's settings (journal, tsh's file, the event), checked whole; made if missing."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass

from adjudicator.errors import ConfigError
from adjudicator.event.setup import Event, parse_event

DEFAULT = 'journal = "hub.db"  # every station\'s rows, once (adjudicator journal verify/export)\n'


@dataclass(frozen=True)
class HubConfig:
    path: str
    journal: str  # resolved beside the config file when relative
    tsh: str = ""  # tsh's html/tourney.js (or its event folder): players' names per table
    event: Event | None = None  # [event] and [[division]] as written (event_setup pins lists)


def load_hub_config(path: str) -> tuple[HubConfig, bool]:
    """(config, created): PATH read and checked; a missing file is written with the default."""
    created = False
    if not os.path.exists(path):
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):  # a drive not mounted: never made on the local disk
            from adjudicator.errors import FileAccessError

            raise FileAccessError(f"cannot write the hub config {path}: the folder {folder} "
                                  "is not there (a drive not mounted?); nothing is made in its "
                                  "place")
        try:
            with open(path, "x", encoding="utf-8") as f:
                f.write(DEFAULT)
        except OSError as e:
            raise ConfigError(f"cannot write the hub config {path}: {e.strerror or e}") from e
        created = True
    try:
        with open(path, "rb") as f:
            data = tomllib.loads(f.read().decode("utf-8"))
    except OSError as e:
        raise ConfigError(f"cannot read the hub config {path}: {e.strerror or e}") from e
    except UnicodeDecodeError:
        raise ConfigError(f"the hub config {path} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"the hub config {path} is not valid TOML: {e}") from None
    unknown = sorted(set(data) - {"journal", "tsh", "event", "division"})
    if unknown:
        raise ConfigError(f"{path}: key {unknown[0]}: is not a hub setting (journal, tsh, "
                          "[event], [[division]])")
    event = None
    if "event" in data or "division" in data:
        event = parse_event(data.get("event"), data.get("division"), path)
    journal = data.get("journal", "hub.db")
    if not isinstance(journal, str) or not journal.strip():
        raise ConfigError(f'{path}: key journal: must be a file name in quotes, e.g. "hub.db"')
    tsh = data.get("tsh", "")
    if not isinstance(tsh, str):
        raise ConfigError(f'{path}: key tsh: must be a path in quotes, e.g. '
                          '"event/html/tourney.js"')
    tsh = _beside(tsh, path) if tsh.strip() else ""
    return HubConfig(path, _beside(journal, path), tsh, event), created


def _beside(setting: str, config_path: str) -> str:
    setting = os.path.expanduser(setting.strip())
    if os.path.isabs(setting):
        return setting
    return os.path.join(os.path.dirname(os.path.abspath(config_path)), setting)
