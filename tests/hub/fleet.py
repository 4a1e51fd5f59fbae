"""A hall of simulated stations for the fault-injection test and bench: worker processes of
stations recording and forwarding, a flaky link in front of the hub, and the final count.

`python fleet.py follow FOLDER HUB_URL TOKEN HEARTBEAT NAME...` runs stations that only follow
the hub's event (the bench of issue 27). `python fleet.py FOLDER HUB_URL TOKEN LEXICON ROWS SEED
NAME...` runs one worker: each NAME is a
station journal FOLDER/NAME.db (reopened where it stopped if the worker was killed) recording
until it holds ROWS rows, each forwarded by its own Forwarder; it prints "done" once the hub
has acknowledged every row of every station it runs.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PLAYS = [("QI",), ("QI", "ZA"), ("CAT", "XU"), ("JO", "QQ"), ("ZA",), ("XU", "JO", "CAT")]
WORDS = ["QI", "ZA", "CAT", "XU", "JO"]


def worker(folder: str, hub: str, token: str, lexicon: str, rows: int, seed: int,
           names: list[str]) -> None:
    from adjudicator.link.forward import Forwarder
    from adjudicator.journal import Journal
    from adjudicator.lexicon.compiled import Lexicon
    from adjudicator.judging.verdict import adjudicate

    lex = Lexicon.load(lexicon)
    rng = random.Random(seed)
    threading.excepthook = lambda args: print(f"thread died: {args.exc_type.__name__}",
                                              flush=True)
    stations = []
    for name in names:
        path = os.path.join(folder, f"{name}.db")
        journal = Journal.open(path, split_window=0)
        journal.forward()
        status = {"station": name, "lexicon": lex.name, "fingerprint": lex.fingerprint,
                  "printer": "ready"}
        fwd = Forwarder(path, hub, token, poll=0.05, heartbeat=1.0, timeout=2.0,
                        status=lambda s=status: s).start()
        stations.append([name, journal, fwd, journal.count()])
    print("started", flush=True)
    while any(s[3] < rows for s in stations):
        for s in stations:
            if s[3] < rows:
                s[1].record(adjudicate(lex, rng.choice(PLAYS)), station=s[0], mode="station",
                            table=str(rng.randint(1, 40)))
                s[3] += 1
        time.sleep(rng.uniform(0, 0.01))
    print("recorded", flush=True)
    while not all(s[2].acked == rows for s in stations):
        if not all(s[2].alive for s in stations):
            print("sender thread dead", flush=True)
        time.sleep(0.05)
    print(f"restarts {sum(s[2].restarts for s in stations)}", flush=True)
    print("done", flush=True)
    for s in stations:
        s[2].stop()
        s[1].close()


def follower(folder: str, hub: str, token: str, heartbeat: float, names: list[str]) -> None:
    """Stations that record nothing and follow the hub's event (issue 27): each prints
    "beat NAME T" at every heartbeat answered and "event NAME VERSION T" when its sender hands
    it a new event (T: time.time()), until killed."""
    from adjudicator.journal import Journal
    from adjudicator.link.forward import Forwarder

    lock = threading.Lock()

    def say(line: str) -> None:
        with lock:
            print(line, flush=True)

    for name in names:
        path = os.path.join(folder, f"{name}.db")
        Journal.open(path, split_window=0).close()
        fwd = Forwarder(path, hub, token, poll=0.05, heartbeat=heartbeat, timeout=5.0,
                        status=lambda n=name: {"station": n, "locked": "yes"})
        fwd.on_event = lambda e, n=name: say(f"event {n} {e.version} {time.time():.4f}")
        beat = fwd.beat

        def counted(conn=None, n=name, beat=beat):
            beat(conn)
            say(f"beat {n} {time.time():.4f}")
        fwd.beat = counted
        fwd.start()
        time.sleep(heartbeat / len(names))  # beats spread over the interval, as in a hall
    say("started")
    threading.Event().wait()


def _pin(hub: str) -> str:
    """The certificate this process trusts for HUB, for a worker to trust it too."""
    from adjudicator.link import pins

    return pins.pinned(hub)


class Worker:
    """One worker process of the fleet; kill() is kill -9."""

    def __init__(self, folder, hub, token, lexicon, rows, seed, names):
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        self.args = [sys.executable, __file__, str(folder), hub, token, str(lexicon), str(rows),
                     str(seed), *names]
        self.env = env
        self.env["FLEET_HUB_PIN"] = _pin(hub)
        self.start()

    @classmethod
    def following(cls, folder, hub, token, heartbeat: float, names) -> Worker:
        """A worker of stations that follow the event (follower) instead of recording."""
        self = cls.__new__(cls)
        self.env = dict(os.environ)
        self.env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO),
                                                                self.env.get("PYTHONPATH")]))
        self.args = [sys.executable, __file__, "follow", str(folder), hub, token,
                     str(heartbeat), *names]
        self.env["FLEET_HUB_PIN"] = _pin(hub)
        self.start()
        return self

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=self.env)
        self.lines: list[str] = []
        self.errors: list[str] = getattr(self, "errors", [])  # every run's stderr
        threading.Thread(target=self._read, args=(self.proc.stdout, self.lines),
                         daemon=True).start()
        threading.Thread(target=self._read, args=(self.proc.stderr, self.errors),
                         daemon=True).start()

    @staticmethod
    def _read(stream, into: list) -> None:
        for line in stream:
            into.append(line.rstrip("\n"))

    @property
    def done(self) -> bool:
        return "done" in self.lines

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class FlakyLink:
    """A TCP relay in front of the hub with the faults of a real hall's network: it loses some
    requests and some answers (after the hub has acted on them: the sender must not count on
    any answer), resets connections, cuts requests and answers short, garbles answers and
    delays bytes. DROP is the share of connections that meet a fault, each fault in turn."""

    FAULTS = ("request", "answer", "reset", "cut request", "cut answer", "garble", "delay")

    def __init__(self, upstream_port: int, drop: float = 0.2, seed: int = 1):
        self.upstream, self.drop = upstream_port, drop
        self.rng = random.Random(seed)
        self.dropped = {fault: 0 for fault in self.FAULTS}
        self.connections = 0
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            self.server = self.loop.run_until_complete(
                asyncio.start_server(self._handle, "127.0.0.1", 0))
            self.port = self.server.sockets[0].getsockname()[1]
            ready.set()
            self.loop.run_forever()
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        ready.wait(10)

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"  # TLS end to end: the link only relays it

    async def _handle(self, reader, writer) -> None:
        fault = None
        self.connections += 1
        period = round(1 / self.drop) if self.drop else 0
        if period and self.connections % period == 0:  # each fault in turn
            fault = self.FAULTS[(self.connections // period) % len(self.FAULTS)]
            self.dropped[fault] += 1
        try:
            if fault == "request":
                return  # the link drops before the request reaches the hub
            if fault == "reset":
                import socket
                import struct

                sock = writer.get_extra_info("socket")
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                return  # closed with a reset
            try:
                up_r, up_w = await asyncio.open_connection("127.0.0.1", self.upstream)
            except OSError:
                return  # the hub is down
            up = self._pipe(reader, up_w, cut=40 if fault == "cut request" else None,
                            delay=fault == "delay")
            down = self._pipe(up_r, None if fault == "answer" else writer,
                              cut=12 if fault == "cut answer" else None,
                              garble=fault == "garble", delay=fault == "delay")
            try:
                await asyncio.gather(up, down)
            finally:
                up_w.close()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    async def _pipe(self, src, dst, cut=None, garble=False, delay=False) -> None:
        sent = 0
        while True:
            chunk = await src.read(65536 if not delay else 7)
            if not chunk:
                break
            if dst is None:
                continue
            if cut is not None and sent + len(chunk) >= cut:
                dst.write(chunk[:cut - sent])
                await dst.drain()
                dst.close()
                return
            if garble:
                chunk = bytes(self.rng.randrange(256) for _ in chunk)
            if delay:
                await asyncio.sleep(0.01)
            dst.write(chunk)
            sent += len(chunk)
            await dst.drain()
        if dst is not None and dst.can_write_eof():
            try:
                dst.write_eof()
            except OSError:
                pass

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def check(folder: Path, hub_db: Path, stations: list[str], rows: int) -> dict:
    """Every station's rows at the hub exactly once; every chain intact. The counts, for asserts."""
    from adjudicator.journal import export_journal, verify

    hub_rows = json.loads(export_journal(str(hub_db), "json"))
    keys = [(r["origin_journal"], r["origin_seq"]) for r in hub_rows]
    at_hub = {(r["origin_journal"], r["origin_seq"]): (r["time_utc"], r["words"], r["verdict"])
              for r in hub_rows}
    missing = differ = 0
    broken = [] if verify(str(hub_db)).intact else ["hub"]
    for name in stations:
        path = folder / f"{name}.db"
        if not verify(str(path)).intact:
            broken.append(name)
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        jid = conn.execute("SELECT value FROM meta WHERE key='journal_id'").fetchone()[0]
        for seq, when, words, ok in conn.execute(
                "SELECT seq, time_utc, words, acceptable FROM challenges"):
            held = at_hub.get((jid, seq))
            if held is None:
                missing += 1
            elif held != (when, words.split(), "ACCEPTABLE" if ok else "UNACCEPTABLE"):
                differ += 1
        conn.close()
    return {"hub_rows": len(hub_rows), "expected": rows * len(stations), "missing": missing,
            "duplicates": len(keys) - len(set(keys)), "differ": differ, "broken": broken}


