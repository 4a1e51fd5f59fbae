"""Accept is idempotent (issue 41 item 5): a second Accept, Accepts at once, or a replayed POST
change no count (4 challenges read 8 after a second Accept, 20 after three more)."""

from __future__ import annotations

import json
import threading
import urllib.request

from odd_station import OddStation

from adjudicator import wire


def _accept(hub, key: str) -> tuple[int, dict]:
    request = urllib.request.Request(f"{hub.url}/api/accept?key={hub.hub.director_token}",
                                     json.dumps({"station": key}).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=20) as r:
        return r.status, json.loads(r.read())


def _counts(hub) -> tuple:
    state = hub.call(hub.hub.board.snapshot)
    return ([s["challenges"] for s in state["stations"]],
            sum(t["challenges"] for t in state["tables"]), len(state["latest"]),
            state["checked"]["rows"])


def test_accept_again_concurrently_or_replayed_counts_each_row_once(start_hub, tmp_path):
    hub = start_hub(accept_new=False)
    desk = OddStation(hub.url, hub.hub.station_token, "Desk 4")
    for n in range(4):
        assert desk.send(game_table=str(n + 1))[0] == 200
    key = wire.key_id(desk.key)
    assert _accept(hub, key) == (200, {"accepted": key})
    once = _counts(hub)
    assert once[:3] == ([4], 4, 4)
    assert _accept(hub, key) == (200, {"accepted": key, "already": True})
    for _ in range(3):
        _accept(hub, key)
    assert _counts(hub) == once
    threads = [threading.Thread(target=_accept, args=(hub, key)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert desk.send(game_table="5")[0] == 200  # its next row counts once
    assert _counts(hub)[:3] == ([5], 5, 5)


def test_accepts_at_once_for_a_station_never_accepted_count_once(start_hub, tmp_path):
    hub = start_hub(accept_new=False)
    desk = OddStation(hub.url, hub.hub.station_token, "Desk 6")
    for n in range(21):
        assert desk.send(game_table=str(n % 7 + 1))[0] == 200
    key = wire.key_id(desk.key)
    answers: list = []
    threads = [threading.Thread(target=lambda: answers.append(_accept(hub, key)))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(a[0] for a in answers) == [200] * 8
    assert sum(1 for a in answers if "already" not in a[1]) == 1
    assert _counts(hub)[:3] == ([21], 21, 21)
    hub.stop()
    again = start_hub()
    assert _counts(again)[:3] == ([21], 21, 21)
