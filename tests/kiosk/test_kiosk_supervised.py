"""`adjudicator kiosk` supervises itself: a kiosk that dies is back on Ready, journaled, locked.

On today's main a kiosk that died stayed dead (a traceback on the players' screen, exit 0) and
a restart cleared the PIN lockout. Here the kiosk is killed, or made to crash with a Python
error, under a real pseudo-terminal: it must come back on Ready by itself, the restart must be
in the journal, the traceback only in the kiosk log, and a PIN lockout must still hold.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest
from pty_driver import (REPO, PtyApp, child_env, hooked_env, kiosk_argv, kiosk_child,
                        process_tree, station_config)

from adjudicator.errors import EXIT_LEXICON
from adjudicator.journal import Journal
from adjudicator.event.pin import hash_pin
from adjudicator.supervisor.child import log_path

F12 = b"\x1b[24~"
ENTER = b"\x1b[?1049h"  # a kiosk child takes the screen
# Loaded at the supervisor's start (sitecustomize), so in every kiosk child forked from it:
# typing "boom" raises inside the app.
CRASH_HOOK = '''
from kiosk.screens import ready
_changed = ready.ReadyScreen.on_input_changed
def on_input_changed(self, event):
    if "boom" in event.value:
        raise RuntimeError("test crash: the kiosk died")
    return _changed(self, event)
ready.ReadyScreen.on_input_changed = on_input_changed
'''


@pytest.fixture
def station(tmp_path):
    config, journal = station_config(tmp_path)
    text = open(config).read().replace("[timers]", f'pin_hash = "{hash_pin("2468")}"\n[timers]')
    open(config, "w").write(text)
    env = hooked_env(tmp_path, CRASH_HOOK)
    app = PtyApp(kiosk_argv(config), env)
    try:
        app.read_until(b"press TAB.")
        yield app, journal
    finally:
        app.close()  # also when the kiosk never came up


def restarts(journal_path: str, timeout: float = 30.0) -> list[tuple[str, str]]:
    """The journal's station events, once there is one: the supervisor notes a restart while
    the new kiosk starts (Ready comes first), so it may land just after Ready is painted."""
    deadline = time.monotonic() + timeout
    while True:
        with Journal.open(journal_path) as journal:
            events = [(event, detail) for event, detail, _ in journal.events()]
        if events or time.monotonic() > deadline:
            return events
        time.sleep(0.05)


def restarted(app: PtyApp, mark: int) -> None:
    """Wait for a new kiosk child's Ready: its own screen entered after MARK, then painted (the
    old one may paint "press TAB." again before it dies)."""
    app.read_until(ENTER, start=mark, timeout=60)
    app.read_until(b"press TAB.", start=app.screen.rindex(ENTER), timeout=60)


def judge_qi(app: PtyApp, journal_path: str) -> tuple[tuple[str, ...], bool]:
    mark = len(app.screen)
    app.write(b"qi\t")
    app.read_until(b"the play is", start=mark, timeout=60)
    with Journal.open(journal_path) as journal:
        row = journal.recent(1)[0]
    return row.words, row.acceptable


def test_a_killed_kiosk_is_back_on_ready_and_the_restart_is_journaled(station):
    app, journal = station
    first = kiosk_child(app)
    mark = len(app.screen)
    os.kill(first, signal.SIGKILL)  # the kiosk this test started (its supervisor's child)
    restarted(app, mark)
    assert kiosk_child(app) != first and app.proc.poll() is None
    assert judge_qi(app, journal) == (("QI",), True)
    assert restarts(journal) == [("kiosk restarted", "killed by SIGKILL")]


def test_the_supervisor_forks_with_nothing_open_that_its_child_would_share(station):
    """The journal (SQLite) belongs to the kiosk child alone; the supervisor it is forked from
    runs one thread and holds nothing (issue 21). The list's file is held by neither: the child
    read it into memory and closed it (issue 40: a mapped file rewritten under the station
    changed its verdicts)."""
    app, journal = station
    app.drain(0.5)  # the child opens its journal just after its first paint
    folder = os.path.dirname(journal)
    supervisor, child = app.proc.pid, kiosk_child(app)

    def opened(pid: int) -> set[str]:
        fds = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
        with open(f"/proc/{pid}/maps") as maps:
            mapped = {line.split(None, 5)[-1].strip() for line in maps if "/" in line}
        return {path for path in fds | mapped if path.startswith(folder)}

    assert len(os.listdir(f"/proc/{supervisor}/task")) == 1
    assert opened(supervisor) == set()
    in_child = opened(child)
    assert journal in in_child and not any(path.endswith(".lex") for path in in_child), in_child


def test_a_restarted_kiosk_reads_the_config_saved_since(station, tmp_path):
    """The first child takes the config its supervisor read; a restarted one reads the file
    again, as the director's Save settings left it."""
    app, _ = station
    config = tmp_path / "station.toml"
    config.write_text(config.read_text().replace('station = "Pty"', 'station = "Table 9"'))
    mark = len(app.screen)
    os.kill(kiosk_child(app), signal.SIGKILL)
    restarted(app, mark)
    assert b"Table 9" in app.screen[mark:]


