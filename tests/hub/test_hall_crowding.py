"""No station crowds another off the director's page (issue 41 items 2 and 6), through a real hub:
flags are kept per station (a flood of distinct flags dated 2099 leaves the honest desk's), and
the page's state and the live feed's first message stay within 1 MB however many odd tables one
station sends (the tables beyond are counted: "and 4,980 more tables")."""

from __future__ import annotations

import json
import urllib.request

from odd_station import OddStation

from adjudicator import wire
from adjudicator.hub.kept import MAX_FLAG_LINES
from adjudicator.hub.table_rows import WHOLE_SHOWN

MB = 1_000_000


def _accepted(hub, name: str) -> OddStation:
    station = OddStation(hub.url, hub.hub.station_token, name)
    assert station.beat()[0] == 200
    url = f"{hub.url}/api/accept?key={hub.hub.director_token}"
    urllib.request.urlopen(urllib.request.Request(url, json.dumps(
        {"station": wire.key_id(station.key)}).encode(), method="POST"), timeout=20).close()
    return station


def _send(station: OddStation, fields: list[dict], batch: int = 100) -> None:
    """Rows with each of FIELDS, BATCH a request, chained and signed as a station's sender."""
    for start in range(0, len(fields), batch):
        rows = []
        for one in fields[start:start + batch]:
            row = station.row(**one)
            station.seq, station.last = row["seq"], row["hash"]
            rows.append(row)
        status, answer = station.post("/api/rows", {
            "journal_id": station.journal_id, "station": station.name,
            "key": station.key.hex(), "rows": rows})
        assert status == 200 and answer["acked"] == station.seq, answer


def _get(hub, path: str) -> bytes:
    with urllib.request.urlopen(f"{hub.url}{path}?key={hub.hub.director_token}",
                                timeout=60) as r:
        return r.read() if path != "/events" else r.readline()


def test_a_flood_of_flags_dated_2099_leaves_the_honest_desks_flag(start_hub, tmp_path):
    hub = start_hub(accept_new=False)
    honest = _accepted(hub, "Desk 7")
    assert honest.send(game_table="7", flags='["printer jammed mid-slip"]')[0] == 200
    flood = _accepted(hub, "Flood")
    _send(flood, [{"game_table": str(100 + i), "time_utc": "2099-01-01T00:00:00+00:00",
                   "flags": json.dumps([f"odd flag {i}", f"another {i}"])}
                  for i in range(300)])
    alarms = hub.call(hub.hub.board.snapshot)["alarms"]
    mine = [a for a in alarms if a["station"] == "Desk 7"]
    assert [a["text"] for a in mine] == ["printer jammed mid-slip"]
    assert sum(a["station"] == "Flood" for a in alarms) == MAX_FLAG_LINES
    assert hub.hub.ledger.journal._query("SELECT count(*) FROM challenges")[0][0] == 301


def test_the_page_stays_within_a_megabyte_whatever_one_station_sends(start_hub, tmp_path):
    hub = start_hub(accept_new=False)
    honest = _accepted(hub, "Desk 7")
    assert honest.send(game_table="7")[0] == 200
    rogue = _accepted(hub, "Rogue")
    flags = json.dumps(["\u0416" * 200 + str(n) for n in range(12)])
    _send(rogue, [{"game_table": "\u0416" * 496 + f"{i:04d}", "flags": flags,
                   "words": "QI " * 60} for i in range(5000)], batch=40)
    state = _get(hub, "/state")
    assert len(state) <= MB, len(state)
    said = json.loads(state)
    tables = said["tables"]
    assert "7" in [t["key"] for t in tables]  # the honest desk's table is listed
    assert said["tables_more"] == 5001 - len(tables) and said["tables_more"] > 4000
    assert all(len(t["whole"]) <= WHOLE_SHOWN + 1 for t in tables)
    assert sum(s["challenges"] for s in said["stations"]) == 5001
    first = _get(hub, "/events")  # the live feed's first message: the same bound
    assert first.startswith(b"data: ") and len(first) <= MB, len(first)
    assert json.loads(first[6:])["tables_more"] == said["tables_more"]
    url = f"{hub.url}/api/rename?key={hub.hub.director_token}"
    with urllib.request.urlopen(urllib.request.Request(url, json.dumps(
            {"station": wire.key_id(rogue.key), "name": "Desk 99"}).encode(),
            method="POST"), timeout=20) as r:
        assert r.status == 200
    said = json.loads(_get(hub, "/state"))
    assert "Desk 99" in [s["name"] for s in said["stations"]]
    assert {a["station"] for a in said["alarms"]} >= {"Desk 99"}
