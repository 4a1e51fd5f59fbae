"""hub.toml: the hub's one setting (its journal), checked whole; written for the director if missing."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass

from ..errors import ConfigError

DEFAULT = 'journal = "hub.db"  # every station\'s rows, once (adjudicator journal verify/export)\n'


@dataclass(frozen=True)
class HubConfig:
    path: str
    journal: str  # resolved beside the config file when relative


def load_hub_config(path: str) -> tuple[HubConfig, bool]:
    """(config, created): PATH read and checked; a missing file is written with the default."""
    created = False
    if not os.path.exists(path):
        try:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
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
    unknown = sorted(set(data) - {"journal"})
    if unknown:
        raise ConfigError(f"{path}: key {unknown[0]}: is not a hub setting (only journal)")
    journal = data.get("journal", "hub.db")
    if not isinstance(journal, str) or not journal.strip():
        raise ConfigError(f'{path}: key journal: must be a file name in quotes, e.g. "hub.db"')
    journal = os.path.expanduser(journal)
    if not os.path.isabs(journal):
        journal = os.path.join(os.path.dirname(os.path.abspath(path)), journal)
    return HubConfig(path, journal), created
