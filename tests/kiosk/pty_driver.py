"""Run a terminal program under a real pseudo-terminal: write raw bursts, wait for screen bytes."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def kiosk_argv(config_path: str) -> list[str]:
    return [sys.executable, "-m", "adjudicator", "kiosk", "--config", config_path]


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env["TERM"] = "xterm-256color"
    env.pop("TEXTUAL", None)
    for name in ("LINES", "COLUMNS"):  # set in xdist's workers (80x24): they would override
        env.pop(name, None)  # the pty's own size (Python's shutil.get_terminal_size reads them)
    env.update(extra)
    return env


def hooked_env(tmp_path, hook: str) -> dict[str, str]:
    """child_env with HOOK as the kiosk's sitecustomize.py (code run in every process it
    starts, the forked kiosk included) and the lexicon cache in TMP_PATH."""
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(hook)
    return child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache"),
                     PYTHONPATH=f"{hooks}{os.pathsep}{REPO}")


class PtyApp:
    """One child on a pseudo-terminal of COLS x ROWS; everything it paints is kept in `screen`."""

    def __init__(self, argv: list[str], env: dict[str, str], cols: int = 80, rows: int = 24,
                 controlling: bool = False):
        """CONTROLLING: the pty is the program's controlling terminal (as on a real console:
        with the tty's signal keys on, Ctrl-C sends SIGINT to its foreground processes)."""
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.started = time.perf_counter()
        take = (lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0)) if controlling else None
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     start_new_session=True, close_fds=True, preexec_fn=take)
        os.close(slave)
        self.master = master
        self.screen = bytearray()

    def read_until(self, needle: bytes, timeout: float = 30.0, start: int = 0,
                   fail_on: tuple[bytes, ...] = ()) -> float:
        """Read until NEEDLE appears after offset START; returns the perf_counter when it did.

        Any of FAIL_ON appearing first fails at once (e.g. an entry error instead of a verdict).
        """
        deadline = time.monotonic() + timeout
        while needle not in self.screen[start:]:
            for bad in fail_on:
                if bad in self.screen[start:]:
                    raise AssertionError(f"{bad!r} appeared instead of {needle!r}")
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None and not self._readable(0):
                tail = bytes(self.screen[-2000:]).decode("utf-8", "replace")
                code = self.proc.poll()
                raise AssertionError(f"{needle!r} never appeared (exit {code}):\n{tail}")
            if self._readable(min(left, 0.5)):
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    chunk = b""
                self.screen += chunk
        return time.perf_counter()

    def drain(self, seconds: float = 0.05) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self._readable(0.01):
                try:
                    self.screen += os.read(self.master, 65536)
                except OSError:
                    return

    def _readable(self, timeout: float) -> bool:
        return bool(select.select([self.master], [], [], timeout)[0])

    def write(self, data: bytes) -> None:
        """One write: the whole burst reaches the terminal at once, as a fast typist's would."""
        assert os.write(self.master, data) == len(data)

    def resize(self, cols: int, rows: int) -> None:
        """The terminal device's new size, and SIGWINCH to the kiosk (and its supervisor)."""
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        try:  # our own child's process group: the pty is not its controlling terminal
            os.killpg(self.proc.pid, signal.SIGWINCH)
        except ProcessLookupError:
            pass

    def close(self) -> None:
        try:  # our own child and the kiosk it supervises: its process group (its own session)
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=10)
        finally:
            os.close(self.master)


def station_config(tmp_path, words: str = "QI\nZA\nCAT\nCAR\n", *, mode: str = "",
                   timers: str = "verdict_hold = 0.1\nverdict_clear = 60\n") -> tuple[str, str]:
    """A tiny station in TMP_PATH: (config path, journal path)."""
    (tmp_path / "tiny.txt").write_text(words)
    journal = tmp_path / "journal.db"
    config = tmp_path / "station.toml"
    config.write_text(
        f'station = "Pty"\nlexicon = "{tmp_path / "tiny.txt"}"\njournal = "{journal}"\n'
        + (f'mode = "{mode}"\n' if mode else "") + "[timers]\n" + timers
    )
    return str(config), str(journal)


class BusyCpu:
    """N busy-loop child processes while the block runs (two per core, say); killed by pid."""

    def __init__(self, n: int = 4):
        self.n = n
        self.procs: list[subprocess.Popen] = []

    def __enter__(self) -> BusyCpu:
        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                      for _ in range(self.n)]
        return self

    def __exit__(self, *exc) -> None:
        for proc in self.procs:
            proc.kill()
        for proc in self.procs:
            proc.wait(timeout=10)


def ready_station(tmp_path):
    """A kiosk on a pty, shown its Ready screen: yields (app, journal path); closed after, also
    when the kiosk never came up. For a test module's fixture."""
    config, journal = station_config(tmp_path)
    app = PtyApp(kiosk_argv(config), child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache")))
    try:
        app.read_until(b"press TAB.")
        yield app, journal
    finally:
        app.close()


def process_tree(pid: int) -> list[int]:
    """PID and every process below it (the supervised kiosk runs as a child)."""
    pids, i = [pid], 0
    while i < len(pids):
        try:
            with open(f"/proc/{pids[i]}/task/{pids[i]}/children") as f:
                pids += [int(p) for p in f.read().split()]
        except OSError:
            pass
        i += 1
    return pids


def kiosk_child(app: PtyApp) -> int:
    """The pid of the kiosk the supervisor APP runs (its child)."""
    children = process_tree(app.proc.pid)[1:]
    assert children, "the kiosk runs as the supervisor's child"
    return children[0]
