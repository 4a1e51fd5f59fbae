"""The kiosk's supervisor for Windows (adjudicator/supervisor/spawned.py), run here on Linux (issue 35).

Windows has no fork: its supervisor starts each kiosk child as a new process with the kiosk's
own command line. The same code runs here, the report pipe handed on by number instead of by
handle, the console's calls faked (winconsole.ConsoleOps); ADJUDICATOR_KIOSK_SPAWN=1 makes
`adjudicator kiosk` supervise that way on Linux, so the real kiosk is killed and comes back.
Nothing here ran on Windows itself: docs/deployment.md says what differs there.
"""

from __future__ import annotations

import os
import signal
import sys
import textwrap

import pytest
from pty_driver import PtyApp, hooked_env, kiosk_argv, kiosk_child, station_config

from adjudicator.errors import EXIT_CONFIG, EXIT_IO
from adjudicator.journal import Journal
from adjudicator.supervisor.restarts import CLOSED
from adjudicator.supervisor.options import plain_kiosk_args
from adjudicator.supervisor.spawned import SpawnSupervisor, child_command
from adjudicator.supervisor.child import SPAWN_ENV
from adjudicator.supervisor.tty_restore import RESTORE
from adjudicator.supervisor.winconsole import LOCKED_INPUT, ConsoleOps, SavedConsole

# A kiosk child that follows a plan, one step a start: it refuses its config, crashes before
# its first paint, paints and then crashes, is killed, or ends as the director's Quit does.
CHILD = textwrap.dedent("""
    import os, signal, sys
    from adjudicator.errors import ConfigError
    from adjudicator.supervisor.child import ChildRun, child_ready_callback, child_started
    LOG, JOURNAL, PLAN = sys.argv[1:4]

    def main():
        n = len(open(LOG).read().split()) if os.path.exists(LOG) else 0
        step = open(PLAN).read().split()[n]
        held = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        again = ":restarted" if os.environ.get("ADJUDICATOR_KIOSK_RESTARTED") else ""
        open(LOG, "a").write(f"{step}:{'held' if held else 'open'}{again} ")
        if step == "refuse":
            raise ConfigError("station.toml: key mode: bogus")
        if step == "early":
            raise ImportError("test: broken before the config")
        child_started(JOURNAL)
        if step == "broken":
            raise ImportError("test: a broken install")
        child_ready_callback()()
        if step == "crash":
            raise RuntimeError("test: the kiosk died")
        if step == "killed":
            os.kill(os.getpid(), signal.SIGKILL)
        if step == "interrupted":
            return 130
        return 0

    with ChildRun(held=True) as child:
        child.code = main()
    sys.exit(child.code)
""")


class FakeConsole(ConsoleOps):
    """A Windows console: its two modes, what was set and written, in order."""

    def __init__(self, modes=None):
        self.modes = dict(modes or {"in": 0x01F7, "out": 0x0003})
        self.calls: list[tuple] = []

    def get_mode(self, which):
        return self.modes.get(which)

    def set_mode(self, which, mode):
        self.modes[which] = mode
        self.calls.append(("set", which, mode))

    def write(self, data):
        self.calls.append(("write", data))


@pytest.fixture
def spawned(tmp_path):
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    log, journal, plan = tmp_path / "steps", tmp_path / "j.db", tmp_path / "plan"

    def run(*steps: str, console=None):
        plan.write_text(" ".join(steps))
        if log.exists():
            log.unlink()
        console = console or FakeConsole()
        supervisor = SpawnSupervisor(
            [sys.executable, str(script), str(log), str(journal), str(plan)],
            console=SavedConsole(console))
        code = supervisor.run()
        return code, log.read_text().split(), supervisor, console

    run.journal = str(journal)
    return run


def journaled(journal_path: str) -> list[tuple[str, str]]:
    with Journal.open(journal_path) as journal:
        return [(event, detail) for event, detail, _ in journal.events()]


def test_a_child_that_dies_after_its_paint_is_started_again_and_quit_ends_it(spawned, capfd):
    code, steps, supervisor, _ = spawned("crash", "killed", "quit")
    assert code == 0 and supervisor.restarts == 2
    assert [s.split(":")[0] for s in steps] == ["crash", "killed", "quit"]
    assert capfd.readouterr().err == f"adjudicator: {CLOSED}\n"  # no traceback on the screen
    assert journaled(spawned.journal) == [("kiosk restarted", "stopped on an error"),
                                          ("kiosk restarted", "killed by SIGKILL")]
    log = open(spawned.journal + ".kiosk.log").read()
    assert "RuntimeError: test: the kiosk died" in log  # the traceback kept in the log


