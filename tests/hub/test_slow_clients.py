"""Slow and idle clients cannot stop the hub: connections that trickle their request head, idle
ones, bodies that never end; the director's page and the stations' posts still answered, the
log a few lines (each repeated complaint once, with a count). The full 1,100 under
`ulimit -n 1024` is bench/test_hub_bench.py's (or ADJUDICATOR_HUB_SLOW_FULL=1 here)."""

from __future__ import annotations

import io
import json
import os
import socket
import threading
import time
import urllib.request

import pytest

from adjudicator.net.logs import OneLineLog

TRICKLERS = 1100 if os.environ.get("ADJUDICATOR_HUB_SLOW_FULL") or os.environ.get(
    "ADJUDICATOR_FULL") == "1" else 150


class Trickler:
    """Connections that send a request head one byte every half second, never finishing it."""

    def __init__(self, port: int, n: int):
        self.socks = []
        for _ in range(n):
            s = socket.socket()
            s.settimeout(5)
            try:
                s.connect(("127.0.0.1", port))
                s.sendall(b"GET /?key=x HTTP/1.1\r\nHost: hub\r\nX-Slow: ")
            except OSError:
                s.close()
                continue
            s.setblocking(False)
            self.socks.append(s)
        self.closed: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            for i, s in enumerate(self.socks):
                if i in self.closed:
                    continue
                try:
                    s.send(b"a")
                    if s.recv(1024) == b"":
                        self.closed.add(i)
                except BlockingIOError:
                    pass
                except OSError:
                    self.closed.add(i)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for s in self.socks:
            s.close()


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=20) as r:
        return r.status, r.read()


def test_trickling_connections_are_closed_and_the_hub_keeps_answering(start_hub, tmp_path):
    from adjudicator.link.hubclient import post

    out = io.StringIO()
    hub = start_hub(log=OneLineLog(out), max_connections=100, first_request=1.5)
    director = f"{hub.local_url}/?key={hub.hub.director_token}"
    slow = Trickler(hub.local_port, TRICKLERS)
    try:
        time.sleep(0.5)
        status, page = get(director)  # the cap is full of tricklers: the oldest makes way
        assert status == 200 and b"Director's view" in page
        key = bytes(range(32))  # the station's key, sent on first contact
        answer = post(hub.url, "/api/heartbeat", hub.hub.station_token,
                      {"journal_id": "j1", "station": "Desk 1", "last_seq": 0,
                       "key": key.hex()}, timeout=20, key=key)
        assert answer["acked"] == 0
        deadline = time.monotonic() + 30
        while len(slow.closed) < len(slow.socks) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(slow.closed) == len(slow.socks)  # every one closed (1.5 s each, + slack)
        state = json.loads(get(f"{hub.local_url}/state?key={hub.hub.director_token}")[1])
        assert [s["name"] for s in state["stations"]] == ["Desk 1"]
    finally:
        slow.stop()
    log = out.getvalue()
    assert len(log) < 4000, log  # not one line per connection
    assert "Traceback" not in log


def test_a_body_that_never_ends_is_cut_and_an_idle_connection_closed(start_hub):
    out = io.StringIO()
    hub = start_hub(log=OneLineLog(out), idle=1.0, body=1.0)
    s = socket.create_connection(("127.0.0.1", hub.local_port), timeout=10)
    s.sendall(b"POST /api/rows HTTP/1.1\r\nHost: hub\r\nContent-Type: application/json\r\n"
              b"Authorization: Bearer " + hub.hub.station_token.encode() +
              b"\r\nContent-Length: 100000\r\n\r\n{\"journal_id\":")
    try:
        cut = s.recv(1024)
    except ConnectionResetError:
        cut = b""  # closed with a reset: as closed
    assert cut == b""  # cut, not left waiting for the other 99,986 bytes
    s.close()
    idle = socket.create_connection(("127.0.0.1", hub.local_port), timeout=10)
    idle.sendall(b"GET /favicon.ico HTTP/1.1\r\nHost: hub\r\n\r\n")
    assert idle.recv(1024).startswith(b"HTTP/1.1 204")
    assert idle.recv(1024) == b""  # then closed once idle
    idle.close()
    assert "request body was still arriving" in out.getvalue()


def test_a_repeated_complaint_is_said_once_with_its_count():
    out = io.StringIO()
    now = [0.0]
    log = OneLineLog(out, clock=lambda: now[0])
    for _ in range(138_805):
        log("socket.accept() out of system resources: OSError: [Errno 24] Too many open files")
    log("something else")
    now[0] = 31.0
    log.flush()
    lines = out.getvalue().splitlines()
    assert len(lines) == 3, lines
    assert lines[0].endswith("Too many open files") and lines[1].endswith("something else")
    assert "the same 138804 more times in 31 s: socket.accept()" in lines[2]


@pytest.mark.skipif(not hasattr(socket, "SO_REUSEPORT"), reason="POSIX only")
def test_the_hub_raises_its_own_file_limit_as_serve_does():
    import resource

    from adjudicator.hub.run import connection_cap

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        cap = connection_cap(600)
        now = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if hard == resource.RLIM_INFINITY or hard >= 928:
            assert now >= 928 and cap == 600
        else:
            assert cap <= now - 328 or cap == 16  # as many as the files allow
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
