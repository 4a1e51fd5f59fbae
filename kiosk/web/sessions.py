"""One kiosk process per browser tab: started without a shell, surely ended when the tab goes."""

from __future__ import annotations

import asyncio
import itertools
import os
import secrets
import shlex
import signal
import sys

from textual_serve.app_service import AppService

MAX_COLUMNS, MAX_ROWS = 400, 200  # a browser asking for more gets this much (no memory blow-up)
QUIT_GRACE = 3.0  # seconds the kiosk gets to leave by itself once its tab is gone
KILL_GRACE = 2.0  # then SIGTERM; then SIGKILL


def kiosk_argv(config_path: str | None, label: str) -> list[str]:
    """The command line of one smart-device kiosk (the same Python, so the same install)."""
    argv = [sys.executable, "-m", "adjudicator", "kiosk"]
    if config_path:
        argv += ["--config", config_path]
    return argv + ["--mode", "smart-device", "--session", label]


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """A terminal size the kiosk can lay out: at least 1x1, at most MAX_COLUMNS x MAX_ROWS."""
    return max(1, min(int(width), MAX_COLUMNS)), max(1, min(int(height), MAX_ROWS))


class SessionLabels:
    """Journal labels "web-<run>-<n>": unique across restarts, never derived from the token."""

    def __init__(self) -> None:
        self._run = secrets.token_hex(2)
        self._counter = itertools.count(1)

    def next(self) -> str:
        return f"web-{self._run}-{next(self._counter)}"


class KioskSession(AppService):
    """textual-serve's AppService, but exec'd (no shell quoting) in its own process group, and
    stopped with bounded waits: quit request, then SIGTERM, then SIGKILL."""

    def __init__(self, argv: list[str], label: str, **kwargs) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv = argv
        self.label = label
        self.forced: str | None = None  # the signal it took to end it, when it did not quit

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def start(self, width: int, height: int) -> None:
        await super().start(*clamp_size(width, height))

    async def set_terminal_size(self, width: int, height: int) -> None:
        await super().set_terminal_size(*clamp_size(width, height))

    async def _open_app_process(self, width: int = 80, height: int = 24):
        env = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            start_new_session=True,  # its own group: a stop reaches anything it started
        )
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        """Ask the kiosk to quit; if it has not gone within QUIT_GRACE, terminate, then kill."""
        try:
            await asyncio.wait_for(super().stop(), QUIT_GRACE)
        except (asyncio.TimeoutError, ConnectionError, RuntimeError):
            pass
        finally:
            await self._reap()

    async def _reap(self) -> None:
        process = self._process
        if process is None:
            return
        try:  # it may be leaving already (quit request answered, output closed)
            await asyncio.wait_for(process.wait(), 1.0)
            return
        except asyncio.TimeoutError:
            pass
        for sig, grace in ((signal.SIGTERM, KILL_GRACE), (signal.SIGKILL, KILL_GRACE)):
            self.forced = signal.Signals(sig).name
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                pass
            try:
                await asyncio.wait_for(process.wait(), grace)
                return
            except asyncio.TimeoutError:
                continue