def test_a_crash_never_shows_its_traceback_and_the_kiosk_comes_back(station):
    app, journal = station
    mark = len(app.screen)
    app.write(b"boom")
    restarted(app, mark)
    shown = bytes(app.screen[mark:])
    assert b"Traceback" not in shown and b"test crash" not in shown
    with open(log_path(journal), encoding="utf-8") as log:
        assert "RuntimeError: test crash: the kiosk died" in log.read()
    assert restarts(journal) == [("kiosk restarted", "stopped on an error")]
    app.drain(0.5)
    assert judge_qi(app, journal) == (("QI",), True)


def test_the_pin_lockout_survives_a_restart(station):
    app, journal = station
    mark = len(app.screen)
    app.write(F12)
    app.read_until(b"PIN", start=mark)
    for _ in range(5):
        app.write(b"1111\r")
        app.drain(0.3)
    app.read_until(b"locked for", start=mark, timeout=60)
    app.write(b"\x1b")  # ESC: the box closes, the station is Ready
    app.drain(0.5)
    mark = len(app.screen)
    os.kill(kiosk_child(app), signal.SIGKILL)
    restarted(app, mark)
    app.drain(0.5)
    mark = len(app.screen)
    app.write(F12)
    app.read_until(b"locked for", start=mark, timeout=30)  # still locked, whatever restarted


def test_a_kiosk_that_cannot_start_is_not_restarted_and_says_why(tmp_path):
    config = tmp_path / "station.toml"
    config.write_text(f'lexicon = "{tmp_path / "missing.txt"}"\njournal = "{tmp_path / "j.db"}"\n')
    env = dict(child_env(), PYTHONPATH=REPO)
    out = subprocess.run(kiosk_argv(str(config)), capture_output=True, text=True, env=env,
                         timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == EXIT_LEXICON
    assert out.stderr.startswith("adjudicator: ") and "missing.txt" in out.stderr  # passed on


def test_a_restart_that_can_be_neither_journaled_nor_logged_is_not_an_error(tmp_path):
    """Read-only media: the journal and its log cannot take the note; the station judges on."""
    from adjudicator.supervisor.forked import note_restart

    blocker = tmp_path / "a-file"
    blocker.write_text("")  # a file where the journal's folder should be: nothing goes there
    note_restart(str(blocker / "journal.db"), "killed by SIGKILL",
                 str(blocker / "journal.db.kiosk.log"))
    assert blocker.read_text() == ""


def _ended(pid: int, timeout: float = 15.0) -> bool:
    """Whether process PID ends (gone, or a zombie nobody reaped yet) within TIMEOUT."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def test_a_kiosk_dies_with_its_supervisor(station):
    """Killed with it (-9, nothing to pass the word on): never a second kiosk left running."""
    app, _ = station
    child = kiosk_child(app)
    app.drain(0.3)
    os.kill(app.proc.pid, signal.SIGKILL)
    assert _ended(child)


# The kiosk child waits for the test's go before it builds its screen.
SLOW_PAINT_HOOK = '''
import os, time
from kiosk import app
_mount = app.KioskApp.on_mount
def on_mount(self):
    while not os.path.exists(os.environ["TEST_GO"]):
        time.sleep(0.02)
    return _mount(self)
app.KioskApp.on_mount = on_mount
'''


def test_a_kiosk_whose_supervisor_died_before_its_first_paint_ends_there(tmp_path):
    """It learns to die with its supervisor only once it has painted (issue 21: no ctypes on
    the way to the first paint); a supervisor already gone by then ends it at once."""
    config, _ = station_config(tmp_path)
    go = tmp_path / "go"
    app = PtyApp(kiosk_argv(config), dict(hooked_env(tmp_path, SLOW_PAINT_HOOK), TEST_GO=str(go)))
    try:
        deadline = time.monotonic() + 30
        while len(process_tree(app.proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        child = kiosk_child(app)
        os.kill(app.proc.pid, signal.SIGKILL)
        app.proc.wait(timeout=10)
        go.write_text("")
        assert _ended(child)
    finally:
        app.close()
