"""Two machines in the hall for the TLS tests: a listener that relays and records every byte
(Relay: what anyone on the venue's network reads), and a machine in the middle that answers TLS
with its own certificate and records whatever it is then sent (Impostor)."""

from __future__ import annotations

import socket
import ssl
import threading


class Relay:
    """A plain TCP relay on 127.0.0.1 to UPSTREAM (a port of this machine): .recorded holds
    every byte that crossed it, both ways, as a listener on the hall's network sees them."""

    def __init__(self, upstream: int):
        self.upstream = upstream
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.recorded = bytearray()
        self.connections = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                down, _ = self.server.accept()
            except OSError:
                return
            try:
                up = socket.create_connection(("127.0.0.1", self.upstream), timeout=10)
            except OSError:
                down.close()
                continue
            self.connections += 1
            for a, b in ((down, up), (up, down)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                with self._lock:
                    self.recorded += data
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.server.close()


class Impostor:
    """A TLS server on 127.0.0.1 with CONTEXT (another certificate than the hub's): counts the
    handshakes done and records every byte a client sends after one."""

    def __init__(self, context: ssl.SSLContext):
        self.context = context
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.received = bytearray()
        self.handshakes = 0
        self.ended = threading.Semaphore(0)  # released once per connection read to its end
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(10)
        try:
            tls = self.context.wrap_socket(conn, server_side=True)
            self.handshakes += 1
            while data := tls.recv(65536):
                self.received += data
        except (OSError, ssl.SSLError):
            pass
        finally:
            conn.close()
            self.ended.release()

    def close(self) -> None:
        self.server.close()
