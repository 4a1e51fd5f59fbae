"""The station's config file written back: only the values that changed, comments and layout kept."""

from __future__ import annotations

import tomllib
from dataclasses import asdict
from typing import Any

from adjudicator.config.station import Config, default_config_path, parse_config
from adjudicator.errors import ConfigError
from adjudicator.event.setup import Division, Event, parse_event, to_dict
from adjudicator.config.tomlfile import read_toml, write_atomic


def save_config(cfg: Config, path: str | None = None) -> str:
    """Write the configuration as TOML (atomically: a crash leaves the old file or the new one).

    The file as the director wrote it is kept: its comments, order and layout stay, only the
    values that changed are rewritten, and a key the file lacks is added only when it is not
    the default (issue 11: set-pin and the director's Save stripped every comment).
    """
    where = path or cfg.path or default_config_path()
    write_atomic(where, _edited_toml(where, to_toml_dict(cfg)))
    return where


def save_event_config(where: str, values: dict[str, Any], divisions: list[dict]) -> list[str]:
    """An event's settings into the station config WHERE, in place (comments and layout kept,
    every other key as it was): VALUES' keys set (a value None: the key taken out), the
    [[division]] array replaced by DIVISIONS (event.to_dict's). Checked whole as a station
    reads it before it is written; the keys whose value changed, or [] when none did."""
    import tomlkit

    doc = read_toml(where)
    before = doc.unwrap()
    for key, value in values.items():
        if value is None:
            doc.pop(key, None)
        elif key not in doc or doc[key] != value:
            doc[key] = value
    _put_divisions(doc, divisions)
    text = tomlkit.dumps(doc)
    parse_config(tomllib.loads(text), where)  # never a file the station then refuses
    after = tomllib.loads(text)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    if changed:
        write_atomic(where, text)
    return changed


def _edited_toml(where: str, data: dict[str, Any]) -> str:
    """The text of WHERE (if it is there and reads as TOML) with DATA's values put in."""
    import tomlkit

    doc = read_toml(where)
    data = dict(data)
    divisions = data.pop("division", [])
    _put(doc, data, to_toml_dict(Config()))
    _put_divisions(doc, divisions)
    return tomlkit.dumps(doc)


def _put_divisions(doc, wanted: list[dict]) -> None:
    """The event's [[division]] array in DOC as WANTED (event.to_dict's), rewritten only when
    it differs: a file whose divisions did not change keeps them as written."""
    import tomlkit

    old = doc.get("division")
    if old is None and not wanted:
        return
    if old is not None and _same_divisions(old.unwrap() if hasattr(old, "unwrap") else old,
                                           wanted):
        return
    if not wanted:
        del doc["division"]
        return
    array = tomlkit.aot()
    for division in wanted:
        table = tomlkit.table()
        table.update({k: v for k, v in division.items() if v != ""})  # no empty keys
        array.append(table)
    doc["division"] = array


def _put(table, data: dict[str, Any], defaults: dict[str, Any]) -> None:
    """DATA into the tomlkit TABLE: changed values replaced in place, missing non-defaults added."""
    import tomlkit

    for key, value in data.items():
        default = defaults.get(key)
        if isinstance(value, dict):
            if key in table:
                _put(table[key], value, default or {})
            elif value != default:
                sub = tomlkit.table()
                _put(sub, value, default or {})
                table[key] = sub
        elif key in table:
            old = table[key]
            if (old.unwrap() if hasattr(old, "unwrap") else old) != value:
                table[key] = _as_written(value)
        elif value != default:
            table[key] = _as_written(value)


def _as_written(value: Any) -> Any:
    """A whole number of seconds is written as a person writes it: 20, not 20.0 (issue 21)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def to_toml_dict(cfg: Config) -> dict[str, Any]:
    """The file's view of a Config: the keys as the user writes them."""
    return {
        "event": cfg.event,
        "station": cfg.station,
        "mode": cfg.mode,
        "lexicon": cfg.lexicon,
        "secondary_lexicon": cfg.secondary_lexicon,
        "lexicon_dirs": list(cfg.lexicon_dirs),
        "challenge_rule": cfg.challenge_rule.value,
        "journal": cfg.journal_setting,
        "split_window": cfg.split_window,
        "pin_hash": cfg.pin_hash,
        **({"hub": cfg.hub, "hub_token": cfg.hub_token} if cfg.hub else {}),
        **({"hub_fingerprint": cfg.hub_fingerprint} if cfg.hub_fingerprint else {}),
        **({"style": cfg.style} if cfg.style != "auto" else {}),
        "divisions": list(cfg.divisions),
        "event_version": cfg.event_version,
        "timers": asdict(cfg.timers),
        "printer": cfg.printer._asdict(),
        "division": _divisions_dict(cfg.event_divisions),
    }


def _same_divisions(old, wanted: list[dict]) -> bool:
    try:
        return parse_event(None, old).divisions == parse_event(None, wanted).divisions
    except ConfigError:
        return False


def _divisions_dict(divisions: tuple[Division, ...]) -> list[dict]:
    return to_dict(Event(divisions=divisions))["division"] if divisions else []
