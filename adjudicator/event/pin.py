"""The director's PIN: a salted scrypt hash to store and a constant-time check; never the PIN."""

from __future__ import annotations

import base64
import os

from adjudicator.errors import ConfigError

MIN_LENGTH = 4
MAX_LENGTH = 64
EVENT_MIN_LENGTH = 6  # an event's PIN (issue 33: 4 digits fell to 2,719 guesses in 289 s)
_SCHEME = "scrypt"
_N, _R, _P = 2**14, 8, 1  # about 16 MB and a few tens of ms: cheap to check, slow to guess
# an event's PIN made under the 6-digit rule is hashed at twice the cost (32 MB): stations of
# any version check it (the cost is in the hash), and the hub tells an older, shorter one by it
_N_EVENT = 2**15
SHORT_PIN = ("the event's director PIN was set before PINs had at least "
             f"{EVENT_MIN_LENGTH} digits: set a new one")
_SALT_BYTES = 16
_KEY_BYTES = 32


def check_pin_text(pin: str) -> str:
    """The PIN as typed, or ConfigError saying what a PIN must be."""
    if not MIN_LENGTH <= len(pin) <= MAX_LENGTH:
        raise ConfigError(f"a PIN has {MIN_LENGTH} to {MAX_LENGTH} characters")
    if any(not ch.isprintable() or ch.isspace() for ch in pin):
        raise ConfigError("a PIN has no spaces or control characters")
    return pin


def check_event_pin(pin: str) -> str:
    """An event's new PIN as typed (at least EVENT_MIN_LENGTH characters), or ConfigError."""
    check_pin_text(pin)
    if len(pin) < EVENT_MIN_LENGTH or not pin.isascii():
        raise ConfigError(f"an event's PIN has at least {EVENT_MIN_LENGTH} digits (or ASCII "
                          "letters, which every station's keyboard types; a shorter one is "
                          "guessed in minutes from its hash)")
    return pin


def hash_pin(pin: str, n: int = _N) -> str:
    """'scrypt$N$r$p$salt$key' (base64); a new random salt each time."""
    check_pin_text(pin)
    salt = os.urandom(_SALT_BYTES)
    key = _derive(pin, salt, n, _R, _P)
    return "$".join([_SCHEME, str(n), str(_R), str(_P), _b64(salt), _b64(key)])


def hash_event_pin(pin: str) -> str:
    """An event's PIN hashed (check_event_pin first), marked by its cost as made under the
    6-digit rule."""
    return hash_pin(check_event_pin(pin), _N_EVENT)


def short_pin(stored: str) -> bool:
    """True for an event PIN's hash made before the 6-digit rule (or not this module's)."""
    try:
        return bool(stored) and int(stored.split("$")[1]) < _N_EVENT
    except (IndexError, ValueError):
        return bool(stored)


def verify_pin(pin: str, stored: str) -> bool:
    """True when PIN matches the stored hash; False for a wrong PIN or an unusable hash."""
    try:
        scheme, n, r, p, salt, key = stored.split("$")
        if scheme != _SCHEME:
            return False
        expected = base64.b64decode(key, validate=True)
        actual = _derive(pin, base64.b64decode(salt, validate=True), int(n), int(r), int(p))
    except (ValueError, TypeError):
        return False
    from hmac import compare_digest  # (at first use: hashlib loads OpenSSL, not wanted at start)

    return compare_digest(actual, expected)


def is_set(stored: str) -> bool:
    """True when the configuration holds a PIN hash in this module's format."""
    return stored.startswith(_SCHEME + "$") and stored.count("$") == 5


def _derive(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    from hashlib import scrypt  # at first use: it loads OpenSSL (about 3 ms of a kiosk's start)

    return scrypt(
        pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=64 * 1024 * 1024, dklen=_KEY_BYTES
    )


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def stored_pin_hash(config_path: str, current: str) -> str:
    """The PIN hash CONFIG_PATH holds now, read again at each F12 so that `adjudicator set-pin`
    on a running station's config takes effect without a restart (issue 27). A file can set or
    change the PIN, never take it away: when the file is missing, unreadable, not TOML or holds
    no usable hash, CURRENT (the station's own) stays."""
    import tomllib

    try:
        with open(config_path, "rb") as f:
            value = tomllib.loads(f.read().decode("utf-8")).get("pin_hash")
    except (OSError, ValueError):  # UnicodeDecodeError and TOMLDecodeError are ValueErrors
        return current
    return value if isinstance(value, str) and is_set(value) else current
