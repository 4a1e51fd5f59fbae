"""A hub that answers wrong on purpose: a tiny socket server on 127.0.0.1 that reads each request
whole and then cuts its reply, sends a bad status line, garbage, a JSON list, a bad ack, a 500 or
a 400, or closes at once. It counts the requests it was sent."""

from __future__ import annotations

import socket
import threading

REPLIES = {
    # a reply cut short: 100 bytes announced, 10 sent (http.client.IncompleteRead)
    "cut": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
           b'{"acked": ',
    "bad status": b"HELLO THERE\r\n\r\n",  # http.client.BadStatusLine
    "garbage": b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n\x00\xff<html>",
    "json list": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 9\r\n"
                 b"\r\n[1, 2, 3]",
    "bad ack": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n"
               b'\r\n{"acked": true}',
    "huge ack": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 16\r\n"
                b'\r\n{"acked": 1e400}',
    "server error": b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5\r\n\r\noops!",
    "refused": b"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n"
               b'Content-Length: 34\r\n\r\n{"error": "no\\u001b[31m such row"}',
    "closed": b"",  # closes the connection without a word
}


class FaultyHub:
    def __init__(self, mode: str):
        self.mode, self.requests = mode, 0
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(32)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self._stop = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        try:
            conn.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            head, body = data.split(b"\r\n\r\n", 1)
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            while len(body) < length:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                body += chunk
            self.requests += 1
            conn.sendall(REPLIES[self.mode])
        except OSError:
            pass
        finally:
            conn.close()

    def close(self) -> None:
        self._stop = True
        self.sock.close()


class TricklingHub:
    """A hub that reads each request whole, then answers one byte every PACE seconds for ever:
    a status line, then a header that never ends (each byte comes before any read times out).
    It counts the requests it was sent and stops trickling when closed."""

    HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: "

    def __init__(self, pace: float = 1.5, head: bytes | None = None, sent: bytes = b""):
        """HEAD: what is trickled before the endless bytes (by default a status line and a
        header that never ends); SENT: what is sent at once before it (a whole head with a
        Content-Length, HEAD empty: a body trickles)."""
        self.pace, self.requests, self.sent = pace, 0, sent
        if head is not None:
            self.HEAD = head
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(32)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self._stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        try:
            conn.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            self.requests += 1
            conn.sendall(self.sent)
            i = 0
            while not self._stop.is_set():
                conn.sendall(self.HEAD[i:i + 1] if i < len(self.HEAD) else b"a")
                i += 1
                self._stop.wait(self.pace)
        except OSError:
            pass  # the station hung up: as it should
        finally:
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self.sock.close()
