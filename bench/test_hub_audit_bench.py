"""The hub judging every row again (issue 40): rows ingested with its judgement against without.

In-process: 20 station journals x 200 rows (8-word plays of real ENABLE words, some made-up words
among them) taken into a fresh hub journal by HubJournal.accept, in batches of 200 as senders
send them, once with the audit (hub/audit.py: the row's division found, its words judged with the
shipped ENABLE list, the judgement stored beside it) and once without; alternated, 5 rounds, the
median rows per CPU-second of each. Goal: with >= 90% of the rate without.
"""

from __future__ import annotations

import random
import sys
import statistics
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from benchutil import report

from adjudicator.event.setup import Division, Event
from adjudicator.event.history import EventHistory
from adjudicator.hub.audit import Audit
from adjudicator.hub.hub_journal import HubJournal
from adjudicator.journal import Journal, outbox
from adjudicator.lexicon.library import default_path, load_lexicon
from adjudicator.judging.rules import ChallengeRule
from adjudicator.judging.verdict import adjudicate

STATIONS, ROWS, ROUNDS = 20, 200, 5


def station_rows(tmp: Path, lexicon) -> list[tuple[str, list[dict]]]:
    rng = random.Random(40)
    words = [w for w in ("QI ZA CAT DOG HOUSE GARDEN ZEBRA QUIXOTIC JUKEBOX OXEN ABOUT "
                         "WORDS PLAY TILES BOARD RACK").split()]
    made_up = ["QZQZ", "XXYZ", "ZZKV"]
    stations = []
    for i in range(STATIONS):
        with Journal.open(tmp / f"s{i}.db") as journal:
            journal.forward()
            plays = []
            for _ in range(ROWS):
                play = rng.sample(words, rng.randint(1, 8))
                if rng.random() < 0.2:
                    play[0] = rng.choice(made_up)
                plays.append((adjudicate(lexicon, tuple(play)), dict(
                    station=f"Desk {i}", mode="station", table=str(rng.randint(1, 40)),
                    rule="5-per-word")))
            journal.record_many(plays)
            stations.append((journal.journal_id(), outbox.pending(journal.conn, 0, ROWS)))
    return stations


def ingest(path: Path, stations, audit) -> float:
    hub = HubJournal(str(path))
    try:
        start = time.process_time()
        for journal_id, rows in stations:
            hub.accept(journal_id, rows, station=rows[0]["station"], audit=audit)
        return STATIONS * ROWS / (time.process_time() - start)
    finally:
        hub.close()


def test_rows_ingested_with_the_hubs_judgement(tmp_path):
    lexicon = load_lexicon(default_path())
    event = Event("Bench", (Division("A", lexicon.name, ChallengeRule.WORD5, (),
                                     lexicon.fingerprint),), version=1)
    history = EventHistory([(datetime.now(timezone.utc) - timedelta(hours=1), event)])
    audit = Audit(lambda: history, {lexicon.fingerprint: lexicon.path}.get)
    stations = station_rows(tmp_path, lexicon)
    assert audit.check(stations[0][0], stations[0][1][0]).state == "agrees"
    plain, judged = [], []
    for i in range(ROUNDS):
        plain.append(ingest(tmp_path / f"plain{i}.db", stations, None))
        judged.append(ingest(tmp_path / f"judged{i}.db", stations, audit.check))
    with_audit, without = statistics.median(judged), statistics.median(plain)
    report("hub ingest, every row judged", f"{with_audit:,.0f} rows/s",
           f"{with_audit / without:.2f}x the rate without the audit ({without:,.0f} rows/s)")
    print(f"with {sorted(judged)} without {sorted(plain)}")


def pushed(tmp: Path, name: str, journals: list[Path], lexicon, judging: bool) -> float:
    """Rows per second from the first POST to the last row held: every journal's outbox pushed
    by the real sender (Forwarder.push, batches of 200) to a hub served on this process."""
    import types

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "hub"))
    from running_hub import RunningHub

    from adjudicator.link.forward import Forwarder

    hub = RunningHub(str(tmp / f"{name}.db"))
    try:
        event = Event("Bench", (Division("A", lexicon.name, ChallengeRule.WORD5, (),
                                         lexicon.fingerprint),), version=1)
        hub.call(setattr, hub.hub, "event_lists", {lexicon.fingerprint: lexicon.path})
        hub.call(setattr, hub.hub, "event", event)
        if not judging:  # the baseline: the same hub taking the rows without judging them
            hub.call(setattr, hub.hub, "audit", types.SimpleNamespace(
                check=None, heard=lambda *a: None))
        start = time.perf_counter()
        for path in journals:
            Forwarder(str(path), hub.url, hub.hub.station_token).push()
        took = time.perf_counter() - start
        held = hub.call(lambda: hub.hub.board.checks.total() if judging else sum(
            v.challenges for v in hub.hub.board.stations.values()))
        assert held == STATIONS * ROWS, held
        return STATIONS * ROWS / took
    finally:
        hub.stop()


def test_rows_pushed_to_a_hub_that_judges_them(tmp_path):
    """The whole way a station's rows come: signed POSTs, checked, stored, judged, on the
    board; the same journals pushed to a hub judging (with) and not judging (without) them."""
    lexicon = load_lexicon(default_path())
    station_rows(tmp_path, lexicon)
    journals = [tmp_path / f"s{i}.db" for i in range(STATIONS)]
    plain, judged = [], []
    for i in range(ROUNDS):
        plain.append(pushed(tmp_path, f"plain{i}", journals, lexicon, False))
        judged.append(pushed(tmp_path, f"judged{i}", journals, lexicon, True))
    with_audit, without = statistics.median(judged), statistics.median(plain)
    report("hub: rows pushed, every one judged", f"{with_audit:,.0f} rows/s",
           f"{with_audit / without:.2f}x the rate of the same hub not judging "
           f"({without:,.0f} rows/s)")
    print(f"with {sorted(judged)} without {sorted(plain)}")