def hub_progress(hub) -> int:
    """Rows the hub holds, from its director's state (-1 while it is down); the director
    accepts each new station as it appears in the waiting panel (issue 26)."""
    import urllib.request

    from hub_process import accept_waiting

    url = hub.director_url.replace("/?key=", "/state?key=")
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            state = json.loads(r.read())
        if state["waiting"]:
            accept_waiting(hub.director_url)
    except OSError:
        return -1
    return (sum(s["challenges"] for s in state["stations"])
            + sum(w["rows"] for w in state["waiting"]))


def run_faults(tmp: Path, stations: int = 8, rows: int = 40, workers: int = 2,
               drop: float = 0.2, worker_kills: int = 1, hub_restarts: int = 2,
               timeout: float = 300.0) -> dict:
    """The whole fault-injection run; returns check()'s counts plus what was injected."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from hub_process import HubProcess

    from adjudicator.lexicon.compile import compile_sources

    src = tmp / "words.txt"
    src.write_text("\n".join(WORDS) + "\n")
    lexicon = tmp / "words.lex"
    compile_sources([str(src)], str(lexicon), name="FLEET")
    hub = HubProcess(tmp / "hub.toml")
    port = int(hub.url.rsplit(":", 1)[1])
    link = FlakyLink(port, drop)
    from adjudicator.link import pins

    pins.trust(link.url, hub.pin)  # the hub's certificate, reached through the flaky link
    names = [f"S{i:02d}" for i in range(stations)]
    fleet = [Worker(tmp, link.url, hub.token, lexicon, rows, i, names[i::workers])
             for i in range(workers)]
    expected = stations * rows
    # the faults, each when the hub holds this share of the rows
    plan = sorted([(0.15 + 0.5 * k / max(1, worker_kills), "kill worker", k)
                   for k in range(worker_kills)] +
                  [(0.3 + 0.4 * k / max(1, hub_restarts), "restart hub", k)
                   for k in range(hub_restarts)])
    injected = []
    stopped: list = []  # hubs stopped on purpose (their stderr is read to its end)
    started = time.monotonic()
    try:
        while not all(w.done for w in fleet):
            if time.monotonic() - started > timeout:
                raise AssertionError(f"not done in {timeout:g} s: {injected}")
            held = hub_progress(hub)
            if plan and held >= plan[0][0] * expected:
                _, what, k = plan.pop(0)
                if what == "kill worker":
                    victim = fleet[k % len(fleet)]
                    victim.kill()  # kill -9, mid-send
                    time.sleep(0.3)
                    victim.start()
                else:
                    hub.stop(kill=True)  # kill -9 (issue 20: 2 hub kill -9 in the fault run)
                    stopped.append(hub)
                    time.sleep(1.0)
                    hub = HubProcess(tmp / "hub.toml", port=port)
                injected.append((what, held))
            time.sleep(0.1)
        took = time.monotonic() - started
    finally:
        for w in fleet:
            w.stop()
        hub.stop()
        link.close()
    result = check(tmp, tmp / "hub.db", names, rows)
    said = [line for w in fleet for line in w.errors + w.lines]
    said += [line for h in stopped + [hub] for line in h.errors]
    result.update(injected=injected, seconds=took, dropped=dict(link.dropped),
                  tracebacks=sum("Traceback" in line for line in said),
                  dead=sum(line.startswith(("thread died", "sender thread dead"))
                           for line in said))
    return result


if __name__ == "__main__":
    a = sys.argv[1:]
    from adjudicator.link import pins

    hub_url = a[2] if a[0] == "follow" else a[1]
    pins.trust(hub_url, os.environ.get("FLEET_HUB_PIN", ""))  # as its config would
    if a[0] == "follow":  # fleet.py follow FOLDER HUB TOKEN HEARTBEAT NAME...
        follower(a[1], a[2], a[3], float(a[4]), a[5:])
    else:
        worker(a[0], a[1], a[2], a[3], int(a[4]), int(a[5]), a[6:])
