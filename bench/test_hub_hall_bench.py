"""The hub in a real hall: a restart rebuilt from its journal, 1,100 trickling connections under
`ulimit -n 1024`, 1,000 event streams held open; each against a baseline measured in this run.
Run each once (the machine is shared): python -m pytest bench/test_hub_hall_bench.py
"""

from __future__ import annotations

import json
import resource
import socket
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "hub"))

from benchutil import report  # noqa: E402
from hub_process import HubProcess, accept_waiting  # noqa: E402

from adjudicator.link.forward import Forwarder
from adjudicator.link.hubclient import post  # noqa: E402
from adjudicator.journal import Journal  # noqa: E402
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon  # noqa: E402
from adjudicator.judging.verdict import adjudicate  # noqa: E402

TRICKLERS = 1100
STREAMS = 1000


def real_lexicon(tmp: Path, name: str) -> Lexicon:
    import os

    import pytest

    folder = os.environ.get("ADJUDICATOR_TEST_LEXICONS", "")
    src = Path(folder) / f"{name}.txt"
    if not folder or not src.exists():
        pytest.skip(f"needs {name}.txt in $ADJUDICATOR_TEST_LEXICONS")
    compile_sources([str(src)], str(tmp / f"{name}.lex"), name=name)
    return Lexicon.load(str(tmp / f"{name}.lex"))


def tiny_lexicon(tmp: Path) -> Lexicon:
    src = tmp / "TINY.txt"
    src.write_text("QI\nZA\nCAT\n")
    compile_sources([str(src)], str(tmp / "TINY.lex"), name="TINY")
    return Lexicon.load(str(tmp / "TINY.lex"))


def get_json(url: str, timeout: float = 5.0):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return json.loads(r.read())
    except OSError:
        return None


def stations(tmp: Path, hub: HubProcess, plan, rows: int) -> None:
    """PLAN: [(name, lexicon)]: each station records ROWS rows and pushes them (no status)."""
    for i, (name, lex) in enumerate(plan):
        path = tmp / f"s{i}.db"
        with Journal.open(path, split_window=0) as journal:
            journal.forward()
            for n in range(rows):
                journal.record(adjudicate(lex, ("QI", "ZA") if n % 2 else ("CAT",)),
                               station=name, mode="station", table=str(1 + n % 20))
        fwd = Forwarder(str(path), hub.url, hub.token)
        fwd.push()
        fwd.stop()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def post_p95(hub: HubProcess, n: int = 60) -> float:
    times = []
    for i in range(n):
        start = time.monotonic()
        key = bytes([i % 8]) * 32  # each bench station its own key (sent every time: harmless)
        post(hub.url, "/api/heartbeat", hub.token, {"journal_id": f"bench{i % 8}",
             "station": f"Bench {i % 8}", "last_seq": 0, "key": key.hex()}, timeout=30, key=key)
        times.append(time.monotonic() - start)
    return statistics.quantiles(times, n=20)[18]


def test_restart_to_page(tmp_path):
    """kill -9 a hub holding 3 stations' rows (two on CSW19, one on TWL06, real fingerprints),
    restart it: seconds from starting it until its page shows every lexicon, the mismatch alarm
    and the latest challenges, against a hub with an empty journal answering at all."""
    csw, twl = real_lexicon(tmp_path, "CSW19"), real_lexicon(tmp_path, "TWL06")
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\n')
    hub = HubProcess(tmp_path / "hub.toml", accept_all=True)
    try:
        stations(tmp_path, hub, [("Desk A", csw), ("Desk B", csw), ("Desk C", twl)], 300)
        accept_waiting(hub.director_url)  # the director accepts them before the kill
    finally:
        hub.stop(kill=True)

    def shown(snap) -> bool:
        if not snap or len(snap["stations"]) != 3:
            return False
        lexicons = sorted(s["lexicon"] for s in snap["stations"])
        return (lexicons == ["CSW19", "CSW19", "TWL06"] and len(snap["latest"]) == 25
                and any("lexicon mismatch" in s["alarms"] for s in snap["stations"]))

    def start_until(config: Path, predicate) -> float:
        start = time.monotonic()
        hub = HubProcess(config)
        try:
            url = hub.director_url.replace("/?key=", "/state?key=")
            while not predicate(get_json(url)):
                time.sleep(0.01)
            return time.monotonic() - start
        finally:
            hub.stop()
    restart = start_until(tmp_path / "hub.toml", shown)
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "hub.toml").write_text('journal = "hub.db"\n')
    empty = start_until(tmp_path / "empty" / "hub.toml", lambda s: s is not None)
    report("hub: restart to page (900 rows)", f"{restart:.2f} s to every lexicon, the alarm",
           f"{restart / empty:.2f}x an empty hub's start to its first answer ({empty:.2f} s)")
    assert restart <= empty + 1.0


def _file_limit_1024():
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


