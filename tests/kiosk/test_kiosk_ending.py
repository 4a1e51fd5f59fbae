"""However the kiosk ends, the terminal is put back, one `adjudicator:` line says why, and the
exit code is the README's (issue 21, item 3).

Each way is tried through a real pseudo-terminal: TERM, HUP and INT to the supervisor or to the
kiosk child, INT during a verdict, a hung child, a killed child then TERM, the director's Quit.
The bytes written are read back: after the last time the alternate screen was entered, every
mode the kiosk turned on is turned off again, and the message comes after the screen is left.
Before: TERM and HUP to the supervisor exited 4 with no message, INT exited 130, each with the
alternate screen and mouse reporting left on.
"""

from __future__ import annotations

import os
import signal
import termios
import time

import pytest
from pty_driver import (REPO, PtyApp, child_env, hooked_env, kiosk_argv, kiosk_child,
                        process_tree, station_config)

ENTER = b"\x1b[?1049h"
LEAVE = b"\x1b[?1049l"
RESTORED = (LEAVE, b"\x1b[?1000l", b"\x1b[?1003l", b"\x1b[?1006l", b"\x1b[?25h", b"\x1b[?2004l",
            b"\x1b[?1004l")
# Loaded at the supervisor's start (sitecustomize), so in each kiosk child forked from it:
# typing "bye" runs the director screen's Quit the kiosk (without the PIN and its screen);
# typing "hang" blocks the app for good (it can no longer answer a signal).
QUIT_HOOK = '''
from kiosk.screens import ready
_changed = ready.ReadyScreen.on_input_changed
def on_input_changed(self, event):
    if "hang" in event.value:
        import time
        time.sleep(600)
    if "bye" in event.value:
        from kiosk.screens.director import DirectorScreen
        DirectorScreen.quit_kiosk(self)
        return
    return _changed(self, event)
ready.ReadyScreen.on_input_changed = on_input_changed
'''


def fresh_tty_mode() -> list:
    """A new pseudo-terminal's mode (echo, line editing, signal keys on): the kiosk's before."""
    master, slave = os.openpty()
    try:
        return termios.tcgetattr(slave)
    finally:
        os.close(master)
        os.close(slave)


@pytest.fixture
def kiosk(tmp_path):
    config, _ = station_config(tmp_path)
    env = hooked_env(tmp_path, QUIT_HOOK)
    app = PtyApp(kiosk_argv(config), env)
    try:
        app.read_until(b"press TAB.")
        app.drain(0.3)  # settled: the journal opened, the fonts loading
        yield app
    finally:
        app.close()


def ended(app: PtyApp, timeout: float = 30.0) -> tuple[int, bytes]:
    """The supervisor's exit code, and everything written after the last alternate screen."""
    code = app.proc.wait(timeout=timeout)
    app.drain(0.3)
    screen = bytes(app.screen)
    assert ENTER in screen, "the kiosk had entered the alternate screen"
    return code, screen[screen.rindex(ENTER):]


def assert_put_back(app: PtyApp, after: bytes, message: str) -> None:
    for sequence in RESTORED:
        assert sequence in after, f"{sequence!r} never written after the last {ENTER!r}"
    lines = [line for line in after.split(b"\n") if b"adjudicator:" in line]
    assert len(lines) == 1, lines
    assert message.encode() in lines[0]
    assert after.index(b"adjudicator:") > after.rindex(LEAVE), "said on the players' screen"
    assert b"Traceback" not in after
    assert termios.tcgetattr(app.master)[:4] == fresh_tty_mode()[:4], "the tty left in raw mode"


