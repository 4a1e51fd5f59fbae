"""The access token: a file next to the config, re-read on every request, rotated by rewriting."""

from __future__ import annotations

import hmac
import os
import stat
import secrets

from adjudicator.errors import AdjudicatorError

TOKEN_BYTES = 16  # 22 URL-safe characters: unguessable, still a small QR code


def token_path(config_path: str) -> str:
    """Where the token for the config at CONFIG_PATH lives: config.toml -> config.token."""
    base, _ext = os.path.splitext(os.path.abspath(config_path))
    return base + ".token"


class TokenStore:
    """The current token, read from PATH whenever the file changes (so rotation needs no restart).

    The file holds the token on its first line and, on a second, the address the running server
    announced (so `serve --rotate-token` can print the right URL). A missing or empty file means
    no token is valid: every request is refused (fail closed).
    """

    def __init__(self, path: str):
        self.path = path
        self._stamp: tuple[int, int, int] | None = None
        self._token: str | None = None
        self._base: str | None = None

    def current(self) -> str | None:
        """The token as the file says now, or None when there is no usable file."""
        try:
            st = os.stat(self.path)
        except OSError:
            self._stamp, self._token, self._base = None, None, None
            return None
        if not stat.S_ISREG(st.st_mode):  # a pipe or a device is never opened (it would block)
            self._stamp, self._token, self._base = None, None, None
            return None
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        if stamp != self._stamp:
            try:
                with open(self.path, encoding="ascii", errors="replace") as f:
                    lines = [line.strip() for line in f.read().splitlines()] + ["", ""]
            except OSError:
                return None
            self._stamp, self._token, self._base = stamp, lines[0] or None, lines[1] or None
        return self._token

    def base(self) -> str | None:
        """The server address recorded with the token ("http://192.168.1.20:8000"), if any."""
        self.current()
        return self._base

    def check(self, candidate: str | None) -> bool:
        """True when CANDIDATE is the current token (compared in constant time)."""
        expected = self.current()
        if not expected or not candidate:
            return False
        return hmac.compare_digest(candidate.encode("utf-8", "replace"), expected.encode("ascii"))

    def ensure(self) -> str:
        """The current token, creating the file with a fresh one when there is none."""
        return self.current() or self.rotate()

    def rotate(self) -> str:
        """Write a fresh token atomically (owner-only file) and return it; old links stop."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self._write(token, self.base())
        return token

    def record_base(self, base: str) -> None:
        """Note the address the server is reachable at, keeping the token."""
        self._write(self.ensure(), base)

    def _write(self, token: str, base: str | None) -> None:
        """The token (and the address) written whole or not at all, readable by this user only,
        at a symlink's target, never onto a device or a pipe (destination.replacing)."""
        from adjudicator.files.destination import replacing

        folder = os.path.dirname(self.path) or "."
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
        except OSError as e:
            raise AdjudicatorError(f"cannot write the token file {self.path}: "
                                   f"{e.strerror or e}") from e
        with replacing(self.path, "the token file", binary=False, prefix=".token-",
                       mode=0o600) as f:
            f.write(token + "\n" + (base + "\n" if base else ""))
