"""A TOML settings file edited in place: read as tomlkit (comments kept), written atomically."""

from __future__ import annotations

import os

from adjudicator.errors import ConfigError


def read_toml(where: str, what: str = "config file"):
    """WHERE as a tomlkit document (an empty one when it is not there); ConfigError naming WHAT
    when it cannot be read or is not TOML."""
    import tomlkit

    try:
        with open(where, encoding="utf-8") as f:
            return tomlkit.parse(f.read())
    except FileNotFoundError:
        return tomlkit.document()
    except (OSError, UnicodeDecodeError, tomlkit.exceptions.TOMLKitError) as e:
        raise ConfigError(f"cannot update {what} {where}: {e}") from e


def write_atomic(where: str, text: str, what: str = "config file") -> None:
    """TEXT as WHERE, all or nothing (a crash leaves the old file or the new one), readable by
    its owner only (it holds the director's PIN hash and the hub's token); a symlink is written
    at its target, never onto a device (destination.py); ConfigError naming WHAT."""
    import tempfile

    from adjudicator.files.destination import destination

    try:
        os.makedirs(os.path.dirname(os.path.abspath(where)), exist_ok=True)
        target = destination(where, what)
        fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".toml",
                                   dir=os.path.dirname(target))
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, target)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as e:
        raise ConfigError(f"cannot write {what} {where}: {e.strerror or e}") from e