@pytest.mark.parametrize("target", ["supervisor", "child"])
@pytest.mark.parametrize("sig, code, message", [
    (signal.SIGTERM, 143, "stopped by SIGTERM"),
    (signal.SIGHUP, 129, "the terminal hung up (SIGHUP)"),
    (signal.SIGINT, 130, "interrupted (SIGINT)"),
])
def test_a_stop_signal_puts_the_terminal_back_and_says_so(kiosk, target, sig, code, message):
    pid = kiosk.proc.pid if target == "supervisor" else kiosk_child(kiosk)
    os.kill(pid, sig)  # a process this test started (the kiosk, or its supervisor's child)
    got, after = ended(kiosk)
    assert got == code
    assert_put_back(kiosk, after, message)


def test_an_interrupt_during_a_verdict(kiosk):
    mark = len(kiosk.screen)
    kiosk.write(b"qi\t")
    kiosk.read_until(b"the play is", start=mark)
    os.kill(kiosk.proc.pid, signal.SIGINT)
    got, after = ended(kiosk)
    assert got == 130
    assert_put_back(kiosk, after, "interrupted (SIGINT)")


def test_a_hung_kiosk_is_killed_and_the_supervisor_puts_the_terminal_back(kiosk):
    """The child cannot answer (blocked): nothing of Textual's own restore is written, so what
    is put back is the supervisor's doing, STOP_GRACE seconds after the signal."""
    kiosk.write(b"hang")
    time.sleep(0.5)
    os.kill(kiosk.proc.pid, signal.SIGTERM)
    got, after = ended(kiosk)
    assert got == 143
    assert_put_back(kiosk, after, "stopped by SIGTERM")


def test_after_a_killed_kiosk_restarts_the_tty_mode_is_still_the_terminals_own(kiosk):
    """The restarted child must not take the killed one's raw mode for the terminal's own."""
    mark = len(kiosk.screen)
    os.kill(kiosk_child(kiosk), signal.SIGKILL)
    kiosk.read_until(b"press TAB.", start=mark, timeout=60)
    kiosk.drain(0.3)
    os.kill(kiosk.proc.pid, signal.SIGTERM)
    got, after = ended(kiosk)
    assert got == 143
    assert_put_back(kiosk, after, "stopped by SIGTERM")


def test_the_directors_quit_puts_the_terminal_back(kiosk):
    kiosk.write(b"bye")
    got, after = ended(kiosk)
    assert got == 0
    assert_put_back(kiosk, after, "closed from director mode")


def test_a_kiosk_that_cannot_start_says_why_on_its_terminal_and_moves_nothing(tmp_path):
    """Refused before it took the screen: its one line, exit 3, and no screen sequence (leaving
    an alternate screen never entered would move the cursor over what the terminal shows)."""
    config = tmp_path / "station.toml"
    config.write_text(f'lexicon = "{tmp_path / "missing.txt"}"\njournal = "{tmp_path / "j.db"}"\n')
    app = PtyApp(kiosk_argv(str(config)), child_env(PYTHONPATH=REPO))
    try:
        code = app.proc.wait(timeout=60)
        app.drain(0.3)
        mode = termios.tcgetattr(app.master)
    finally:
        app.close()
    shown = bytes(app.screen)
    assert code == 3
    assert shown.count(b"adjudicator:") == 1 and b"missing.txt" in shown
    assert b"\x1b[" not in shown, shown
    assert mode[:4] == fresh_tty_mode()[:4]


@pytest.mark.parametrize("sig", [signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2, signal.SIGABRT,
                                 signal.SIGRTMIN])
def test_any_catchable_signal_to_the_supervisor_puts_the_terminal_back(kiosk, sig):
    """Before: SIGQUIT (Ctrl-\\) or SIGUSR1 killed the supervisor at once, the players' terminal
    left on the alternate screen with mouse reporting (issue 28, item 6)."""
    os.kill(kiosk.proc.pid, sig)
    got, after = ended(kiosk)
    assert got == 128 + sig
    assert_put_back(kiosk, after, f"stopped by {signal.Signals(sig).name}")


