"""A station that sends the hub any field a real station could: rows chained and signed by hand.

The rows are made here, not by a journal, so a field may hold what no station's journal would
(a table "²", 10,000 characters, a lone surrogate): each row is chained (journal/chain.py) and
the request signed (wire.py) exactly as a station's sender does, so only the field is odd.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

from adjudicator import wire
from adjudicator.journal import chain

FINGERPRINT = "ab" * 32


def request(url: str, path: str, token: str, body: dict, key: bytes, stamp: str = ""
            ) -> tuple[int, dict]:
    data = json.dumps(body, separators=(",", ":")).encode("utf-8")
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}",
               wire.KEY_ID: wire.key_id(key), wire.SIGNATURE: wire.sign(key, path, data, stamp)}
    if stamp:
        headers[wire.STAMP] = stamp
    try:
        with urllib.request.urlopen(urllib.request.Request(url + path, data=data,
                                                           headers=headers), timeout=20) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


class OddStation:
    """One station journal (its own key), sending rows one at a time with chosen fields."""

    def __init__(self, url: str, token: str, name: str = "Desk 1"):
        self.url, self.token, self.name = url, token, name
        self.key = os.urandom(32)
        self.journal_id = os.urandom(8).hex()
        try:
            self.last = chain.genesis(self.journal_id, name)
        except UnicodeEncodeError:  # a lone surrogate: no journal could hold it (the hub
            self.last = chain.genesis(self.journal_id, "?")  # refuses the field, 400)
        self.seq = 0
        self.stamp, self.count = "", 0  # the hub's latest stamp, and requests signed with it

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        """BODY signed with the hub's latest stamp, as a station's sender does (asked again
        once when the hub answers with a stamp to sign)."""
        for _ in range(2):
            self.count += 1
            stamp = f"{self.stamp}.{self.count}" if self.stamp else ""
            status, answer = request(self.url, path, self.token, body, self.key, stamp)
            self.stamp = wire.stamp_of(answer) or self.stamp
            if status != 401 or not self.stamp:
                break
        return status, answer

    def row(self, **fields) -> dict:
        """The next row, chained: FIELDS over a plain acceptable challenge at table 4."""
        row = {"seq": self.seq + 1, "time_utc": "2026-11-22T14:00:00+00:00",
               "time_local": "2026-11-22T15:00:00+01:00", "station": self.name,
               "mode": "station", "game_table": "4", "round": None, "words": "QI ZA",
               "acceptable": 1, "lexicon_name": "CSW24", "fingerprint": FINGERPRINT,
               "rule": None, "recheck_of": None, "secondary_agrees": None, "flags": "[]",
               "origin_journal": None, "origin_seq": None, **fields}
        row["prev_hash"] = self.last
        row["hash"] = chain.link(self.last, row)
        return row

    def send(self, **fields) -> tuple[int, dict]:
        """POST one row with FIELDS; the chain moves on only when the hub takes it."""
        row = self.row(**fields)
        status, answer = self.post("/api/rows", {
            "journal_id": self.journal_id, "station": self.name, "key": self.key.hex(),
            "rows": [row]})
        if status == 200 and answer.get("acked") == row["seq"]:
            self.seq, self.last = row["seq"], row["hash"]
        return status, answer

    def beat(self, **fields) -> tuple[int, dict]:
        return self.post("/api/heartbeat", {
            "journal_id": self.journal_id, "station": self.name, "key": self.key.hex(),
            "last_seq": self.seq, **fields})

    def accept(self, director_url: str) -> None:
        """The director accepts this station (its rows then count everywhere)."""
        url = director_url.replace("/?key=", "/api/accept?key=")
        urllib.request.urlopen(urllib.request.Request(url, data=json.dumps(
            {"station": wire.key_id(self.key)}).encode(), method="POST"), timeout=20).close()
