"""`adjudicator hub` as a real process: started, its printed lines read, stopped (SIGINT or kill)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def cli_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def _child_setup(then=None) -> None:
    """In the child: Ctrl-C's default action. A test worker may hold SIGINT ignored (seen under
    pytest-xdist with a terminal attached: SigIgn had SIGINT set), a child inherits that, and
    Python then installs no KeyboardInterrupt: the hub would never hear the SIGINT a test
    sends, as a background job in a shell does not."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if then is not None:
        then()


class HubProcess:
    def __init__(self, config: Path, port: int = 0, host: str = "127.0.0.1", stderr=None,
                 preexec_fn=None, accept_all: bool = False, command: list[str] | None = None,
                 args: tuple[str, ...] = ()):
        """STDERR: a file for the hub's log (default: a pipe); PREEXEC_FN: run in the child
        before the hub starts (e.g. a lower file limit); ACCEPT_ALL: a director accepts every
        new station as it appears (AttentiveDirector), until stop(); COMMAND: what runs as
        `adjudicator` (default: this Python's -m adjudicator; a bench's wrapper of it)."""
        self.director = None
        self.proc = subprocess.Popen(
            [*(command or [sys.executable, "-m", "adjudicator"]), "hub", "--host", host,
             "--port", str(port),
             "--config", str(config), *args], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if stderr is None else stderr, text=True, env=cli_env(),
            preexec_fn=lambda: _child_setup(preexec_fn))
        self.lines: list[str] = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("hub ended: " + (self.proc.stderr.read()
                                                    if self.proc.stderr else ""))
            self.lines.append(line.rstrip("\n"))
            if "/?key=" in line:  # the director's page: the last line it says at start
                break
        text = "\n".join(self.lines)
        self.director_url = re.search(r"(http://\S+/\?key=\S+)", text).group(1)
        self.url = re.search(r'hub = "([^"]+)"', text).group(1)
        self.local_url = self.director_url.split("/?key=")[0]  # 127.0.0.1, in clear
        self.token = re.search(r'hub_token = "([^"]+)"', text).group(1)
        self.pin = re.search(r'hub_fingerprint = "([^"]+)"', text).group(1)
        self.join_url = re.search(r"adjudicator join (\S+)", text).group(1)
        self.station_lines = [line.strip() for line in self.lines if line.strip().startswith(
            ("hub =", "hub_token =", "hub_fingerprint ="))]
        from adjudicator.link import pins

        pins.trust(self.url, self.pin)  # this process's senders, as the lines make a station
        self.errors: list[str] = []  # its stderr, read as it comes (a full pipe would stall it)
        import threading

        if self.proc.stderr is not None:
            threading.Thread(target=self._read_errors, daemon=True).start()
        if accept_all:
            self.director = AttentiveDirector(self)

    def _read_errors(self) -> None:
        try:
            for line in self.proc.stderr:
                self.errors.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass

    def stop(self, kill: bool = False) -> None:
        if self.director is not None:
            self.director.stop()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc.stdout.close()
        if self.proc.stderr:
            self.proc.stderr.close()


def wait_for(predicate, timeout: float = 20.0):
    """PREDICATE's first true value, asked every 50 ms; an AssertionError after TIMEOUT s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("not within the time allowed")


def accept_waiting(director_url: str) -> int:
    """As the director pressing Accept for every station in the waiting panel (issue 26: a
    station counts nowhere until then); how many were accepted."""
    import json
    import urllib.request

    state_url = director_url.replace("/?key=", "/state?key=")
    with urllib.request.urlopen(state_url, timeout=10) as r:
        waiting = json.loads(r.read())["waiting"]
    for station in waiting:
        request = urllib.request.Request(
            director_url.replace("/?key=", "/api/accept?key="), method="POST",
            data=json.dumps({"station": station["key"]}).encode(),
            headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).close()
    return len(waiting)


class AttentiveDirector:
    """A thread pressing Accept for every waiting station of HUB every 0.2 s until stop()
    (for tests of what accepted stations show; the waiting panel's own tests go without)."""

    def __init__(self, hub: HubProcess):
        import threading

        self.hub, self._stop = hub, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            try:
                accept_waiting(self.hub.director_url)
            except Exception:  # noqa: BLE001 - the hub restarting, or stopped: next look
                pass

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