def test_the_tty_stays_raw_while_a_killed_kiosk_restarts(kiosk):
    """From the kill until the new child's Ready, the tty is never in a mode whose keys send
    signals or echo: before, the terminal's own mode was set for 19-32 ms between children."""
    flags = []
    mark = len(kiosk.screen)
    os.kill(kiosk_child(kiosk), signal.SIGKILL)
    deadline = time.monotonic() + 60
    while b"press TAB." not in kiosk.screen[mark:] and time.monotonic() < deadline:
        flags.append(termios.tcgetattr(kiosk.master)[3])
        if kiosk._readable(0):
            kiosk.screen += os.read(kiosk.master, 65536)
    assert b"press TAB." in kiosk.screen[mark:], "the kiosk came back"
    assert len(flags) > 100, "the mode was looked at all through the restart"
    assert not [f for f in flags if f & (termios.ISIG | termios.ECHO | termios.ICANON)]


def shell_kiosk(tmp_path) -> PtyApp:
    """The kiosk started from a job-control shell on its controlling terminal, as on a real
    console: the kiosk is the shell's foreground job, so the tty's signal keys reach it, and
    its process group is not orphaned, so stop signals stop it (they would be discarded)."""
    config, _ = station_config(tmp_path)
    command = " ".join(kiosk_argv(config)) + "; echo kiosk-ended $?; sleep 60"
    app = PtyApp(["sh", "-m", "-c", command], hooked_env(tmp_path, QUIT_HOOK), controlling=True)
    app.read_until(b"press TAB.")
    app.drain(0.3)
    return app


def supervisor_and_child(app: PtyApp) -> tuple[int, int]:
    tree = process_tree(app.proc.pid)
    assert len(tree) >= 3 and "sleep" not in open(f"/proc/{tree[1]}/cmdline").read(), tree
    return tree[1], tree[2]


def running(pid: int) -> bool:
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("T", "t", "Z", "X")


@pytest.mark.parametrize("keys", [b"\x03", b"\x1a", b"\x1c"], ids=["ctrl-c", "ctrl-z", "ctrl-bs"])
def test_signal_keys_held_through_a_restart_are_only_keys(tmp_path, keys):
    """A signal key held while the kiosk restarts: before, Ctrl-C ended the kiosk at a shell
    prompt, Ctrl-Z stopped it and Ctrl-\\ killed the supervisor. Now it comes back and judges."""
    app = shell_kiosk(tmp_path)
    try:
        supervisor, child = supervisor_and_child(app)
        mark = len(app.screen)
        os.kill(child, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while b"press TAB." not in app.screen[mark:] and time.monotonic() < deadline:
            app.write(keys)  # held: the key repeats
            app.drain(0.002)
        app.drain(0.5)
        assert b"kiosk-ended" not in app.screen, "the kiosk ended at a shell prompt"
        assert running(supervisor), "the kiosk's supervisor is stopped or gone"
        supervisor, child = supervisor_and_child(app)
        assert running(child), "the kiosk is stopped"
        mark = len(app.screen)
        app.write(b"qi\t")
        app.read_until(b"the play is", start=mark)
    finally:
        app.close()


@pytest.mark.parametrize("sig", [signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGSTOP])
@pytest.mark.parametrize("target", ["supervisor", "child"])
def test_a_kiosk_sent_a_stop_signal_runs_on(tmp_path, sig, target):
    """Before: `kill -TSTP` (or TTIN) of the child stopped it for good (Textual left the
    alternate screen and stopped itself); the supervisor never saw it."""
    app = shell_kiosk(tmp_path)
    try:
        supervisor, child = supervisor_and_child(app)
        os.kill(supervisor if target == "supervisor" else child, sig)
        time.sleep(0.5)
        mark = len(app.screen)
        if sig != signal.SIGSTOP or target == "child":  # SIGSTOP cannot be refused
            assert running(supervisor) and running(child)
            app.write(b"qi\t")
            app.read_until(b"the play is", start=mark)
            assert supervisor_and_child(app) == (supervisor, child), "continued, not restarted"
    finally:
        app.close()
