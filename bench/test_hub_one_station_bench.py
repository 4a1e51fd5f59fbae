"""One station against the whole page (issue 41 item 6): an accepted station sends 20,000 rows at
distinct 500-character tables, each with twelve 200-character flags, to a real `adjudicator hub`
beside an honest desk; against the same hall with the rows at plain table numbers. Measured:
`/state` (time and size), the live feed's first message, a rename by the director, a restart.
Run once (the machine is shared): python -m pytest bench/test_hub_one_station_bench.py
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "hub"))

from benchutil import report  # noqa: E402
from hub_process import HubProcess  # noqa: E402
from odd_station import OddStation  # noqa: E402

from adjudicator import wire  # noqa: E402

ROWS = int(os.environ.get("ADJUDICATOR_BENCH_ONE_STATION_ROWS", 20_000))
FLAGS = json.dumps(["\u0416" * 200 + str(n) for n in range(12)])
MB = 1_000_000


def odd_table(i: int) -> str:
    return "\u0416" * 495 + f"{i:05d}"


def _director(hub: HubProcess, path: str, body: dict) -> float:
    """POST BODY to the director's PATH; the seconds it took."""
    url = hub.director_url.replace("/?key=", f"/api/{path}?key=")
    start = time.perf_counter()
    urllib.request.urlopen(urllib.request.Request(url, method="POST", data=json.dumps(
        body).encode()), timeout=60).close()
    return time.perf_counter() - start


def _station(hub: HubProcess, name: str) -> OddStation:
    station = OddStation(hub.url, hub.token, name)
    assert station.beat()[0] == 200
    _director(hub, "accept", {"station": wire.key_id(station.key)})
    return station


def load(hub: HubProcess, tables: list[str]) -> OddStation:
    """The honest desk's row, then the flood: ROWS rows, 80 a request, at TABLES."""
    assert _station(hub, "Desk 7").send(game_table="7")[0] == 200
    flood = _station(hub, "Flood")
    for start in range(0, len(tables), 80):
        rows = []
        for table in tables[start:start + 80]:
            row = flood.row(game_table=table, flags=FLAGS)
            flood.seq, flood.last = row["seq"], row["hash"]
            rows.append(row)
        status, answer = flood.post("/api/rows", {
            "journal_id": flood.journal_id, "station": flood.name,
            "key": flood.key.hex(), "rows": rows})
        assert status == 200 and answer["acked"] == flood.seq, answer
    return flood


def _get(hub: HubProcess, path: str) -> tuple[float, bytes]:
    url = hub.director_url.replace("/?key=", f"/{path}?key=")
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as r:
        body = r.read() if path == "state" else r.readline()
    return time.perf_counter() - start, body


def measure(tmp: Path, tables: list[str]) -> dict:
    tmp.mkdir()
    config = tmp / "hub.toml"
    config.write_text('journal = "hub.db"\n')
    hub = HubProcess(config)
    try:
        flood = load(hub, tables)
        states = [_get(hub, "state") for _ in range(10)]
        feed = _get(hub, "events")
        renames = [_director(hub, "rename", {"station": wire.key_id(flood.key),
                                             "name": f"Desk {90 + n}"}) for n in range(5)]
    finally:
        hub.stop()
    start = time.perf_counter()
    again = HubProcess(config)
    try:
        _get(again, "state")
        restart = time.perf_counter() - start
    finally:
        again.stop()
    said = json.loads(states[-1][1])
    assert "7" in [t["key"] for t in said["tables"]]  # the honest desk's table is listed
    return {"state": statistics.median(t for t, _ in states), "size": len(states[-1][1]),
            "feed": feed[0], "feed_size": len(feed[1]), "rename": statistics.median(renames),
            "restart": restart, "more": said["tables_more"]}


def test_one_station_cannot_make_the_page_huge(tmp_path):
    plain = measure(tmp_path / "plain", [str(1 + i % 9999) for i in range(ROWS)])
    odd = measure(tmp_path / "odd", [odd_table(i) for i in range(ROWS)])
    report(f"hub: /state with one station's {ROWS:,} rows at distinct 500-char tables, 12 long "
           "flags each: <= 1 MB, <= 0.5 s",
           f"{odd['state'] * 1000:.0f} ms, {odd['size'] / MB:.2f} MB "
           f"('and {odd['more']:,} more tables')",
           f"{odd['state'] / plain['state']:.2f}x the time, {odd['size'] / plain['size']:.2f}x "
           f"the size with plain tables ({plain['state'] * 1000:.0f} ms, "
           f"{plain['size'] / MB:.2f} MB)")
    report("hub: the live feed's first message then: <= 1 MB",
           f"{odd['feed_size'] / MB:.2f} MB in {odd['feed'] * 1000:.0f} ms",
           f"{odd['feed_size'] / plain['feed_size']:.2f}x with plain tables "
           f"({plain['feed_size'] / MB:.2f} MB)")
    report("hub: the director's rename of that station: <= 0.3 s",
           f"{odd['rename'] * 1000:.0f} ms (p50 of 5)",
           f"{odd['rename'] / plain['rename']:.2f}x with plain tables "
           f"({plain['rename'] * 1000:.0f} ms)")
    report("hub: a restart with those rows, to the page's first answer (no goal)",
           f"{odd['restart']:.1f} s",
           f"{odd['restart'] / plain['restart']:.2f}x with plain tables "
           f"({plain['restart']:.1f} s)")
    assert odd["size"] <= MB and odd["feed_size"] <= MB, odd
    assert odd["state"] <= 0.5 and odd["rename"] <= 0.3, odd
