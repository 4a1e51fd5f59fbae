"""The director's hub: fault injection at full size, adjudication-to-page latency, backlog drain,
silent-station and lexicon-mismatch alarm times, each against a baseline measured in this run.

Sizes: $ADJUDICATOR_HUB_STATIONS x $ADJUDICATOR_HUB_ROWS for the fault run (10 x 50 while
developing; 50 x 200 for the figures in docs/benchmarks.md).
"""

from __future__ import annotations

import json
import os
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
from fleet import WORDS, run_faults  # noqa: E402
from hub_process import HubProcess, accept_waiting  # noqa: E402

from adjudicator.link.forward import Forwarder  # noqa: E402
from adjudicator.journal import Journal  # noqa: E402
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon  # noqa: E402
from adjudicator.judging.verdict import adjudicate  # noqa: E402

STATIONS = int(os.environ.get("ADJUDICATOR_HUB_STATIONS", "10"))
ROWS = int(os.environ.get("ADJUDICATOR_HUB_ROWS", "50"))


def lexicon(tmp: Path, name: str = "FLEET", words=WORDS) -> Lexicon:
    src = tmp / f"{name}.txt"
    src.write_text("\n".join(words) + "\n")
    compile_sources([str(src)], str(tmp / f"{name}.lex"), name=name)
    return Lexicon.load(str(tmp / f"{name}.lex"))


def state(hub: HubProcess) -> dict | None:
    try:
        with urllib.request.urlopen(hub.director_url.replace("/?key=", "/state?key="),
                                    timeout=2) as r:
            return json.loads(r.read())
    except OSError:
        return None


