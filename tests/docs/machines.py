"""The machines of a walked event, each an empty folder of its own, and what runs there."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ADJUDICATOR = [sys.executable, "-m", "adjudicator"]


class Machine:
    """A new machine: FOLDER is its working folder and its home (config, data, cache in it)."""

    def __init__(self, name: str, folder: Path, command: list[str] | None = None,
                 env: dict[str, str] | None = None):
        """COMMAND: what runs as `adjudicator` (default: this Python's -m adjudicator); ENV:
        more variables for it."""
        self.name, self.folder, self.command = name, folder, command or ADJUDICATOR
        folder.mkdir(parents=True, exist_ok=True)
        extra = env
        env = {k: v for k, v in os.environ.items() if not k.startswith("ADJUDICATOR_")}
        env.update(HOME=str(folder), XDG_CONFIG_HOME=str(folder / ".config"),
                   XDG_DATA_HOME=str(folder / ".local/share"),
                   XDG_CACHE_HOME=str(folder / ".cache"),
                   XDG_STATE_HOME=str(folder / ".local/state"),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(REPO),
                                                            env.get("PYTHONPATH")])))
        self.env = {**env, **(extra or {})}

    def holds(self, args: list[str]) -> bool:
        """Some argument names a file in this machine's folder."""
        return any(not a.startswith(("-", "http")) and (self.folder / a).is_file()
                   for a in args)

    def run(self, args: list[str], stdin: str = "") -> tuple[int, list[str]]:
        """`adjudicator ARGS` here, to its end: (exit code, what it printed, both streams)."""
        done = subprocess.run([*self.command, *args], cwd=self.folder, env=self.env, text=True,
                              input=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=180)
        return done.returncode, done.stdout.splitlines()

    def start(self, args: list[str], last: str) -> Running:
        """`adjudicator ARGS` here, kept running, once it has printed a line holding LAST."""
        return Running(self, args, last)


class Running:
    """A program left running (the hub, the phone server): its start-up lines read."""

    def __init__(self, machine: Machine, args: list[str], last: str):
        self.errors = open(machine.folder / f"{args[0]}.err", "w+")
        self.proc = subprocess.Popen([*machine.command, *args], cwd=machine.folder,
                                     env=machine.env, text=True, stdout=subprocess.PIPE,
                                     stderr=self.errors,
                                     preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                      signal.SIG_DFL))
        self.lines: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                self.errors.seek(0)
                raise AssertionError(f"{args[0]} ended: {self.errors.read()}")
            self.lines.append(line.rstrip("\n"))
            if last in line:
                return
        raise AssertionError(f"{args[0]} said no {last!r} within a minute")

    def interrupt(self) -> tuple[int, str]:
        """Ctrl-C: (its exit code, its last line on stderr)."""
        self.proc.send_signal(signal.SIGINT)
        code = self.proc.wait(30)
        self.proc.stdout.close()
        self.errors.seek(0)
        said = self.errors.read().splitlines()
        self.errors.close()
        return code, said[-1] if said else ""

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def director_get(director_url: str, route: str) -> dict:
    """GET ROUTE of the director's page (on the hub's 127.0.0.1 listener), as JSON."""
    base, key = director_url.split("/?key=")
    with urllib.request.urlopen(f"{base}{route}?key={key}", timeout=10) as r:
        return json.loads(r.read())


def director_post(director_url: str, route: str, body: dict) -> dict:
    """POST BODY to ROUTE as the director's page does (its Accept button, for one)."""
    base, key = director_url.split("/?key=")
    request = urllib.request.Request(f"{base}{route}?key={key}", json.dumps(body).encode(),
                                     method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.loads(r.read())


def wait_for(predicate, timeout: float = 30.0, what: str = "it"):
    """PREDICATE's first true value, asked every 0.1 s; an AssertionError after TIMEOUT s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {timeout} s")
