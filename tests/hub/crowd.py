"""Crowds of connections without the token, from many loopback addresses (127.0.0.x: the whole
127/8 is this machine) or from one: keep-alive ones asking for /favicon.ico over and over, or
silent ones that connect and send nothing."""

from __future__ import annotations

import selectors
import socket
import threading
import time

ASK = b"GET /favicon.ico HTTP/1.1\r\nHost: hub\r\n\r\n"


def source(i: int, addresses: int) -> str:
    """The loopback address of client I when the crowd uses ADDRESSES of them (1: 127.0.0.1)."""
    if addresses <= 1:
        return "127.0.0.1"
    n = 2 + i % addresses  # 127.0.0.2 upwards, then 127.0.1.x...
    return f"127.0.{n // 250}.{2 + n % 250}"


def connect(port: int, address: str, timeout: float = 5.0) -> socket.socket | None:
    s = socket.socket()
    s.settimeout(timeout)
    try:
        s.bind((address, 0))
        s.connect(("127.0.0.1", port))
    except OSError:
        s.close()
        return None
    return s


class Crowd:
    """N keep-alive clients asking for /favicon.ico, RATE requests a second in all, each on its
    own connection (a new one when the hub closed it): the stats say how many were answered,
    how many connections were closed by the hub, and how many could not connect."""

    def __init__(self, port: int, n: int, rate: float, addresses: int = 1):
        self.port, self.n, self.rate, self.addresses = port, n, rate, addresses
        self.socks: list[socket.socket | None] = [None] * n
        self.answered = self.reconnected = self.refused = self.closed = 0
        self._sel = selectors.DefaultSelector()
        self._stop = threading.Event()
        for i in range(n):
            self._open(i)
            self._ask(i)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _open(self, i: int) -> None:
        s = connect(self.port, source(i, self.addresses))
        if s is None:
            self.refused += 1
            return
        s.setblocking(False)
        self.socks[i] = s
        self._sel.register(s, selectors.EVENT_READ, i)

    def _drop(self, i: int) -> None:
        s = self.socks[i]
        if s is not None:
            self._sel.unregister(s)
            s.close()
            self.socks[i] = None

    def _ask(self, i: int) -> None:
        s = self.socks[i]
        if s is None:
            self._open(i)
            s = self.socks[i]
            if s is None:
                return
            self.reconnected += 1
        try:
            s.send(ASK)
        except OSError:
            self._drop(i)
            self.closed += 1

    def _run(self) -> None:
        turn, every = 0, 1.0 / self.rate
        due = time.monotonic()
        while not self._stop.is_set():
            for key, _ in self._sel.select(timeout=max(0.0, due - time.monotonic())):
                i = key.data
                try:
                    got = self.socks[i].recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    got = b""
                if got:
                    self.answered += got.count(b"HTTP/1.1 ")
                else:
                    self._drop(i)
                    self.closed += 1
            if time.monotonic() >= due:
                self._ask(turn % self.n)
                turn += 1
                due += every

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        for i in range(self.n):
            self._drop(i)
        self._sel.close()


class Silent:
    """N connections that connect and send nothing; closed() counts those the hub closed."""

    def __init__(self, port: int, n: int, addresses: int = 1):
        self.socks = [s for s in (connect(port, source(i, addresses)) for i in range(n)) if s]
        for s in self.socks:
            s.setblocking(False)

    def closed(self) -> int:
        gone = 0
        for s in self.socks:
            try:
                gone += s.recv(64) == b""
            except BlockingIOError:
                pass
            except OSError:
                gone += 1
        return gone

    def stop(self) -> None:
        for s in self.socks:
            s.close()
