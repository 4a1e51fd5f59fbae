"""Made-up stations against the hub (issue 26): a real new station's way onto the page past 64
ghosts from one address, and the director's /state however many attempts were made; each against
a baseline measured in this run. Run once (the machine is shared):
python -m pytest bench/test_hub_ghosts_bench.py  (ADJUDICATOR_BENCH_BEATS: fresh journal ids,
default 30,000; ADJUDICATOR_BENCH_BATCHES: concurrent 1,000-row batches, default 100)
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "hub"))

from benchutil import report  # noqa: E402
from ghosts import Ghost, NotTaken  # noqa: E402
from hub_process import HubProcess, accept_waiting  # noqa: E402

from adjudicator.journal import Journal, outbox  # noqa: E402
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon  # noqa: E402
from adjudicator.link.forward import Forwarder  # noqa: E402
from adjudicator.judging.verdict import adjudicate  # noqa: E402

BEATS = int(os.environ.get("ADJUDICATOR_BENCH_BEATS", "30000"))
BATCHES = int(os.environ.get("ADJUDICATOR_BENCH_BATCHES", "100"))


def tiny(tmp: Path) -> Lexicon:
    src = tmp / "TINY.txt"
    src.write_text("QI\nZA\nCAT\n")
    compile_sources([str(src)], str(tmp / "TINY.lex"), name="TINY")
    return Lexicon.load(str(tmp / "TINY.lex"))


def rows_of(tmp: Path, lex: Lexicon, name: str, n: int) -> tuple[str, list[dict]]:
    with Journal.open(tmp / f"{name}.db", split_window=0) as journal:
        journal.forward()
        for i in range(n):
            journal.record(adjudicate(lex, ("QI",) if i % 2 else ("CAT",)), station=name,
                           mode="station", table=str(1 + i % 20))
        return journal.journal_id(), outbox.pending(journal.conn, 0, 10 * n + 10)


def state(hub: HubProcess) -> tuple[dict, int, float]:
    url = hub.director_url.replace("/?key=", "/state?key=")
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as r:
        data = r.read()
    return json.loads(data), len(data), time.perf_counter() - start


def to_page(tmp: Path, hub: HubProcess, lex: Lexicon, name: str) -> float:
    """Seconds from a new station's first push (from 127.0.0.1) until /state lists it in the
    waiting panel (where the page draws its Accept button)."""
    rows_of(tmp, lex, name, 1)
    start = time.monotonic()
    sender = Forwarder(str(tmp / f"{name}.db"), hub.url, hub.token)
    sender.push()
    sender.stop()
    while not any(w["name"] == name for w in state(hub)[0]["waiting"]):
        if time.monotonic() - start > 30:
            raise AssertionError(f"{name} not on the page in 30 s")
        time.sleep(0.01)
    return time.monotonic() - start


def test_a_real_station_past_64_ghosts_from_one_address(tmp_path):
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\n')
    lex = tiny(tmp_path)
    hub = HubProcess(tmp_path / "hub.toml")
    try:
        to_page(tmp_path, hub, lex, "Warm-up")
        baseline = statistics.median(to_page(tmp_path, hub, lex, f"Baseline {i}")
                                     for i in range(3))
        accept_waiting(hub.director_url)  # (8 at most wait from one address)
        refused = 0
        for i in range(64):  # one valid row each, all from 127.0.0.2
            jid, rows = rows_of(tmp_path, lex, f"Ghost {i}", 1)
            try:
                Ghost(hub.url, hub.token, bytes([i]) * 32, "127.0.0.2").rows(jid, f"Ghost {i}",
                                                                             rows)
            except NotTaken:
                refused += 1
        took = to_page(tmp_path, hub, lex, "Desk 4")
        assert took <= 10
        report("hub: real station past 64 ghosts", f"{took * 1000:.0f} ms to the page, "
               f"{refused} ghosts refused", f"{took / baseline:.2f}x a new station on an "
               f"empty hub ({baseline * 1000:.0f} ms)")
    finally:
        hub.stop()


def test_state_with_any_number_of_attempts(tmp_path):
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\n')
    lex = tiny(tmp_path)
    hub = HubProcess(tmp_path / "hub.toml")
    try:
        for i in range(10):  # the hall: 10 accepted stations, 10 rows each
            rows_of(tmp_path, lex, f"Desk {i}", 10)
            sender = Forwarder(str(tmp_path / f"Desk {i}.db"), hub.url, hub.token)
            sender.push()
            sender.stop()
            accept_waiting(hub.director_url)  # (8 at most wait from one address)
        _, base_size, _ = state(hub)
        base_times = [state(hub)[2] for _ in range(30)]
        start = time.monotonic()
        beater = Ghost(hub.url, hub.token, bytes([1]) * 32, "127.0.0.20")
        beater.beat("b0", "Beater")

        def beat(n):
            one = Ghost(hub.url, hub.token, bytes([1]) * 32, "127.0.0.20")
            one.known = True
            for k in range(n, BEATS, 4):
                try:
                    one.beat(f"fresh{k}", "Beater")
                except NotTaken:
                    pass
        # the heartbeater's own waiting slot may be taken by then: its beats are refused, fine
        with ThreadPoolExecutor(4) as pool:
            list(pool.map(beat, range(4)))
        jid, rows = rows_of(tmp_path, lex, "Flood", 1000)
        flood = Ghost(hub.url, hub.token, bytes([2]) * 32, "127.0.0.21")
        flood.beat(jid, "Flood")
        results = []

        def batch(_):
            one = Ghost(hub.url, hub.token, bytes([2]) * 32, "127.0.0.21")
            one.known = True
            try:
                results.append(one.rows(jid, "Flood", rows)["acked"])
            except NotTaken as e:
                results.append(e.status)
        threads = [threading.Thread(target=batch, args=(i,)) for i in range(BATCHES)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        for i in range(64):  # 64 more ghost stations from 8 addresses (the list is full)
            try:
                Ghost(hub.url, hub.token, bytes([100 + i]) * 32, f"127.0.0.{2 + i // 8}").beat(
                    f"ghost{i}", f"Ghost {i} \u200b" * 30)
            except NotTaken:
                pass
        for i in range(2000):  # malformed, from 50 addresses, each another row number
            bad = Ghost(hub.url, hub.token, bytes([200 + i % 50]) * 32, f"127.0.2.{1 + i % 50}")
            try:
                bad.rows("bad", "Bad", [dict(rows[0], seq=i + 1, acceptable=2)])
            except NotTaken:
                pass
        for i in range(500):  # without the token, from 250 addresses
            try:
                Ghost(hub.url, "wrong", bytes([3]) * 32, f"127.0.3.{1 + i % 250}").beat(
                    "x", "\u202e" * 60)
            except NotTaken:
                pass
        attempts = time.monotonic() - start
        snap, size, _ = state(hub)
        times = [state(hub)[2] for _ in range(30)]
        stored = sum(w["rows"] for w in snap["waiting"] if w["name"] == "Flood")
        assert size <= 200_000 and stored <= 500
        p50, base = statistics.median(times), statistics.median(base_times)
        assert p50 <= 0.1
        print({part: len(json.dumps(value)) for part, value in snap.items()})
        report("hub: /state after attempts", f"{size / 1000:.0f} KB, {p50 * 1000:.1f} ms "
               f"(p50), flood kept {stored} rows", f"{size / base_size:.2f}x the size and "
               f"{p50 / base:.2f}x the time of the hall's alone ({base_size / 1000:.0f} KB, "
               f"{base * 1000:.1f} ms); {BEATS} beats + {BATCHES} batches + 2,564 more in "
               f"{attempts:.0f} s")
    finally:
        hub.stop()
