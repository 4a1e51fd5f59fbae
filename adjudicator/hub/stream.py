"""The director's live feed: the board sent whole once per page, then only what changed.

One task (Feed.run) looks at the board when it changes (a burst of rows is one look) and at least
every second while a page follows; it works out what changed since the last look once, encodes it
once, and hands the same bytes to every page. A page that does not read its messages is closed
(it reconnects and is sent the whole board again); at most MAX_STREAMS pages follow at once, the
rest are refused with a message the page shows, and each page is asked to reconnect every ten
minutes (the director's page does at once), so pages left open and forgotten, or held by a
client that never reads, do not keep the slots for ever. Nothing is kept per page but a short
queue, so
the hub's memory is back where it was when the pages go, and the stations' posts never wait for
a page.

A message is `{"full": true, ...the whole board}` or a change: `{"time", "version"}` plus only
the parts that changed: "stations" / "tables" as {"set": [entries], "drop": [keys]} (a station's
key is its "id", a table's its "key"), "stations_order" / "tables_order" (keys, when the order
changed), and "latest", "alarms", "tsh", "waiting", "event", "checked", "tables_more" whole.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

MAX_STREAMS = 32  # pages following the board at once
TICK = 1.0  # seconds between looks when nothing happens (a station turns silent)
SETTLE = 0.25  # seconds a burst of changes is given to become one message
QUEUE = 16  # messages a page may be behind before it is closed
SEND_TIMEOUT = 5.0  # seconds one message may take to go out to a page
LIFETIME = 600.0  # seconds a page follows before it is asked to reconnect (frees idle slots)
TOO_MANY = ("Too many live views of this board are open ({n}): close the director's page in "
            "another tab, window or device; this one tries again every 10 s.")
KEYED = {"stations": "id", "tables": "key"}
WHOLE = ("latest", "alarms", "tsh", "waiting", "event", "checked", "tables_more")


def _keyed(state: dict) -> dict:
    """STATE's parts as compared: stations and tables by key ("seen" ages on its own: the page
    counts it from "heard")."""
    stations = {s["id"]: {k: v for k, v in s.items() if k != "seen"} for s in state["stations"]}
    tables = {}
    for t in state["tables"]:
        key = str(t.get("key", f"{t.get('station')}\t{t.get('table')}"))  # board: its table
        tables[key] = {**t, "key": key}
    return {"stations": stations, "tables": tables,
            **{part: state.get(part) for part in WHOLE}}


def full_message(state: dict) -> dict:
    keyed = _keyed(state)
    return {"full": True, "time": state["time"], "version": state["version"],
            "stations": list(keyed["stations"].values()),
            "tables": list(keyed["tables"].values()),
            **{part: keyed[part] for part in WHOLE}}


def change_message(before: dict, now: dict, state: dict) -> dict:
    """What changed from BEFORE to NOW (both _keyed()); STATE: now's board, for its time."""
    message: dict = {"time": state["time"], "version": state["version"]}
    for part in KEYED:
        old, new = before[part], now[part]
        changed = [entry for key, entry in new.items() if old.get(key) != entry]
        dropped = [key for key in old if key not in new]
        if changed or dropped:
            message[part] = {"set": changed, "drop": dropped}
        if list(old) != list(new):
            message[f"{part}_order"] = list(new)
    for part in WHOLE:
        if before[part] != now[part]:
            message[part] = now[part]
    return message


def encode(message: dict) -> bytes:
    return b"data: " + json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n\n"


class Stream:
    """One page following the board: the messages waiting for it."""

    def __init__(self):
        self.queue: asyncio.Queue = asyncio.Queue(QUEUE + 1)
        self.behind = False

    def offer(self, message: bytes) -> None:
        if self.behind:
            return
        if self.queue.qsize() >= QUEUE:
            self.behind = True  # too slow: closed, and the page starts again from the whole
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message)


class Feed:
    """Every page following the board (SNAPSHOT(): the board's state now)."""

    def __init__(self, snapshot: Callable[[], dict], max_streams: int = MAX_STREAMS,
                 lifetime: float = LIFETIME):
        self.snapshot, self.max_streams, self.lifetime = snapshot, max_streams, lifetime
        self.streams: set[Stream] = set()
        self._changed = asyncio.Event()
        self._state: dict | None = None  # the last board sent
        self._last: dict | None = None  # _keyed() of it
        self._full: bytes | None = None  # the last board sent, whole, encoded
        self.failures = 0  # looks at the board that failed (the feed went on)

    def changed(self) -> None:
        """The board changed: pages are told (soon, with what else changes meanwhile)."""
        self._changed.set()

    def open(self) -> Stream | None:
        """A new page's stream, its first message the whole board; None when MAX_STREAMS are
        open already."""
        if len(self.streams) >= self.max_streams:
            return None
        if self._last is None or self._changed.is_set():
            self._publish()
        if self._full is None:
            self._full = encode(full_message(self._state))
        stream = Stream()
        stream.offer(self._full)
        self.streams.add(stream)
        return stream

    def close(self, stream: Stream) -> None:
        self.streams.discard(stream)
        if not self.streams:
            self._last = self._full = None  # nothing kept while no page follows

    def _publish(self) -> None:
        self._changed.clear()
        state = self.snapshot()
        keyed = _keyed(state)
        if self._last is not None and self.streams:
            message = encode(change_message(self._last, keyed, state))
            for stream in list(self.streams):
                stream.offer(message)
        self._state, self._last, self._full = state, keyed, None

    async def run(self) -> None:
        """Tell every page what changed, as it changes (a burst at once), and every TICK."""
        while True:
            try:  # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow the
                # cancel that ends the hub when the wait ends at the same moment, and the
                # hub then never stops (seen under load: Ctrl-C, no exit)
                async with asyncio.timeout(TICK):
                    await self._changed.wait()
                await asyncio.sleep(SETTLE)
            except TimeoutError:
                pass
            if self.streams:
                try:
                    self._publish()
                except Exception:  # noqa: BLE001 - a board that cannot be drawn now must not
                    self.failures += 1  # end the feed: every page would wait for good
            else:
                self._changed.clear()

    async def send(self, stream: Stream, write) -> None:
        """Write STREAM's messages with WRITE(bytes) until the page goes, falls behind, or has
        followed for the feed's lifetime (it reconnects: the whole board again)."""
        loop = asyncio.get_running_loop()
        ends = loop.time() + self.lifetime
        try:
            while True:
                async with asyncio.timeout(max(0.0, ends - loop.time())):
                    message = await stream.queue.get()
                if message is None:
                    return
                async with asyncio.timeout(SEND_TIMEOUT):
                    await write(message)
        except (ConnectionError, TimeoutError, RuntimeError):
            return
        finally:
            self.close(stream)
