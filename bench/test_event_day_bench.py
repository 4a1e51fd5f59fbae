"""An event day (issue 40 item 7): a hall of stations and a phone server sending thousands of
challenges through a real `adjudicator hub` process that judges every row again, while the
director changes divisions' lists, the hub is killed (-9) and started again on its journal, a
station is restarted, and stations tampered in memory plant wrong verdicts.

Sizes: $ADJUDICATOR_DAY_STATIONS desks (10; 30 for the figures in docs/benchmarks.md) judging
$ADJUDICATOR_DAY_CHALLENGES challenges (1,000; 5,000), paced at $ADJUDICATOR_DAY_RATE a second
(20; 30), a sixth of them from 4 phones on one phone server (the app `adjudicator serve` runs,
served on a thread of this process: aiohttp websockets as in bench/phone_load.py).

The day: two divisions (A: tables 1-20, B: 21-40) with tiny lists compiled here (tiny_shelf),
each holding QI and ZA and none QZQZ, the other words (CAT ZO JO XU DOG) in some versions and not
others, so honest verdicts go both ways and change with the lists; three list changes through
the director's panel (POST /api/event), one station closed and opened again on its journal, one
kill -9 of the hub (restarted on the same port, config and journal), one division-B desk cut off
from the hub across B's change (its sender pointed at a closed port, then back: it judges on with
the list it has, as a desk whose network is down does). Every desk comes back to
Ready before each challenge (Station.at_ready: a change the hub's answers brought is taken
there); heartbeats every 5 s (the hall's). Two desks (one a division) are tampered in memory as
tests/hub/test_audit.py's tampered(): QZQZ found, ZA not; the rows where that changed the verdict
are the planted ones (each desk's verdict compared with its own list's, unaltered).

Asserted: rows lost 0 (every station journal's row in the hub journal), every planted wrong
verdict flagged (hub_check "disagrees: ..." in the hub journal's export, and the count on the
page), honest rows flagged 0 (all "agrees"). Reported, never asserted: verdict (the station's
journal commit) to the director's page (its event stream carrying the row), p95, desks' rows,
against the same hall on a quiet day run in the same test (no change, no restart, no tampering).

The tiny lists stand in for official ones (an event judges only with those): this process adds
them to the known lists as tests/hub/test_event_join.py does, and the hub process is started
through a wrapper (KNOWN_WRAPPER) that does the same before it runs `adjudicator hub`.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import sqlite3
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "hub"))
sys.path.insert(0, str(HERE.parent / "tests"))

from benchutil import report
from hub_process import HubProcess, accept_waiting
from phone_load import SimPhone
from tiny_shelf import shelve

from adjudicator.config.station import load_config
from adjudicator.journal import export_journal
from adjudicator.lexicon.known import KnownLexicon, known_lexicons
from adjudicator.link import forward
from adjudicator.station.service import open_station
from adjudicator.judging.verdict import adjudicate

STATIONS = int(os.environ.get("ADJUDICATOR_DAY_STATIONS", "10"))
CHALLENGES = int(os.environ.get("ADJUDICATOR_DAY_CHALLENGES", "1000"))
RATE = float(os.environ.get("ADJUDICATOR_DAY_RATE", "20"))
PHONES = 4
PHONE_SHARE = 6  # one challenge in six from a phone

LISTS = {"ALPHA": "QI ZA CAT", "ALPHA2": "QI ZA CAT ZO", "ALPHA3": "QI ZA ZO JO",
         "BETA": "QI ZA XU DOG", "BETA2": "QI ZA XU DOG JO CAT"}
WORDS = ["QI", "ZA", "ZO", "CAT", "JO", "XU", "DOG", "QZQZ"]
DIVISIONS = {"A": ("ALPHA", "5-per-word", "1-20"), "B": ("BETA", "double", "21-40")}
TABLES = {"A": (1, 20), "B": (21, 40)}
# the director's changes, each at this share of the desks' challenges (lists by division)
CHANGES = [(0.15, {"A": "ALPHA2"}), (0.55, {"B": "BETA2"}), (0.8, {"A": "ALPHA3"})]
STATION_RESTART, HUB_RESTART = 0.3, 0.45
CUT_OFF = (0.5, 0.7)  # one division-B desk out of the hub's reach across B's change

KNOWN_WRAPPER = """
import json, os, runpy, sys
from adjudicator.lexicon.known import KnownLexicon, known_lexicons
os.environ["ADJUDICATOR_SHELF"] = os.environ["ADJUDICATOR_BENCH_HUB_SHELF"]  # the hub's own
for fp, (name, words) in json.loads(os.environ["ADJUDICATOR_BENCH_KNOWN"]).items():
    known_lexicons()[fp] = KnownLexicon(name, "Tiny list " + name, "2026", "bench", words, fp)
