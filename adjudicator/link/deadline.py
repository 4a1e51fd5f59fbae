"""An HTTP request that ends by its deadline whatever the peer does (a byte every second included).

A socket timeout bounds one read: a hub (or anything on its address) that answers one byte every
1.5 s keeps a plain urllib request reading for ever. Here every read, write and the connection
itself are given only the time left before one deadline, so the whole request (connect, send,
status line, headers, body, a refusal's body) ends by then: a timeout past it, as any other.
Every connection is first allowed by pins.py: https only to the certificate pinned for its
address (compared right after the handshake, before the request is sent), http only to this
machine; a redirect elsewhere is held to the same.
"""

from __future__ import annotations

import http.client
import io
import time
import urllib.request
from functools import partial

from adjudicator.link import pins


class Deadline:
    """A moment on the monotonic clock; left() is the time until it, TimeoutError once past."""

    def __init__(self, seconds: float):
        self.at = time.monotonic() + max(0.0, seconds)

    def left(self) -> float:
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError("past the request's deadline")
        return left

    @property
    def passed(self) -> bool:
        return time.monotonic() >= self.at


class _Reader(io.RawIOBase):
    """The response's bytes from SOCK, each read given only the time left. It holds the file
    http.client made of SOCK (FILE): while that is open the socket stays open after urllib
    closes the connection (as it does before the body is read), and it is closed with this."""

    def __init__(self, sock, deadline: Deadline, file):
        super().__init__()
        self.sock, self.deadline, self.file = sock, deadline, file

    def close(self) -> None:
        if not self.closed:
            self.file.close()
        super().close()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        self.sock.settimeout(self.deadline.left())
        return self.sock.recv_into(buffer)


class _Response(http.client.HTTPResponse):
    def __init__(self, sock, *args, deadline: Deadline, **kwargs):
        super().__init__(sock, *args, **kwargs)
        self.fp = io.BufferedReader(_Reader(sock, deadline, self.fp))


class _Timed:
    """What both connection kinds add: connect, send and the response within the deadline."""

    deadline: Deadline

    def connect(self):
        self.timeout = self.deadline.left()
        super().connect()
        self.response_class = partial(_Response, deadline=self.deadline)

    def send(self, data):
        if self.sock is not None:
            self.sock.settimeout(self.deadline.left())
        super().send(data)


class _HTTPConnection(_Timed, http.client.HTTPConnection):
    def __init__(self, *args, deadline: Deadline, **kwargs):
        self.deadline = deadline
        super().__init__(*args, **kwargs)

    def connect(self):
        pins.allowed(f"http://{_host(self.host)}:{self.port}")  # this machine only
        super().connect()


class _HTTPSConnection(_Timed, http.client.HTTPSConnection):
    def __init__(self, *args, deadline: Deadline, **kwargs):
        self.deadline = deadline
        super().__init__(*args, context=pins.context(), **kwargs)

    def connect(self):
        url = f"https://{_host(self.host)}:{self.port}"
        pin = pins.allowed(url)  # before any connection: an unpinned hub is not even asked
        super().connect()  # the TCP connection and the TLS handshake, within the deadline
        try:
            pins.check(url, pin, self.sock.getpeercert(binary_form=True))
        except pins.LinkRefused:
            self.sock.close()
            self.sock = None
            raise


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, deadline: Deadline):
        super().__init__()
        self.deadline = deadline

    def http_open(self, req):
        return self.do_open(partial(_HTTPConnection, deadline=self.deadline), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline: Deadline):
        super().__init__()
        self.deadline = deadline

    def https_open(self, req):
        return self.do_open(partial(_HTTPSConnection, deadline=self.deadline), req)


def urlopen(request: urllib.request.Request, deadline: Deadline):
    """urllib's urlopen (its errors, HTTPError for a 4xx/5xx), ended by DEADLINE at the latest."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}),  # the hub is near
                                         _HTTPHandler(deadline), _HTTPSHandler(deadline))
    return opener.open(request, timeout=max(0.001, deadline.left()))
