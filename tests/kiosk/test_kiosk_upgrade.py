"""Upgrades (issue 27 item 7): the package reinstalled or removed under a running station never
takes it down, and a kiosk that cannot start again says the real error, in its log and line.

The kiosk runs from a copy of the package in a tmp folder (PYTHONPATH); the copy is renamed
away while it runs, as `pip install` replaces files, and the kiosk child is killed (-9)."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time

from pty_driver import REPO, PtyApp, child_env, kiosk_argv, kiosk_child, station_config
from pty_screen import Shown

from adjudicator.supervisor.child import log_path

ENTER = b"\x1b[?1049h"  # a kiosk child takes the screen
F12 = b"\x1b[24~"
# sitecustomize for the supervisor (and so each child forked from it): PRELOADED_MARK is
# written once the supervisor has taken the package in; a child forked while BREAK_MARK exists
# fails before its first paint, as a child importing from a half-installed package does.
HOOK = '''
import os
import adjudicator.launch as _launch
import adjudicator.supervisor.preload as _preloading

_preload = _preloading.preload_package
def preload_package():
    _preload()  # the supervisor's mark, or the first kiosk child's (it preloads too)
    child = "-child" if os.environ.get("ADJUDICATOR_KIOSK_CHILD") else ""
    open(os.environ["PRELOADED_MARK"] + child, "w").close()
_preloading.preload_package = preload_package

def _broken(*args, **kwargs):
    raise ImportError("No module named 'adjudicator.nowhere' (the package half installed)")

def _after_fork():
    if os.path.exists(os.environ["BREAK_MARK"]):
        _launch._checked_config = _broken
os.register_at_fork(after_in_child=_after_fork)
'''


def start_from_copy(tmp_path) -> tuple[PtyApp, str, str]:
    """(the kiosk, its journal, the package copy it runs from), once its supervisor has the
    package preloaded."""
    copy = tmp_path / "site"
    for name in ("adjudicator", "kiosk", "lexicons"):
        shutil.copytree(os.path.join(REPO, name), copy / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(HOOK)
    config, journal = station_config(tmp_path)
    env = child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache"),
                    PYTHONPATH=f"{hooks}{os.pathsep}{copy}",
                    PRELOADED_MARK=str(tmp_path / "preloaded"),
                    BREAK_MARK=str(tmp_path / "break"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # -P: the package from PYTHONPATH only, not from the working folder (this repository)
    app = PtyApp([sys.executable, "-P", *kiosk_argv(config)[1:]], env)
    app.read_until(b"press TAB.")
    deadline = time.monotonic() + 60
    while not ((tmp_path / "preloaded").exists() and (tmp_path / "preloaded-child").exists()):
        assert time.monotonic() < deadline, "the supervisor never preloaded the package"
        app.drain(0.1)
    return app, journal, str(copy)


def test_a_kiosk_whose_package_is_gone_comes_back_after_a_kill(tmp_path):
    app, journal, copy = start_from_copy(tmp_path)
    try:
        assert kiosk_child(app)
        os.rename(copy, copy + "-old")  # the package replaced under the running station
        app.write(F12)  # the running kiosk opens what it never showed yet (a try-out: no PIN)
        shown = Shown(app)
        shown.wait("Event name (on every screen")  # director mode, scrolled to its first field
        app.write(b"\x1b")
        shown.wait("not locked", absent="Event name (on every screen")
        first = kiosk_child(app)
        mark = len(app.screen)
        os.kill(first, signal.SIGKILL)  # the kiosk this test started
        app.read_until(ENTER, start=mark, timeout=60)
        app.read_until(b"press TAB.", start=app.screen.rindex(ENTER), timeout=60)
        assert app.proc.poll() is None and kiosk_child(app) != first
        mark = len(app.screen)
        app.write(b"qi\t")  # and it judges, recording in its journal
        app.read_until(b"the play is", start=mark, timeout=60)
        log = open(log_path(journal), encoding="utf-8").read()
        assert "No module named" not in log, log
    finally:
        app.close()


def test_a_kiosk_that_cannot_start_again_says_the_real_error(tmp_path):
    app, journal, _copy = start_from_copy(tmp_path)
    try:
        (tmp_path / "break").touch()
        os.kill(kiosk_child(app), signal.SIGKILL)
        app.read_until(b"times in a row", timeout=120)
        app.drain(0.5)
        assert app.proc.wait(timeout=30) == 4
        said = bytes(app.screen).decode("utf-8", "replace")
        line = said[said.rindex("adjudicator: the kiosk could not start"):]
        assert "could not start again after it stopped" in line
        assert "No module named 'adjudicator.nowhere'" in " ".join(line.split())
        log = open(log_path(journal), encoding="utf-8").read()
        assert "Traceback" in log and "adjudicator.nowhere" in log  # the whole error, kept
    finally:
        app.close()