sys.argv = ["adjudicator"] + sys.argv[1:]
runpy.run_module("adjudicator", run_name="__main__", alter_sys=True)
"""

HUB_TOML = """\
journal = "hub.db"
[event]
name = "Event day"
""" + "".join(f'[[division]]\nname = "{d}"\nlexicon = "{lex}"\nchallenge_rule = "{rule}"\n'
              f'tables = "{tables}"\n' for d, (lex, rule, tables) in DIVISIONS.items())


@pytest.fixture
def hall(tmp_path, monkeypatch):
    """The tiny lists on the hub's shelf, all known; the stations' shelf (one for every station of
    this process) holds the first two only, as joined stations do: a list changed to is fetched
    from the hub (signed with the station's key) by the first station that takes the change."""
    monkeypatch.setenv("ADJUDICATOR_SHELF", str(tmp_path / "shelf"))
    monkeypatch.setenv("ADJUDICATOR_BENCH_HUB_SHELF", str(tmp_path / "hub-shelf"))
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("ADJUDICATOR_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("ADJUDICATOR_JOURNAL", str(tmp_path / "journal.db"))
    monkeypatch.delenv("ADJUDICATOR_LEXICONS", raising=False)
    lists = {name: shelve(tmp_path / "hub-shelf", name, words.split())
             for name, words in LISTS.items()}
    for name, _, _ in DIVISIONS.values():
        shelve(tmp_path / "shelf", name, LISTS[name].split())
    known = {}
    for name, lex in lists.items():
        words = len(LISTS[name].split())
        monkeypatch.setitem(known_lexicons(), lex.fingerprint, KnownLexicon(
            name, f"Tiny list {name}", "2026", "bench", words, lex.fingerprint))
        known[lex.fingerprint] = (name, words)
    monkeypatch.setenv("ADJUDICATOR_BENCH_KNOWN", json.dumps(known))
    return lists


def start_hub(folder: Path, port: int = 0) -> HubProcess:
    return HubProcess(folder / "hub.toml", port=port, accept_all=True,
                      command=[sys.executable, "-c", KNOWN_WRAPPER])


def director(hub: HubProcess, path: str, body: dict | None = None) -> dict:
    url = hub.director_url.replace("/?key=", f"{path}?key=")
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                      headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as r:
        return json.loads(r.read())


def change_lists(hub: HubProcess, lists: dict[str, str]) -> int:
    """The director's panel: the divisions' lists changed (POST /api/event); the new version."""
    panel = director(hub, "/api/event")
    event = panel["event"]
    divisions = [{"name": d["name"], "lexicon": lists.get(d["name"], d["lexicon"]),
                  "challenge_rule": d["challenge_rule"], "tables": d["tables"]}
                 for d in event["division"]]
    said = director(hub, "/api/event", {"version": event["event"]["version"], "pin": "",
                                        "name": event["event"]["name"],
                                        "divisions": divisions})
    assert said["changed"], said
    return said["event"]["event"]["version"]


def station_toml(folder: Path, name: str, divisions: list[str], hub: HubProcess) -> Path:
    path = folder / f"{name}.toml"
    lexicon = DIVISIONS[divisions[0]][0]
    text = (f'station = "{name}"\nlexicon = "{lexicon}"\n'
            f'divisions = {json.dumps(divisions)}\njournal = "{name}.db"\n'
            f'hub = "{hub.url}"\nhub_token = "{hub.token}"\n'
            "[timers]\nverdict_hold = 0\n")
    text += "".join(f'[[division]]\nname = "{d}"\nlexicon = "{lex}"\nchallenge_rule = "{rule}"\n'
                    f'tables = "{tables}"\n' for d, (lex, rule, tables) in DIVISIONS.items())
    path.write_text(text)
    return path


def tampered(station) -> None:
    """tests/hub/test_audit.py's tampered(): its lists genuine, QZQZ found and ZA not."""
    from test_audit import tampered as tamper

    tamper(station, None)


class PageWatch:
    """The director's page's event stream, followed across hub restarts: when each row (its
    station and time) first appeared among the page's latest challenges."""

    def __init__(self, hub: HubProcess):
        self.url = hub.director_url.replace("/?key=", "/events?key=")
        self.arrivals: dict[tuple[str, str], float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                with urllib.request.urlopen(self.url, timeout=5) as stream:
                    for line in stream:
                        if self.stop.is_set():
                            return
                        if line.startswith(b"data: "):
                            now = time.monotonic()
                            for e in json.loads(line[6:]).get("latest", []):
                                self.arrivals.setdefault((e["station"], e["time"]), now)
            except (OSError, ValueError):
                time.sleep(0.1)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)


class PhoneServer:
    """The phone server's app (build_phone_app: its station service, journal and sender to the
    hub) served on a thread of its own; phones at tables of both divisions."""

    def __init__(self, config_path: Path):
        from aiohttp import web

        from adjudicator.net.token import TokenStore
        from adjudicator.phone.build import build_phone_app

        self.config = load_config(str(config_path))
        tokens = TokenStore(str(config_path.with_suffix(".token")))
        self.token = tokens.ensure()
        import io

        self.app = build_phone_app(self.config, tokens=tokens, out=io.StringIO())
        sender = next(c.__self__ for c in self.app.on_close if c.__name__ == "stop")
        self.leader = sender.on_event.__self__  # the station whose sender follows the hub
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        async def serve():
            self.runner = web.AppRunner(self.app.make_app())
            await self.runner.setup()
            site = web.TCPSite(self.runner, "127.0.0.1", 0)
            await site.start()
            self.port = site._server.sockets[0].getsockname()[1]

        def run():
            asyncio.set_event_loop(self.loop)
            self.loop.run_until_complete(serve())
            ready.set()
            self.loop.run_forever()
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert ready.wait(20)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(20)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.app.close()


async def phone_play(phone: SimPhone, words: str) -> None:
    """What the page sends: the words typed (at Ready: the hub's change taken there), ADJUDICATE,
    the verdict, then NEXT back to Ready."""
    await phone.send(t="typed", text=words)
    await phone.send(t="judge", text=words)
    await phone._until(lambda m: m["t"] == "state" and "verdict" in m)
    await phone.send(t="next")
    await phone._until(lambda m: m["t"] == "state" and m.get("view") == "ready")


def phones_thread(server: PhoneServer, count: int, rate: float, rng: random.Random,
                  done: list) -> threading.Thread:
    tables = ["5", "12", "25", "33"]
    plays = [" ".join(rng.sample(WORDS, rng.randint(1, 2))) for _ in range(count)]

    async def run():
        phones = [SimPhone(f"{server.base}/?token={server.token}", server.base, t)
                  for t in tables[:PHONES]]
        for p in phones:
            await p.open()
        start = time.monotonic()
        try:
            for i, words in enumerate(plays):
                delay = start + i / rate - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                await phone_play(phones[i % len(phones)], words)
                done.append(i)
        finally:
            for p in phones:
                await p.close()

    thread = threading.Thread(target=lambda: asyncio.run(run()), daemon=True)
    thread.start()
    return thread


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def page_state(hub: HubProcess) -> dict | None:
    try:
        return director(hub, "/state")
    except (OSError, ValueError):
        return None


def journal_rows(path: Path) -> tuple[str, list[tuple[int, str, str, int]]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        jid = conn.execute("SELECT value FROM meta WHERE key='journal_id'").fetchone()[0]
        rows = conn.execute("SELECT seq, time_utc, words, acceptable FROM challenges").fetchall()
    finally:
        conn.close()
    return jid, rows


def run_day(folder: Path, lists: dict, quiet: bool) -> dict:
    """One event day in FOLDER; QUIET: no change, no restart, no tampering (the baseline)."""
    folder.mkdir()
    (folder / "hub.toml").write_text(HUB_TOML)
    honest_of = {lex.fingerprint: lex for lex in lists.values()}
    rng = random.Random(40)
    port = free_port()
    hub = start_hub(folder, port)
    watch = PageWatch(hub)
    names = [f"Desk {i:02d}" for i in range(STATIONS)]
    division_of = {n: "AB"[i % 2] for i, n in enumerate(names)}
    liars = set() if quiet else {names[3 % STATIONS], names[4 % STATIONS]}
    desks = {}
    for name in names:
        desks[name] = open_station(load_config(str(station_toml(
            folder, name, [division_of[name]], hub))))
    phone_server = PhoneServer(station_toml(folder, "Phones", ["A", "B"], hub))
    cut_off = names[5]
    plan = [] if quiet else sorted(
        [(share, "change", lists_) for share, lists_ in CHANGES]
        + [(STATION_RESTART, "restart station", None), (HUB_RESTART, "restart hub", None),
           (CUT_OFF[0], "cut off", None), (CUT_OFF[1], "reconnect", None)],
        key=lambda p: p[0])
    in_force = {d: lex for d, (lex, _, _) in DIVISIONS.items()}  # the hub's lists now
    lagging = lagging_wrong = 0  # honest rows judged with a list the hub had changed
    desk_total = CHALLENGES - CHALLENGES // PHONE_SHARE
    phone_done: list = []
    phones = None
    planted: set[tuple[str, int]] = set()  # (station, seq) of the rows that lie
    committed: dict[tuple[str, str], float] = {}  # (station, time_utc) -> commit (monotonic)
    injected, stopped = [], []
    retampered = 0
    started = time.monotonic()
    try:
        # every desk at Ready with the event taken before the day starts
        deadline = time.monotonic() + 60
        while not (all(d.following.version for d in desks.values())
                   and phone_server.leader.following.version):
            assert time.monotonic() < deadline, "the stations never took the event"
            for d in desks.values():
                d.at_ready()
            time.sleep(0.1)
        for name in liars:
            tampered(desks[name])
        phones = phones_thread(phone_server, CHALLENGES // PHONE_SHARE, RATE / PHONE_SHARE,
                               random.Random(41), phone_done)
        started = time.monotonic()
        for i in range(desk_total):
            while plan and i >= plan[0][0] * desk_total:
                _, what, arg = plan.pop(0)
                if what == "change":
                    version = change_lists(hub, arg)
                    in_force.update(arg)
                    injected.append((f"list change {arg} (version {version})", i))
                elif what == "restart station":
                    name = names[1]
                    desk = desks[name]
                    desk.hub_link.stop()
                    desk.close()
                    # a restart is a new process, whose registry of senders is empty (this
                    # one's would hand the reopened journal its stopped sender)
                    forward._running.pop(os.path.abspath(desk.config.journal), None)
                    desks[name] = open_station(load_config(str(folder / f"{name}.toml")))
                    injected.append((f"station {name} restarted", i))
                elif what == "cut off":  # its network down: its sender reaches nothing
                    desks[cut_off].hub_link.hub = f"http://127.0.0.1:{free_port()}"
                    injected.append((f"station {cut_off} cut off", i))
                elif what == "reconnect":
                    desks[cut_off].hub_link.hub = hub.url
                    desks[cut_off].hub_link.wake()
                    injected.append((f"station {cut_off} back", i))
                else:
                    hub.stop(kill=True)  # kill -9
                    stopped.append(hub)
                    time.sleep(2.0)
                    hub = start_hub(folder, port)
                    injected.append(("hub killed (-9) and restarted", i))
            delay = started + i / (RATE * (1 - 1 / PHONE_SHARE)) - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            name = names[i % STATIONS]
            desk = desks[name]
            if desk.at_ready() and name in liars:
                tampered(desk)  # a change took its lists: tampered again
                retampered += 1
            low, high = TABLES[division_of[name]]
            table = str(rng.randint(low, high))
            words = " ".join(rng.sample(WORDS, rng.randint(1, 2)))
            judging, _ = desk.choose(table)
            outcome = desk.submit(words, table=table)
            now = time.monotonic()
            assert outcome.recorded, outcome.problem
            honest = adjudicate(honest_of[judging.fingerprint],
                                tuple(words.split())).acceptable
            if outcome.verdict.acceptable != honest:
                assert name in liars, (name, words, table)
                planted.add((name, outcome.seq))
            elif judging.name != in_force[division_of[name]]:  # not yet taken the change
                lagging += 1
                lagging_wrong += adjudicate(lists[in_force[division_of[name]]], tuple(
                    words.split())).acceptable != honest
            committed[(name, desk.journal.get(outcome.seq).time_utc)] = now
        phones.join(600)
        phones = None
        assert len(phone_done) == CHALLENGES // PHONE_SHARE, "the phones did not finish"
        sent = time.monotonic() - started
        journals = {name: folder / f"{name}.db" for name in names}
        journals["Phones"] = folder / "Phones.db"
        expected = sum(len(journal_rows(p)[1]) for p in journals.values())
        deadline = time.monotonic() + float(os.environ.get("ADJUDICATOR_DAY_DRAIN", "120"))
        while True:
            s = page_state(hub)
            if s is not None:
                if s["waiting"]:
                    accept_waiting(hub.director_url)
                if s["checked"]["rows"] >= expected:
                    break
            if time.monotonic() > deadline:
                print("\n".join(hub.errors[-40:]))
                for st in (s or {}).get("stations", []):
                    print(st["name"], st["challenges"], st["alarms"])
                for name, path in journals.items():
                    print(name, len(journal_rows(path)[1]))
                raise AssertionError(f"the hub holds {s and s['checked']} of {expected} rows")
            time.sleep(0.2)
        checked = s["checked"]
        time.sleep(1.0)  # the page's stream: its last rows
    finally:
        if phones is not None:  # (a failure before they finished: they stop with the server)
            phones.join(1)
        watch.close()
        for desk in desks.values():
            if desk.hub_link is not None:
                desk.hub_link.stop()
            desk.close()
        phone_server.close()
        hub.stop()
    errors = [line for h in stopped + [hub] for line in h.errors if "Traceback" in line]
    return {"folder": folder, "journals": journals, "planted": planted, "committed": committed,
            "arrivals": dict(watch.arrivals), "checked": checked, "injected": injected,
            "retampered": retampered, "seconds": sent, "tracebacks": errors,
            "expected": expected, "lagging": lagging, "lagging_wrong": lagging_wrong}


def judged(day: dict) -> dict:
    """Each station journal's rows against the hub journal's export: lost, planted flagged,
    honest flagged (with the rows, to say)."""
    at_hub = {(r["origin_journal"], r["origin_seq"]): r
              for r in json.loads(export_journal(str(day["folder"] / "hub.db"), "json"))}
    lost, differ, planted_flagged, honest_flagged = [], [], [], []
    rows = 0
    for name, path in day["journals"].items():
        jid, held = journal_rows(path)
        for seq, when, words, ok in held:
            rows += 1
            row = at_hub.get((jid, seq))
            if row is None:
                lost.append((name, seq))
                continue
            if row["words"] != words.split() or row["verdict"] != (
                    "ACCEPTABLE" if ok else "UNACCEPTABLE"):
                differ.append((name, seq))
            check = row["hub_check"]
            if (name, seq) in day["planted"]:
                if check.startswith("disagrees: "):
                    planted_flagged.append((name, seq))
            elif check != "agrees":
                honest_flagged.append((name, seq, words, ok, row.get("lexicon_name"),
                                       row.get("game_table"), row.get("time_utc"), check))
    return {"rows": rows, "lost": lost, "differ": differ, "planted_flagged": planted_flagged,
            "honest_flagged": honest_flagged}


def latencies(day: dict) -> list[float]:
    return [day["arrivals"][k] - t for k, t in day["committed"].items() if k in day["arrivals"]]


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18]


def test_an_event_day(tmp_path, hall):
    assert STATIONS >= 6, "a day needs desks enough for its liars, restart and cut-off"
    day = run_day(tmp_path / "day", hall, quiet=False)
    fetched = sorted(p.stem for p in (tmp_path / "shelf").glob("*.lex"))
    assert fetched == sorted(LISTS), fetched  # each list changed to, fetched from the hub
    calm = run_day(tmp_path / "quiet", hall, quiet=True)
    found, calm_found = judged(day), judged(calm)
    print(f"\ninjected: {day['injected']}; tampered again after a change: {day['retampered']}")
    print(f"honest rows judged with a list the hub had changed: {day['lagging']}, "
          f"{day['lagging_wrong']} of them a verdict the new list would not give")
    print(f"day: {found['rows']} rows, {len(day['planted'])} planted, page {day['checked']}; "
          f"{day['seconds']:.0f} s")
    print(f"quiet: {calm_found['rows']} rows, page {calm['checked']}; {calm['seconds']:.0f} s")
    for row in found["honest_flagged"][:20]:
        print("HONEST ROW FLAGGED:", row)
    for result, got in ((day, found), (calm, calm_found)):
        assert got["rows"] == result["expected"] >= CHALLENGES
        assert (got["lost"], got["differ"]) == ([], [])
        assert got["honest_flagged"] == []
        assert result["tracebacks"] == []
    assert len(day["planted"]) >= 4 and calm["planted"] == set()
    assert sorted(found["planted_flagged"]) == sorted(day["planted"])
    assert day["checked"]["disagree"] == len(day["planted"])
    assert day["checked"]["rows"] == found["rows"]
    assert day["checked"]["agree"] == found["rows"] - len(day["planted"])
    assert calm["checked"]["disagree"] == 0
    lat, calm_lat = latencies(day), latencies(calm)
    seen = len(lat) / len(day["committed"])
    print(f"page: {len(lat)} of {len(day['committed'])} desks' rows seen on the stream "
          f"(quiet: {len(calm_lat)} of {len(calm['committed'])})")
    print(f"verdict to page: p50 {statistics.median(lat) * 1000:.0f} ms, p95 "
          f"{p95(lat) * 1000:.0f} ms; quiet p50 {statistics.median(calm_lat) * 1000:.0f} ms, "
          f"p95 {p95(calm_lat) * 1000:.0f} ms")
    print(f"rows over 1 s to the page: {sum(v > 1 for v in lat)} (max {max(lat):.1f} s); "
          f"quiet: {sum(v > 1 for v in calm_lat)} (max {max(calm_lat):.1f} s)")
    report(f"event day: {STATIONS} desks + phones, {found['rows']} rows",
           f"0 lost; {len(found['planted_flagged'])}/{len(day['planted'])} planted flagged; "
           f"0 of {found['rows'] - len(day['planted'])} honest flagged "
           f"({day['lagging']} judged on a changed list); verdict to page p95 "
           f"{p95(lat) * 1000:.0f} ms",
           f"{p95(lat) / p95(calm_lat):.2f}x the quiet day's p95 ({p95(calm_lat) * 1000:.0f} ms; "
           f"{seen:.0%} of rows seen)")
