"""A kiosk process that will not quit when its tab closes is terminated, then killed: never left."""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys

import psutil
from textual_serve.download_manager import DownloadManager

from kiosk.web import sessions
from kiosk.web.sessions import KioskSession, SessionLabels, kiosk_argv

STUBBORN = """
import signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)   # ignores the quit request and SIGTERM alike
sys.stdout.write("__GANGLION__\\n"); sys.stdout.flush()
time.sleep(120)
"""


def run(coro):
    """asyncio.run in a thread of its own (Playwright's sync API may hold this thread's loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result(timeout=60)


async def _noop(*_args) -> None:
    return None


def test_a_kiosk_that_ignores_quit_and_sigterm_is_killed(monkeypatch):
    monkeypatch.setattr(sessions, "QUIT_GRACE", 0.5)
    monkeypatch.setattr(sessions, "KILL_GRACE", 0.5)

    async def scenario() -> tuple[int, str | None]:
        session = KioskSession([sys.executable, "-c", STUBBORN], "web-test-1",
                               write_bytes=_noop, write_str=_noop, close=_noop,
                               download_manager=DownloadManager())
        await session.start(80, 24)
        pid = session.pid
        await asyncio.sleep(0.5)
        await session.stop()
        return pid, session.forced

    pid, forced = run(scenario())
    assert forced == "SIGKILL"
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_each_tab_gets_its_own_label_and_a_smart_device_kiosk_command():
    labels = SessionLabels()
    first, second = labels.next(), labels.next()
    assert first != second and first.startswith("web-") and first.endswith("-1")
    argv = kiosk_argv("/srv/event.toml", first)
    assert argv[:4] == [sys.executable, "-m", "adjudicator", "kiosk"]
    assert argv[4:] == ["--config", "/srv/event.toml", "--mode", "smart-device",
                        "--session", first]