def test_trickling_connections_under_ulimit_1024(tmp_path):
    """1,100 connections trickling their request head at a hub started under `ulimit -n 1024`:
    the director's page load and station POST p95 meanwhile, the hub's log, and how long until
    every trickler was closed; baseline: the same page and POSTs with no trickler."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\n')
    log_path = tmp_path / "hub.log"
    with open(log_path, "w") as log:
        hub = HubProcess(tmp_path / "hub.toml", stderr=log, preexec_fn=_file_limit_1024)
    port = int(hub.local_url.rsplit(":", 1)[1])  # raw sockets: the guard, in clear

    def page_load() -> float:
        start = time.monotonic()
        with urllib.request.urlopen(hub.director_url, timeout=60) as r:
            assert r.status == 200 and b"Director's view" in r.read()
        return time.monotonic() - start
    try:
        base_page, base_post = page_load(), post_p95(hub)
        socks, closed = [], set()
        opened = time.monotonic()
        for _ in range(TRICKLERS):
            s = socket.socket()
            s.settimeout(10)
            try:
                s.connect(("127.0.0.1", port))
                s.sendall(b"GET / HTTP/1.1\r\nHost: hub\r\nX-Slow: ")
                s.setblocking(False)
            except OSError:
                closed.add(len(socks))
            socks.append(s)
        stop = threading.Event()
        all_closed = []

        def trickle():
            while not stop.wait(0.5):
                for i, s in enumerate(socks):
                    if i in closed:
                        continue
                    try:
                        s.send(b"a")
                        if s.recv(64) == b"":
                            closed.add(i)
                    except BlockingIOError:
                        pass
                    except OSError:
                        closed.add(i)
                if len(closed) == len(socks) and not all_closed:
                    all_closed.append(time.monotonic() - opened)
        thread = threading.Thread(target=trickle, daemon=True)
        thread.start()
        time.sleep(1.0)
        attacked_page, attacked_post = page_load(), post_p95(hub)
        deadline = time.monotonic() + 60
        while not all_closed and time.monotonic() < deadline:
            time.sleep(0.5)
        stop.set()
        thread.join(5)
        for s in socks:
            s.close()
    finally:
        hub.stop()
    log_size = log_path.stat().st_size
    report("hub: 1,100 tricklers, ulimit 1024", f"page {attacked_page * 1000:.0f} ms, POST p95 "
           f"{attacked_post * 1000:.0f} ms, log {log_size} B, all closed in "
           f"{all_closed[0] if all_closed else float('nan'):.0f} s",
           f"{attacked_page / base_page:.1f}x / {attacked_post / base_post:.1f}x with none "
           f"({base_page * 1000:.0f} ms / {base_post * 1000:.0f} ms)")
    assert all_closed and attacked_page <= 1.0 and attacked_post <= 0.2
    assert log_size <= 200_000


def test_a_thousand_event_streams(tmp_path):
    """1,000 event streams opened with the director's key on a board of 24 stations: the hub's
    memory meanwhile and after they close, station POST p95 meanwhile, and how soon a followed
    page shows a new station; baseline: the idle hub's memory and POST p95."""
    lex = tiny_lexicon(tmp_path)
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\n')
    hub = HubProcess(tmp_path / "hub.toml", accept_all=True)
    port = int(hub.local_url.rsplit(":", 1)[1])  # raw sockets: the guard, in clear
    key = hub.director_url.split("key=")[1]
    try:
        stations(tmp_path, hub, [(f"Desk {i}", lex) for i in range(24)], 100)
        time.sleep(1.0)
        idle_mb, base_post = rss_mb(hub.proc.pid), post_p95(hub)
        socks, codes = [], []
        for _ in range(STREAMS):
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            s.sendall(f"GET /events?key={key} HTTP/1.1\r\nHost: hub\r\n\r\n".encode())
            socks.append(s)
        for s in socks:
            try:
                codes.append(s.recv(12)[9:12])
            except OSError:
                codes.append(b"reset")
        follower = socks[codes.index(b"200")]
        time.sleep(3.0)  # the streams idle a while, unread
        busy_post = post_p95(hub)
        busy_mb = rss_mb(hub.proc.pid)
        follower.settimeout(10)
        sent = time.monotonic()
        key = bytes([99]) * 32
        post(hub.url, "/api/heartbeat", hub.token, {"journal_id": "newcomer",
             "station": "Newcomer", "last_seq": 0, "key": key.hex()}, timeout=30, key=key)
        seen = b""
        while b"Newcomer" not in seen and time.monotonic() - sent < 20:
            seen += follower.recv(1 << 20)
        update = time.monotonic() - sent
        for s in socks:
            s.close()
        time.sleep(3.0)
        after_mb = rss_mb(hub.proc.pid)
    finally:
        hub.stop()
    accepted = codes.count(b"200")
    report("hub: 1,000 event streams", f"{busy_mb:.0f} MB, after {after_mb:.0f} MB; POST p95 "
           f"{busy_post * 1000:.0f} ms; page {update * 1000:.0f} ms",
           f"idle {idle_mb:.0f} MB, POST p95 {base_post * 1000:.0f} ms; {accepted} followed, "
           f"{codes.count(b'503')} refused (503), {codes.count(b'reset')} reset")
    assert busy_mb <= 150 and after_mb <= idle_mb * 1.2
    assert busy_post <= 0.2 and update <= 1.0 + 0.25