def wait_state(hub, predicate, timeout=120.0, every=0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = state(hub)
        if s is not None and predicate(s):
            return time.monotonic()
        time.sleep(every)
    raise AssertionError("the page never showed it")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def p95(values):
    return statistics.quantiles(values, n=20)[18]


def test_fault_injection(tmp_path):
    """STATIONS x ROWS through a faulty link (every 5th connection: a lost request or answer, a
    reset, a request or answer cut short, a garbled answer or trickled bytes, in turn), 2 worker
    kills (kill -9 mid-send) and 2 hub kills (-9), each restarted; baseline: the same fleet with no fault at all.
    No traceback anywhere, no sender thread dead."""
    (tmp_path / "faults").mkdir()
    (tmp_path / "clean").mkdir()
    workers = max(2, STATIONS // 10)
    faulty = run_faults(tmp_path / "faults", STATIONS, ROWS, workers, drop=0.2, worker_kills=2,
                        hub_restarts=2, timeout=1800)
    clean = run_faults(tmp_path / "clean", STATIONS, ROWS, workers, drop=0.0, worker_kills=0,
                       hub_restarts=0, timeout=1800)
    for result in (faulty, clean):
        assert (result["hub_rows"], result["missing"], result["duplicates"], result["differ"],
                result["broken"]) == (result["expected"], 0, 0, 0, [])
        assert (result["tracebacks"], result["dead"]) == (0, 0)
    report(f"faults: {STATIONS}x{ROWS} rows",
           f"0 missing, 0 duplicates, chains intact; {faulty['seconds']:.1f} s",
           f"{faulty['seconds'] / clean['seconds']:.2f}x the fault-free run's time "
           f"({clean['seconds']:.1f} s); faults: " + ", ".join(
               f"{n} {what}" for what, n in faulty["dropped"].items())
           + "; 0 tracebacks, 0 sender threads dead")


def test_adjudication_to_page(tmp_path):
    """Seconds from a verdict's journal commit to the page's event stream carrying its row:
    stations forwarding through their outbox (sender thread, 0.2 s poll) versus the same rows
    POSTed to the hub synchronously right after the commit (the network and page floor)."""
    lex = lexicon(tmp_path)
    hub = HubProcess(tmp_path / "hub.toml", accept_all=True)
    arrivals: dict[tuple[str, str], float] = {}
    stop = threading.Event()

    def listen():
        url = hub.director_url.replace("/?key=", "/events?key=")
        with urllib.request.urlopen(url, timeout=30) as stream:
            for line in stream:
                if stop.is_set():
                    break
                if line.startswith(b"data: "):
                    now = time.monotonic()
                    for e in json.loads(line[6:]).get("latest", []):  # sent when it changes
                        arrivals.setdefault((e["station"], e["time"]), now)
    reader = threading.Thread(target=listen, daemon=True)
    reader.start()
    try:
        stations = []
        for i in range(10):
            name = f"{'Fwd' if i % 2 == 0 else 'Direct'} {i}"
            path = tmp_path / f"{i}.db"
            journal = Journal.open(path, split_window=0)
            journal.forward()
            fwd = Forwarder(str(path), hub.url, hub.token)
            if i % 2 == 0:
                fwd.start()
            stations.append((name, journal, fwd))
        sent: dict[str, list] = {"Fwd": [], "Direct": []}
        for n in range(ROWS * 2):
            name, journal, fwd = stations[n % len(stations)]
            seq = journal.record(adjudicate(lex, ("QI", "ZA")), station=name, mode="station")
            done = time.monotonic()
            if name.startswith("Direct"):
                fwd.push()
            sent[name.split()[0]].append(((name, journal.get(seq).time_utc), done))
            time.sleep(0.05)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(k in arrivals for v in sent.values()
                                                      for k, _ in v):
            time.sleep(0.1)
        lat = {kind: [arrivals[k] - t for k, t in v] for kind, v in sent.items()}
    finally:
        stop.set()
        for _, journal, fwd in stations:
            fwd.stop()
            journal.close()
        hub.stop()
    fwd95, direct95 = p95(lat["Fwd"]), p95(lat["Direct"])
    report("verdict to director's page, p95", f"{fwd95 * 1000:.0f} ms "
           f"(p50 {statistics.median(lat['Fwd']) * 1000:.0f} ms)",
           f"{fwd95 / direct95:.1f}x a synchronous POST after the commit "
           f"(p95 {direct95 * 1000:.0f} ms)")
    assert fwd95 <= 2.0


def test_backlog_drain_and_visible(tmp_path):
    """500 rows recorded while the hub is down (the station accepted before); seconds from the hub listening again until it
    holds all 500 (the backlog shown meanwhile), versus inserting the same 500 rows straight
    into a hub journal in this process (the hub's own write cost)."""
    from adjudicator.hub.hub_journal import HubJournal
    from adjudicator.journal import outbox

    lex = lexicon(tmp_path)
    port = free_port()
    path = tmp_path / "late.db"
    journal = Journal.open(path, split_window=0)
    journal.forward()
    fwd = Forwarder(str(path), f"https://127.0.0.1:{port}", "not yet")  # pinned once it starts
    hub = HubProcess(tmp_path / "hub.toml", port=port)  # the station joins, is accepted
    fwd.token = hub.token
    fwd.beat()
    accept_waiting(hub.director_url)
    hub.stop()
    fwd.acked = None
    for _ in range(500):
        journal.record(adjudicate(lex, ("QI",)), station="Late", mode="station")
    rows = outbox.pending(journal.conn, 0, 1000)
    began = time.monotonic()
    direct = HubJournal(str(tmp_path / "direct.db"))
    direct.accept(journal.journal_id(), rows)
    direct_s = time.monotonic() - began
    direct.close()

    hub = HubProcess(tmp_path / "hub.toml", port=port)  # back: the station is known
    seen_backlog = []
    try:
        fwd.start()
        ready = time.monotonic()

        def drained(s):
            for st in s["stations"]:
                seen_backlog.extend(a for a in st["alarms"] if a.startswith("backlog"))
            return any(st["challenges"] == 500 for st in s["stations"])
        drained_at = wait_state(hub, drained, every=0.01)
    finally:
        fwd.stop()
        journal.close()
        hub.stop()
    took = drained_at - ready
    report("500 pending rows drained", f"{took:.2f} s (backlog shown: "
           f"{seen_backlog[0] if seen_backlog else 'no'})",
           f"{took / direct_s:.1f}x inserting them into a hub journal directly ({direct_s:.2f} s)")
    assert took <= 10.0


def test_silent_and_mismatch_alarm_times(tmp_path):
    """Seconds from a station's sender stopping until the page says "silent" (threshold: 15 s
    after its last heartbeat), and from a station's lexicon changing until "lexicon mismatch"
    (one heartbeat: 5 s)."""
    csw, nwl = lexicon(tmp_path, "CSW"), lexicon(tmp_path, "NWL", WORDS[:3])
    hub = HubProcess(tmp_path / "hub.toml", accept_all=True)
    status = {n: {"station": n, "lexicon": csw.name, "fingerprint": csw.fingerprint}
              for n in ("A", "B", "C")}
    fwds = []
    try:
        for name in status:
            path = tmp_path / f"{name}.db"
            Journal.open(path).close()
            fwds.append(Forwarder(str(path), hub.url, hub.token,
                                  status=lambda n=name: status[n]).start())
        wait_state(hub, lambda s: len(s["stations"]) == 3)
        time.sleep(2.0)
        changed = time.monotonic()
        status["C"] = {"station": "C", "lexicon": nwl.name, "fingerprint": nwl.fingerprint}
        mismatch = wait_state(hub, lambda s: any("lexicon mismatch" in st["alarms"]
                                                 for st in s["stations"])) - changed
        last_beat = fwds[0]._last_beat
        fwds[0].stop()
        stopped = time.monotonic()
        silent = wait_state(hub, lambda s: any("silent" in st["alarms"]
                                               for st in s["stations"]), timeout=60)
    finally:
        for f in fwds:
            f.stop()
        hub.stop()
    report("silent station flagged", f"{silent - stopped:.1f} s after it stopped",
           f"{silent - last_beat:.1f} s after its last heartbeat (threshold 15 s)")
    report("lexicon mismatch shown", f"{mismatch:.1f} s after the change",
           "heartbeat interval 5 s")
    assert silent - stopped <= 16.5 and mismatch <= 6.5
