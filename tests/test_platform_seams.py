"""The macOS and Windows paths that are not printers or the Windows supervisor, run on Linux
through their seams (issue 35): the forked supervisor without waitid, pidfd or real-time
signals (macOS), a child watching for its supervisor's end, the stop signals of a loop that
takes no signal handlers (every loop on Windows), the console's modes with none there."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time

from adjudicator.net.stopping import STOP_SIGNALS, on_stop_signals
from adjudicator.supervisor.child import parent_gone, watch_parent
from adjudicator.supervisor.winconsole import ConsoleOps, SavedConsole

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(code: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=timeout, stdin=subprocess.DEVNULL)


# As on macOS: no os.waitid, no os.pidfd_open (a call would fail the run), the supervisor's
# portable way taken.
AS_ON_MACOS = (
    "import os, signal, sys, time\n"
    "del os.waitid, os.pidfd_open\n"
    "from adjudicator.supervisor.forked import EXIT_CRASHED, Supervisor\n"
    "from adjudicator.supervisor.child import child_ready_callback, child_started\n"
)


def test_on_macos_a_stopped_child_is_continued_and_a_dead_one_restarted(tmp_path):
    """The SIGCHLD handler asks waitpid(WUNTRACED | WNOHANG): a child stopped before its first
    paint (SIGSTOP) is continued; one that ends is reaped there and its status kept for the
    supervisor's wait, which restarts it; the wait after the paint is a plain pause."""
    steps = tmp_path / "steps"
    out = _run(AS_ON_MACOS + (
        f"STEPS = {str(steps)!r}\n"
        "plan = ['stops', 'crash', 'killed', 'last']\n"
        "def child():\n"
        "    n = len(open(STEPS).read().split()) if os.path.exists(STEPS) else 0\n"
        "    open(STEPS, 'a').write(plan[n] + ' ')\n"
        f"    child_started({str(tmp_path / 'j.db')!r})\n"
        "    if plan[n] == 'stops':\n"
        "        os.kill(os.getpid(), signal.SIGSTOP)  # frozen until the supervisor continues it\n"
        "    child_ready_callback()()\n"
        "    print(plan[n], flush=True)\n"
        "    if plan[n] == 'killed':\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "    return 0 if plan[n] == 'last' else EXIT_CRASHED\n"
        "s = Supervisor(child, prepare=lambda: None)\n"
        "s.portable = True\n"
        "print('exit', s.run(), s.restarts, flush=True)\n"))
    assert out.stdout.split("\n") == ["stops", "crash", "killed", "last", "exit 0 3", ""], \
        out.stderr
    assert out.stderr == "adjudicator: the kiosk was closed from director mode\n"


def test_on_macos_a_stop_signal_ends_the_kiosk_with_its_code(tmp_path):
    """SIGTERM to the supervisor: passed to the child, whose end (reaped by the SIGCHLD handler
    or by the supervisor's wait) ends the kiosk with 143 and one line."""
    out = _run(AS_ON_MACOS + (
        "def child():\n"
        f"    child_started({str(tmp_path / 'j.db')!r})\n"
        "    child_ready_callback()()\n"
        "    os.kill(os.getppid(), signal.SIGTERM)\n"
        "    time.sleep(20)\n"
        "    return 0\n"
        "s = Supervisor(child)\n"
        "s.portable = True\n"
        "print('exit', s.run(), flush=True)\n"))
    assert out.stdout == "exit 143\n", out.stderr
    assert out.stderr == "adjudicator: stopped by SIGTERM: the kiosk is closed\n"


def test_on_macos_the_supervisor_ends_on_no_real_time_signal():
    """The real-time signals end the kiosk on Linux only (macOS has none)."""
    from adjudicator.supervisor.forked import ENDING_SIGNALS

    assert signal.SIGRTMIN in ENDING_SIGNALS and signal.SIGTERM in ENDING_SIGNALS
    out = _run("import sys\nsys.platform = 'darwin'\n"
               "from adjudicator.supervisor.forked import ENDING_SIGNALS\n"
               "import signal\n"
               "print(signal.SIGRTMIN in ENDING_SIGNALS, signal.SIGTERM in ENDING_SIGNALS,\n"
               "      signal.SIGQUIT in ENDING_SIGNALS)\n")
    assert out.stdout.split() == ["False", "True", "True"], out.stderr


