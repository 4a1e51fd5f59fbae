"""Where a kiosk verdict's time goes: one TAB (or ADJUDICATE tap) through a real pty, stage by stage.

A sitecustomize hook wraps the kiosk's steps with CLOCK_MONOTONIC stamps (the same clock in every
process on Linux, so the bench's write and read line up with them): key read by the input
thread, Ready's handler, the judgement, the journal's commit (its file checked, BEGIN ... COMMIT,
synchronous=FULL), the after-commit work (head file, checkpoint), show_verdict, the frame queued
and the frame written and flushed to the pty by the writer thread, the bench's read of it.
Nothing in the kiosk itself changes: the hook wraps functions from outside.
Run: python bench/verdict_profile.py [--rounds N] [--load] [--tap]
[--cprofile FILE]
(--load: tests/journal in two workers beside it, as bench/test_kiosk_load_bench.py does.)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "kiosk"))
from pty_driver import REPO, PtyApp, child_env, kiosk_argv  # noqa: E402

HOOK = r'''
import os, time
_LOG = os.environ["VERDICT_PROFILE_LOG"]
_fd = os.open(_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

def stamp(name):
    os.write(_fd, f"{name} {time.monotonic():.6f}\n".encode())

def wrap(owner, attr, name, test=None):
    inner = getattr(owner, attr)
    def wrapped(*a, **k):
        hit = test is None or test(*a, **k)
        if hit:
            stamp(name + ">")
        try:
            return inner(*a, **k)
        finally:
            if hit:
                stamp(name + "<")
    setattr(owner, attr, wrapped)

from kiosk import terminal, app
from kiosk.screens import ready
from adjudicator.station import service as station, unseen_verdict
from adjudicator.journal import store, anchor, db, held

def _read_hit(self):
    return True
orig_read = terminal.KioskDriver._read
def _read(self):
    data = orig_read(self)
    if b"\t" in data or b"\x1b[<0;" in data:
        stamp("read")
    return data
terminal.KioskDriver._read = _read
orig_write = terminal.KioskDriver.write
def _dwrite(self, data):
    if "the play is" in data:
        stamp("queued")
    return orig_write(self, data)
terminal.KioskDriver.write = _dwrite
state = {"frame": False}
orig_fw = terminal._Flushing.write
def _fwrite(self, text):
    if "the play is" in text:
        state["frame"] = True
    return orig_fw(self, text)
terminal._Flushing.write = _fwrite
class _File:  # the terminal file under the writer thread: its flush after the frame, stamped
    def __init__(self, file):
        self._f = file
    def write(self, text):
        return self._f.write(text)
    def flush(self):
        r = self._f.flush()
        if state["frame"]:
            state["frame"] = False
            stamp("flushed")
        return r
    def __getattr__(self, name):
        return getattr(self._f, name)
orig_init = terminal._Flushing.__init__
def _finit(self, file):
    orig_init(self, _File(file))
terminal._Flushing.__init__ = _finit
wrap(ready.ReadyScreen, "on_entry_input_adjudicate", "handler")
wrap(unseen_verdict.UnseenVerdict, "rechallenged", "unseen")
wrap(station.Station, "judge", "judge")
wrap(store.Journal, "_write", "commit")
wrap(store.Journal, "_anchor", "after")
wrap(anchor, "write_head", "head")
wrap(db, "checkpoint", "checkpoint")
wrap(held.HeldFile, "check", "check")
wrap(app.KioskApp, "show_verdict", "show")
wrap(unseen_verdict.UnseenVerdict, "shown", "mark")
from textual import screen as tscreen
wrap(tscreen.Screen, "_on_screen_resume", "resume", lambda self, e: type(self).__name__ == "VerdictScreen")
wrap(tscreen.Screen, "_refresh_layout", "layout", lambda self, *a, **k: type(self).__name__ == "VerdictScreen")
wrap(tscreen.Screen, "_compositor_refresh", "paint", lambda self: type(self).__name__ == "VerdictScreen")
if os.environ.get("VERDICT_PROFILE_SWITCH"):  # an experiment: the GIL's switch interval
    import sys
    sys.setswitchinterval(float(os.environ["VERDICT_PROFILE_SWITCH"]))
if os.environ.get("VERDICT_PROFILE_CPROFILE"):  # the UI thread from the handler to the frame
    import atexit, cProfile, signal
    prof = cProfile.Profile()
    def on(*a, **k):
        prof.enable()
    def off():
        prof.disable()
        prof.dump_stats(os.environ["VERDICT_PROFILE_CPROFILE"])
    inner_h = ready.ReadyScreen.on_entry_input_adjudicate
    def handler(self, event):
        prof.enable()
        return inner_h(self, event)
    ready.ReadyScreen.on_entry_input_adjudicate = handler
    inner_q = terminal.KioskDriver.write
    def queued(self, data):
        r = inner_q(self, data)
        if "the play is" in data:
            off()
        return r
    terminal.KioskDriver.write = queued
'''

STAGES = [  # (label, from, to)
    ("pty write -> input thread read", "sent", "read"),
    ("read -> Ready's handler", "read", "handler>"),
    ("handler -> judge", "handler>", "judge>"),
    ("judge: file check", "check>", "check<"),
    ("judge: commit (BEGIN..COMMIT, fsync)", "commit>", "commit<"),
    ("judge: head file (write+fsync)", "head>", "head<"),
    ("judge: checkpoint", "checkpoint>", "checkpoint<"),
    ("judge: whole", "judge>", "judge<"),
    ("judge -> show_verdict", "judge<", "show>"),
    ("show_verdict", "show>", "show<"),
    ("show_verdict -> frame queued", "show<", "queued"),
    ("  show -> verdict screen resumed", "show<", "resume>"),
    ("  resume (restyle whole screen)", "resume>", "resume<"),
    ("  resume -> layout", "resume<", "layout>"),
    ("  layout", "layout>", "layout<"),
    ("  layout -> paint", "layout<", "paint>"),
    ("  paint (compositor render)", "paint>", "paint<"),
    ("frame queued -> written+flushed", "queued", "flushed"),  # (the writer thread)
    ("flushed -> bench read", "flushed", "seen"),
    ("TOTAL pty write -> verdict read", "sent", "seen"),
]


def _events(log: str) -> list[tuple[str, float]]:
    with open(log) as f:
        return [(name, float(t)) for name, t in (line.split() for line in f if line.strip())]


def run(rounds: int, tap: bool, load: bool) -> None:
    folder = tempfile.mkdtemp(prefix="verdict-profile-")
    with open(os.path.join(folder, "tiny.txt"), "w") as f:
        f.write("QI\nZA\nCAT\n")
    config = os.path.join(folder, "station.toml")
    with open(config, "w") as f:
        f.write(f'station = "Bench"\nlexicon = "{folder}/tiny.txt"\n'
                f'journal = "{folder}/journal.db"\n'
                "[timers]\nverdict_hold = 0\nverdict_clear = 60\n")
    hooks = os.path.join(folder, "hooks")
    os.mkdir(hooks)
    with open(os.path.join(hooks, "sitecustomize.py"), "w") as f:
        f.write(HOOK)
    log = os.path.join(folder, "events.log")
    env = child_env(ADJUDICATOR_CACHE=os.path.join(folder, "cache"), VERDICT_PROFILE_LOG=log,
                    PYTHONPATH=f"{hooks}{os.pathsep}{REPO}")
    suite = None
    if load:
        suite = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-n", "2", "-p",
                                  "no:cacheprovider", os.path.join(REPO, "tests", "journal")],
                                 env=dict(os.environ, PYTHONPATH=REPO), stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
    app = PtyApp(kiosk_argv(config), env)
    per_round: list[dict[str, float]] = []
    try:
        app.read_until(b"press TAB.")
        app.drain(float(os.environ.get("VERDICT_PROFILE_SETTLE", "1.5")))  # the start's work
        for _ in range(rounds):
            if suite is not None and suite.poll() is not None:
                suite = subprocess.Popen(suite.args, env=dict(os.environ, PYTHONPATH=REPO),
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         start_new_session=True)
            app.write(b"qi za")
            app.read_until(b"qi za", start=len(app.screen))
            app.drain(0.1)
            os.truncate(log, 0)
            mark = len(app.screen)
            sent = time.monotonic()
            app.write(b"\x1b[<0;40;23M\x1b[<0;40;23m" if tap else b"\t")
            app.read_until(b"the play is", start=mark)
            seen = time.monotonic()
            app.drain(0.1)
            stamps = {"sent": sent, "seen": seen}
            for name, t in _events(log):
                stamps.setdefault(name, t)  # the first of each
            per_round.append(stamps)
            app.write(b" ")
            app.read_until(b"press TAB.", start=len(app.screen))
            app.drain(0.05)
    finally:
        app.close()
        if suite is not None and suite.poll() is None:
            if sys.platform == "win32":  # no process groups (and no pty: POSIX only)
                suite.kill()
            else:
                os.killpg(suite.pid, 9)  # the suite and its workers: their own session
            suite.wait()
    print(f"{rounds} {'taps' if tap else 'TABs'}, load beside: {load}; ms (p50 / p90 / max)")
    first = per_round[0]
    print("  the first verdict after the start: " + ", ".join(
        f"{label.strip()} {(first[b] - first[a]) * 1000:.1f}" for label, a, b in STAGES
        if a in first and b in first and (first[b] - first[a]) > 0.002))
    for label, a, b in STAGES:
        spans = sorted((r[b] - r[a]) * 1000 for r in per_round if a in r and b in r)
        if spans:
            p = lambda q: spans[min(len(spans) - 1, int(q * len(spans)))]  # noqa: E731
            print(f"  {label:40s} {p(0.5):7.2f} {p(0.9):7.2f} {spans[-1]:7.2f}  (n={len(spans)})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--tap", action="store_true")
    parser.add_argument("--load", action="store_true")
    parser.add_argument("--cprofile", help="cProfile the UI thread, handler to frame, into FILE")
    args = parser.parse_args()
    if args.cprofile:
        os.environ["VERDICT_PROFILE_CPROFILE"] = os.path.abspath(args.cprofile)
    run(args.rounds, args.tap, args.load)
