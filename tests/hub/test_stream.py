"""The director's live feed sends what changed, not the whole board; a bounded number of pages
follow at once (the rest are told why); a page that does not read is dropped, not buffered."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import time
import urllib.request

from adjudicator.hub import stream
from adjudicator.hub.stream import Feed

STREAMS = 1000 if os.environ.get("ADJUDICATOR_HUB_STREAMS_FULL") or os.environ.get(
    "ADJUDICATOR_FULL") == "1" else 60


def board(stations, tables=(), latest=(), time="2026-11-22T14:00:00+00:00"):
    return {"version": 1, "time": time, "stations": [dict(s) for s in stations],
            "tables": [dict(t) for t in tables], "latest": list(latest), "alarms": [],
            "tsh": None}


def station(i, **more):
    return {"id": f"j{i}", "name": f"Desk {i}", "lexicon": "CSW24", "alarms": [], "seen": 3,
            "heard": "2026-11-22T13:59:57+00:00", **more}


def table(name, t, n):
    return {"station": name, "table": t, "challenges": n, "recent": []}


def messages(s: stream.Stream) -> list[dict]:
    found = []
    while not s.queue.empty():
        item = s.queue.get_nowait()
        found.append(None if item is None else json.loads(item[len(b"data: "):]))
    return found


def test_a_page_gets_the_whole_board_once_then_only_what_changed():
    async def go():
        state = board([station(i) for i in range(24)], [table("Desk 1", str(t), 1)
                                                        for t in range(10)])
        feed = Feed(lambda: state)
        page = feed.open()
        [first] = messages(page)
        assert first["full"] and len(first["stations"]) == 24 and len(first["tables"]) == 10
        state = board([station(i, seen=9) for i in range(24)], state["tables"],
                      time="2026-11-22T14:00:01+00:00")
        feed._publish()
        [tick] = messages(page)  # a second later, nothing changed but the time ("seen" ages)
        assert tick == {"time": "2026-11-22T14:00:01+00:00", "version": 1}
        stations = [station(i) for i in range(24)]
        stations[5]["alarms"] = ["silent"]
        tables = state["tables"] + [table("Desk 2", "12", 1)]
        tables[0] = table("Desk 1", "0", 2)
        state = board(stations, tables, latest=[{"words": "QI"}])
        feed.changed()
        feed._publish()
        [change] = messages(page)
        assert [s["id"] for s in change["stations"]["set"]] == ["j5"]
        assert [t["key"] for t in change["tables"]["set"]] == ["Desk 1\t0", "Desk 2\t12"]
        assert change["tables_order"][-1] == "Desk 2\t12" and "stations_order" not in change
        assert change["latest"] == [{"words": "QI"}] and "alarms" not in change
        assert len(json.dumps(change)) < len(json.dumps(first)) / 5
        state = board(stations[:-1], tables[1:], latest=[{"words": "QI"}])
        feed._publish()
        [gone] = messages(page)
        assert gone["stations"]["drop"] == ["j23"] and gone["tables"]["drop"] == ["Desk 1\t0"]
        feed.close(page)
        assert feed._last is None and feed._full is None  # nothing kept with no page
    asyncio.run(go())


def test_pages_beyond_the_cap_are_refused_and_a_page_that_does_not_read_is_dropped():
    async def go():
        feed = Feed(lambda: board([station(1)]), max_streams=2)
        a, b = feed.open(), feed.open()
        assert feed.open() is None
        for n in range(stream.QUEUE + 5):
            feed.changed()
            feed._publish()
        assert a.behind and messages(a)[-1] is None  # told to end: it starts again, whole
        feed.close(a)
        assert feed.open() is not None
    asyncio.run(go())


def open_stream(port: int, key: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    s.sendall(f"GET /events?key={key} HTTP/1.1\r\nHost: hub\r\n\r\n".encode())
    return s


def read_status(s: socket.socket) -> tuple[int, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    return int(data.split(b" ", 2)[1]), data


def test_many_open_streams_leave_posts_answered_and_the_page_updated(start_hub):
    from adjudicator.link.hubclient import post

    hub = start_hub()
    key = hub.hub.director_token
    socks = [open_stream(hub.local_port, key) for _ in range(STREAMS)]
    try:
        statuses = [read_status(s) for s in socks]
        accepted = [s for s, (code, _) in zip(socks, statuses) if code == 200]
        refused = [data for code, data in statuses if code == 503]
        assert len(accepted) == stream.MAX_STREAMS and len(refused) == STREAMS - len(accepted)
        assert b"Too many live views" in refused[0]
        assert b"connection: close" in refused[0].lower()
        last = next(s for s, (code, _) in zip(socks, statuses) if code == 503)
        while last.recv(4096):
            pass  # a refused page's connection is closed, not kept holding a slot
        for i in range(20):  # the stations are answered meanwhile
            station_key = bytes([i]) * 32  # each station its own, sent on first contact
            post(hub.url, "/api/heartbeat", hub.hub.station_token,
                 {"journal_id": f"j{i}", "station": f"Desk {i}", "last_seq": 0,
                  "key": station_key.hex()}, timeout=20, key=station_key)
        follower = accepted[0]
        follower.settimeout(10)
        seen = b""
        deadline = time.monotonic() + 20
        while b"Desk 19" not in seen and time.monotonic() < deadline:
            seen += follower.recv(65536)
        assert b"Desk 19" in seen  # the board reaches a page still
        assert hub.call(lambda: len(hub.hub.feed.streams)) == stream.MAX_STREAMS
    finally:
        for s in socks:
            s.close()
    deadline = time.monotonic() + 20
    while hub.call(lambda: len(hub.hub.feed.streams)) and time.monotonic() < deadline:
        post(hub.url, "/api/heartbeat", hub.hub.station_token,
             {"journal_id": "j0", "station": "Desk 0", "last_seq": 0}, timeout=20,
             key=bytes([0]) * 32)  # Desk 0's key, known to the hub since its first contact
        time.sleep(0.3)
    assert hub.call(lambda: len(hub.hub.feed.streams)) == 0  # every closed page let go
    with urllib.request.urlopen(f"{hub.local_url}/state?key={key}", timeout=20) as r:
        assert len(json.loads(r.read())["stations"]) == 20


def test_a_page_is_asked_to_reconnect_after_its_lifetime_so_forgotten_pages_free_their_slot():
    async def go():
        feed = Feed(lambda: board([station(1)]), max_streams=1, lifetime=0.3)
        page = feed.open()
        written = []

        async def write(message):
            written.append(message)
        await asyncio.wait_for(feed.send(page, write), 10)  # ends by itself
        assert written and json.loads(written[0][6:])["full"]
        assert not feed.streams and feed.open() is not None  # its slot is free again
    asyncio.run(go())


def test_a_board_that_cannot_be_drawn_once_does_not_end_the_feed():
    """A snapshot that fails (as a table "²" once did: int() of it) costs that look only: the
    feed goes on and the pages get the next board, rather than waiting for good."""
    calls = []

    def snapshot():
        calls.append(1)
        if len(calls) == 2:
            raise ValueError("invalid literal for int() with base 10: '²'")
        return board([station(len(calls))])

    async def go():
        feed = Feed(snapshot)
        page = feed.open()
        task = asyncio.create_task(feed.run())
        for _ in range(2):
            feed.changed()
            await asyncio.sleep(stream.SETTLE + 0.2)
        task.cancel()
        return feed, messages(page)

    feed, sent = asyncio.run(go())
    assert feed.failures == 1 and len(calls) >= 3
    assert sent[0]["full"] and sent[-1]["stations"]["set"][0]["name"] == f"Desk {len(calls)}"