def test_a_child_ends_once_the_watch_sees_its_supervisor_gone():
    """Where no signal comes with a parent's death (macOS, Windows) a thread looks: the child
    is ended once its supervisor is gone, and not before."""
    looks, ended = [], threading.Event()

    def gone() -> bool:
        looks.append(1)
        return len(looks) >= 3

    thread = watch_parent(1234, gone=gone, end=ended.set, every=0.01)
    assert ended.wait(10) and len(looks) == 3
    thread.join(5)
    assert not thread.is_alive() and thread.daemon


def test_a_living_supervisor_is_not_taken_for_gone():
    assert parent_gone(os.getppid())() is False
    assert parent_gone(os.getppid() + 1)() is True  # another parent than ours: gone


def test_a_supervisor_killed_ends_its_child_through_the_watch(tmp_path):
    """A real parent killed (-9): the watching child ends within a few looks."""
    marker = tmp_path / "ended"
    code = (
        "import os, subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', '''\n"
        "import os, threading\n"
        "from adjudicator.supervisor.child import watch_parent\n"
        "done = threading.Event()\n"
        "watch_parent(os.getppid(), end=done.set, every=0.02)\n"
        "done.wait(30)\n"
        f"open({str(marker)!r}, 'w').write('ended')\n"
        "'''])\n"
        "print(child.pid, flush=True)\n"
        "time.sleep(30)\n")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ, PYTHONPATH=REPO))
    try:
        parent.stdout.readline()
        time.sleep(0.3)
        assert not marker.exists()  # its supervisor lives: it runs on
        parent.kill()
        deadline = time.monotonic() + 15
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marker.read_text() == "ended"
    finally:
        parent.kill()
        parent.wait()


class NoSignalLoop(asyncio.SelectorEventLoop):
    """A loop that takes no signal handlers, as Windows' loops are."""

    def add_signal_handler(self, sig, callback, *args):
        raise NotImplementedError

    def remove_signal_handler(self, sig):
        raise NotImplementedError


def test_a_loop_without_signal_handlers_still_stops_on_a_stop_signal():
    """Windows' event loops take no signal handlers: the stop signals come through
    signal.signal, each handed to the loop; the handlers it had are back after."""
    loop = NoSignalLoop()
    before = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    got: list[int] = []
    try:
        async def main():
            stopped = asyncio.get_running_loop().create_future()
            undo = on_stop_signals(asyncio.get_running_loop(),
                                   lambda s: got.append(s) or stopped.set_result(s))
            assert signal.getsignal(signal.SIGINT) is not before[signal.SIGINT]
            os.kill(os.getpid(), signal.SIGINT)
            try:
                return await asyncio.wait_for(stopped, 10)
            finally:
                undo()

        assert loop.run_until_complete(main()) == signal.SIGINT
    finally:
        loop.close()
    assert got == [signal.SIGINT]
    assert {sig: signal.getsignal(sig) for sig in STOP_SIGNALS} == before


class Redirected(ConsoleOps):
    """Input a console, output redirected to a file (no console mode there)."""

    def __init__(self):
        self.calls = []

    def get_mode(self, which):
        return 0x01F7 if which == "in" else None

    def set_mode(self, which, mode):
        self.calls.append((which, mode))

    def write(self, data):
        self.calls.append(("write", data))


def test_a_console_whose_output_is_redirected_gets_no_screen_reset():
    console = Redirected()
    saved = SavedConsole(console)
    saved.lock()
    saved.restore()
    assert console.calls == [("in", 0x0200), ("in", 0x01F7)]


def test_without_a_console_nothing_is_set_or_written():
    saved = SavedConsole(ConsoleOps())
    assert saved.modes == {"in": None, "out": None}
    saved.lock()
    saved.restore()  # nothing to do, nothing fails