def test_a_child_started_again_knows_it_so_a_journal_gone_bad_is_said_on_ready(spawned):
    """Issue 42 item 4 on Windows: a child started again after one that ran is told so (as
    the forked supervisor tells it), so a journal whose folder went bad meanwhile is said on
    Ready (NOT RECORDED) instead of refused, which would end the station; the first is not."""
    code, steps, _, _ = spawned("crash", "killed", "quit")
    assert code == 0 and steps == ["crash:held", "killed:held:restarted", "quit:held:restarted"]


def test_a_refused_config_is_said_once_with_its_code_and_not_retried(spawned, capfd):
    code, steps, _, console = spawned("refuse", "quit")
    assert code == EXIT_CONFIG and steps == ["refuse:held"]
    assert capfd.readouterr().err == "adjudicator: station.toml: key mode: bogus\n"
    # it never took the screen: the modes put back, nothing written to the console
    assert not any(call[0] == "write" for call in console.calls)
    assert console.modes == {"in": 0x01F7, "out": 0x0003}


def test_a_child_that_never_paints_is_tried_five_times_and_named(spawned, capfd):
    code, steps, _, _ = spawned(*["broken"] * 5)
    assert code == EXIT_IO and len(steps) == 5
    err = capfd.readouterr().err
    assert err == ("adjudicator: the kiosk could not start (stopped on an error, 5 times in a "
                   f"row): ImportError: test: a broken install; see {spawned.journal}"
                   ".kiosk.log\n")
    code, steps, _, _ = spawned(*["early"] * 5)
    assert code == EXIT_IO and "broken before the config" in capfd.readouterr().err


def test_a_child_ended_by_a_stop_signal_ends_the_kiosk_with_its_code(spawned, capfd):
    code, steps, supervisor, _ = spawned("interrupted", "quit")
    assert code == 130 and len(steps) == 1 and supervisor.restarts == 0
    assert capfd.readouterr().err == "adjudicator: interrupted (SIGINT): the kiosk is closed\n"


def test_ctrl_c_is_held_and_the_console_locked_then_put_back(spawned):
    """Ctrl-C is ignored by the supervisor and its children (Ctrl-Break too, on Windows); the
    console's input mode is the kiosk's from the first child to the last (Ctrl-C a key), then
    every mode is put back: the screen's modes written with escape processing on."""
    before = signal.getsignal(signal.SIGINT)
    code, steps, _, console = spawned("crash", "quit")
    assert code == 0 and steps == ["crash:held", "quit:held:restarted"]
    assert signal.getsignal(signal.SIGINT) is before  # the supervisor's own handler back
    sets = [call for call in console.calls if call[0] == "set"]
    assert sets[0] == ("set", "in", LOCKED_INPUT) and sets.count(("set", "in", LOCKED_INPUT)) == 3
    write = console.calls.index(("write", RESTORE))
    assert console.calls[write - 1] == ("set", "out", 0x0003 | 0x0004)  # VT processing on
    assert console.calls[write + 1:] == [("set", "in", 0x01F7), ("set", "out", 0x0003)]


def test_the_command_line_of_a_child_is_the_kiosks_own():
    assert child_command("s.toml", None, "") == [
        sys.executable, "-m", "adjudicator", "kiosk", "--config=s.toml"]
    line = child_command("a b.toml", "runner", "table 12")
    assert plain_kiosk_args(line[3:]) == {"config_path": "a b.toml", "mode": "runner",
                                          "session": "table 12"}  # read back as it was given


def test_the_real_kiosk_spawned_is_back_on_ready_after_a_kill(tmp_path):
    """`adjudicator kiosk` supervised as on Windows, on a pseudo-terminal: its child killed,
    a new one paints Ready, judges, and the restart is journaled."""
    config, journal = station_config(tmp_path)
    app = PtyApp(kiosk_argv(config), dict(hooked_env(tmp_path, ""), **{SPAWN_ENV: "1"}))
    try:
        app.read_until(b"press TAB.", timeout=60)
        first = kiosk_child(app)
        mark = len(app.screen)
        os.kill(first, signal.SIGKILL)
        app.read_until(b"\x1b[?1049h", start=mark, timeout=60)
        app.read_until(b"press TAB.", start=app.screen.rindex(b"\x1b[?1049h"), timeout=60)
        assert kiosk_child(app) != first and app.proc.poll() is None
        mark = len(app.screen)
        app.write(b"qi\t")
        app.read_until(b"the play is", start=mark, timeout=60)
        with Journal.open(journal) as j:
            assert j.recent(1)[0].words == ("QI",)
        assert journaled(journal) == [("kiosk restarted", "killed by SIGKILL")]
    finally:
        app.close()

