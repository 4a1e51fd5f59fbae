"""Crowds without the token cannot shut the hall out: keep-alive connections asking for
/favicon.ico again and again, from many addresses or from one, and silent ones from one
address; a station's POST and the director's page still get in, and the log stays short.
The full figure (1,000 connections, 75 requests a second, 60 s) is
bench/test_hub_hall_bench.py's."""

from __future__ import annotations

import http.client
import io
import json
import time
import urllib.request

import pytest
from crowd import Crowd, Silent, connect

from adjudicator.link.hubclient import post
from adjudicator.net.logs import OneLineLog


def heartbeat(hub, i: int) -> dict:
    key = bytes([i]) * 32
    return post(hub.url, "/api/heartbeat", hub.hub.station_token,
                {"journal_id": f"j{i}", "station": f"Desk {i}", "last_seq": 0,
                 "key": key.hex()}, timeout=10, key=key)


def state(hub) -> dict:
    with urllib.request.urlopen(f"{hub.local_url}/state?key={hub.hub.director_token}",
                                timeout=10) as r:
        return json.loads(r.read())


@pytest.mark.parametrize("addresses", [60, 1], ids=["many-addresses", "one-address"])
def test_a_keep_alive_crowd_without_the_token_never_shuts_out_a_station(start_hub,
                                                                          addresses):
    out = io.StringIO()
    hub = start_hub(log=OneLineLog(out), max_connections=60)
    crowd = Crowd(hub.local_port, 120, rate=40, addresses=addresses)  # twice the cap, kept alive
    try:
        time.sleep(1.0)
        for i in range(10):  # a station's POSTs and the director's page, meanwhile
            assert heartbeat(hub, i)["acked"] == 0
            assert len(state(hub)["stations"]) == i + 1
        assert crowd.answered > 0  # the crowd was served too: only not kept
    finally:
        crowd.stop()
    log = out.getvalue()
    assert "Traceback" not in log and len(log) < 4000, log


def test_a_connection_without_the_token_is_closed_once_answered(start_hub):
    hub = start_hub()
    s = connect(hub.local_port, "127.0.0.1")
    s.sendall(b"GET /favicon.ico HTTP/1.1\r\nHost: hub\r\n\r\n")
    answer = b""
    while True:
        got = s.recv(4096)
        if not got:
            break  # closed by the hub, not kept for 10 s
        answer += got
    assert answer.startswith(b"HTTP/1.1 204")
    s.close()
    with_key = http.client.HTTPConnection("127.0.0.1", hub.local_port, timeout=10)
    for _ in range(3):  # the director's key: kept alive, the same connection asks again
        with_key.request("GET", f"/state?key={hub.hub.director_token}")
        response = with_key.getresponse()
        assert response.status == 200 and response.getheader("Connection") != "close"
        response.read()
    with_key.close()


def test_one_address_holds_a_bounded_number_of_silent_connections(start_hub):
    out = io.StringIO()
    hub = start_hub(log=OneLineLog(out), per_address=16)
    crowd = Silent(hub.local_port, 100, addresses=1)  # far below the cap of 600
    others = Silent(hub.local_port, 20, addresses=20)  # 20 other addresses, one each
    try:
        time.sleep(1.5)  # past the grace a new connection has to ask
        late = connect(hub.local_port, "127.0.0.1")  # the address's next connection makes it count
        deadline = time.monotonic() + 10
        while crowd.closed() < 100 - 16 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert crowd.closed() >= 100 - 16
        assert others.closed() == 0  # other addresses are not touched
        assert heartbeat(hub, 1)["acked"] == 0  # a station from that address still gets in
        late.close()
    finally:
        crowd.stop()
        others.stop()
    assert "127.0.0.1 holds more than 16 connections without the token" in out.getvalue()


def test_connections_with_a_token_keep_their_room(start_hub):
    """A cap of 60 kept full by silent connections from many addresses: the director's
    keep-alive connection and the stations' posts still get through, every time."""
    hub = start_hub(max_connections=60)
    director = http.client.HTTPConnection("127.0.0.1", hub.local_port, timeout=10)
    director.request("GET", f"/state?key={hub.hub.director_token}")
    director.getresponse().read()
    crowds = []
    try:
        for round_ in range(3):
            crowds.append(Silent(hub.local_port, 80, addresses=40))
            director.request("GET", f"/state?key={hub.hub.director_token}")
            answer = director.getresponse()
            assert answer.status == 200  # never evicted for the crowd
            answer.read()
            assert heartbeat(hub, 10 + round_)["acked"] == 0
        assert sum(c.closed() for c in crowds) >= 3 * 80 - 60
    finally:
        director.close()
        for c in crowds:
            c.stop()
