"""Made-up stations for the tests of identity and waiting (issue 26): signed requests sent as a
station's sender sends them (with the hub's stamp), from any 127.0.0.x source address."""

from __future__ import annotations

import http.client
import json
import ssl
from urllib.parse import quote, urlsplit

from adjudicator import wire


class NotTaken(Exception):
    def __init__(self, status: int, answer: dict):
        super().__init__(f"{status}: {answer.get('error')}")
        self.status, self.answer = status, answer


class Ghost:
    """One station key talking to a hub from ADDRESS; remembers the hub's latest stamp."""

    def __init__(self, hub_url: str, token: str, key: bytes, address: str = "127.0.0.1"):
        self.url, self.token, self.key, self.address = hub_url, token, key, address
        self.stamp, self.count, self.known = "", 0, False
        self.last_request: tuple | None = None  # (path, headers, data): what a listener saw

    def send_raw(self, path: str, headers: dict, data: bytes) -> tuple[int, dict]:
        parts = urlsplit(self.url)
        if parts.scheme == "https":  # the hub's stations' listener (TLS, its own certificate)
            conn = http.client.HTTPSConnection(parts.hostname, parts.port, timeout=10,
                                               source_address=(self.address, 0),
                                               context=ssl._create_unverified_context())
        else:
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10,
                                              source_address=(self.address, 0))
        try:
            conn.request("POST", path, body=data, headers=headers)
            response = conn.getresponse()
            answer = json.loads(response.read() or b"{}")
            return response.status, answer
        finally:
            conn.close()

    def post(self, path: str, body: dict, stamped: bool = True) -> dict:
        for _ in range(3):
            body = dict(body, key=self.key.hex()) if not self.known else body
            data = wire.encode(body)
            self.count += 1
            stamp = f"{self.stamp}.{self.count}" if self.stamp and stamped else ""
            headers = {"Content-Type": "application/json",
                       "Authorization": f"Bearer {self.token}",
                       wire.KEY_ID: wire.key_id(self.key),
                       wire.SIGNATURE: wire.sign(self.key, path, data, stamp)}
            if stamp:
                headers[wire.STAMP] = stamp
            headers[wire.NAME] = quote(str(body.get("station") or "")[:60], safe="")
            self.last_request = (path, headers, data)
            status, answer = self.send_raw(path, headers, data)
            self.stamp = wire.stamp_of(answer) or self.stamp
            if status == 200:
                self.known = True
                return answer
            if status != 401 or not stamped:
                raise NotTaken(status, answer)
        raise NotTaken(status, answer)

    def beat(self, journal_id: str, station: str, last_seq: int = 0, **more) -> dict:
        return self.post("/api/heartbeat", {"journal_id": journal_id, "station": station,
                                            "last_seq": last_seq, **more})

    def rows(self, journal_id: str, station: str, rows: list[dict]) -> dict:
        return self.post("/api/rows", {"journal_id": journal_id, "station": station,
                                       "rows": rows})


def director(hub_url: str, director_token: str, what: str, key_id: str) -> int:
    """POST /api/accept or /api/reject for KEY_ID as the director's page does; the status."""
    parts = urlsplit(hub_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("POST", f"/api/{what}?key={director_token}",
                     body=json.dumps({"station": key_id}),
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()
