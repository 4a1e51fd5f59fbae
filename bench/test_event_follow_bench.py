"""Issue 27: a change of the event at the hub reaches 50 stations within one heartbeat, against
the heartbeat interval measured in the same run (the stations' own, as the hub answered them).

Stations: $ADJUDICATOR_FOLLOW_STATIONS (50) in two worker processes (tests/hub/fleet.py follow),
each beating every $ADJUDICATOR_FOLLOW_BEAT seconds (5, the hall's: link/forward.py HEARTBEAT),
their beats spread over the interval as in a hall; three changes at random moments.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
HUB_TESTS = HERE.parent / "tests" / "hub"
sys.path.insert(0, str(HUB_TESTS))

from benchutil import report  # noqa: E402
from fleet import Worker  # noqa: E402

from adjudicator.event.setup import Division, Event  # noqa: E402
from adjudicator.judging.rules import ChallengeRule  # noqa: E402

STATIONS = int(os.environ.get("ADJUDICATOR_FOLLOW_STATIONS", "50"))
BEAT = float(os.environ.get("ADJUDICATOR_FOLLOW_BEAT", "5"))
CHANGES = 3  # changes at random moments; the worst is reported


def running_hub(path: Path):
    """tests/hub/conftest.py's RunningHub (an in-process hub whose event the bench sets)."""
    spec = importlib.util.spec_from_file_location("hub_fixtures", HUB_TESTS / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.RunningHub(str(path))


def seen(workers, kind: str) -> dict:
    """{station: [times]} of the lines KIND ("beat", or "event V") the workers printed:
    "beat NAME T", "event NAME V T"."""
    found: dict[str, list[float]] = {}
    what, *version = kind.split()
    for w in workers:
        for line in list(w.lines):
            parts = line.split()
            if parts and parts[0] == what and parts[2:-1] == version:
                found.setdefault(parts[1], []).append(float(parts[-1]))
    return found


def wait(predicate, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError("not within the time allowed")


def test_a_change_reaches_every_station_within_one_heartbeat(tmp_path):
    event = Event("Club Open", (Division("A", "CSW24", ChallengeRule.WORD5, ((1, 20),)),
                                Division("B", "NWL2023", ChallengeRule.DOUBLE, ((21, 40),))),
                  version=1)
    hub = running_hub(tmp_path / "hub.db")
    names = [f"S{i:02d}" for i in range(STATIONS)]
    workers = [Worker.following(tmp_path, hub.url, hub.hub.station_token, BEAT, names[k::2])
               for k in range(2)]
    try:
        hub.call(setattr, hub.hub, "event", event)
        wait(lambda: len(seen(workers, "event 1")) == STATIONS, 30 + 4 * BEAT)
        lasts = []
        for version in range(2, 2 + CHANGES):
            time.sleep(random.uniform(0, BEAT))  # the director's change comes at any moment
            changed = time.time()
            hub.call(setattr, hub.hub, "event", dataclasses.replace(
                event, divisions=(dataclasses.replace(event.divisions[0], lexicon=f"CSW{version}"),
                                  event.divisions[1]), version=version))
            wait(lambda v=version: len(seen(workers, f"event {v}")) == STATIONS, 30 + 4 * BEAT)
            reached = sorted(t[0] - changed for t in seen(workers, f"event {version}").values())
            lasts.append(reached[-1])
        gaps = [b - a for times in seen(workers, "beat").values()
                for a, b in zip(times, times[1:])]
    finally:
        for w in workers:
            w.stop()
        hub.stop()
        print("\n".join(workers[0].errors[-10:]))
    interval = statistics.median(gaps)
    last = max(lasts)
    print(f"interval {interval:.3f} s; the last station reached after {lasts} s")
    report(f"event change to {STATIONS} stations", f"last station {last:.2f} s (worst of "
           f"{CHANGES} changes)", f"{last / interval:.2f}x the heartbeat interval "
           f"({interval:.2f} s, measured); lower is better, goal <= 1")
    assert last <= interval * 1.5  # one heartbeat, and its own round trip on a loaded machine
