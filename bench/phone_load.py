"""Simulated phones for the phone bench: aiohttp client websockets, each a device of its own.

A simulated phone does what the page does, over the same HTTP and websocket: the token URL (303
to /, the page, its device cookie), the websocket, the hello and state frames (the page is ready),
then a table chosen; later it submits words and waits for the verdict frame.
"""

from __future__ import annotations

import asyncio
import json
import time

import aiohttp


class SimPhone:
    """One device: its own cookie jar and connection pool."""

    def __init__(self, url: str, base: str, table: str):
        self.url, self.ws_url, self.table = url, base.replace("http", "ws", 1) + "/ws", table
        self.session: aiohttp.ClientSession | None = None
        self.ws = None

    async def open(self) -> float:
        """Token URL to ready (the table chooser shown): seconds."""
        start = time.perf_counter()
        self.session = aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True), timeout=aiohttp.ClientTimeout(total=60),
            connector=aiohttp.TCPConnector(limit=1))
        async with self.session.get(self.url) as response:
            await response.read()
            if response.status != 200:
                raise RuntimeError(f"page: {response.status}")
        self.ws = await self.session.ws_connect(self.ws_url, autoping=True)
        await self._until(lambda m: m["t"] == "state")
        ready = time.perf_counter() - start
        await self.send(t="table", table=self.table)
        await self._until(lambda m: m["t"] == "state" and m.get("view") == "ready")
        return ready

    async def send(self, **frame) -> None:
        await self.ws.send_str(json.dumps(frame))

    async def _until(self, wanted) -> dict:
        while True:
            msg = await self.ws.receive(timeout=60)
            if msg.type is not aiohttp.WSMsgType.TEXT:
                raise RuntimeError(f"websocket closed: {msg.type} {msg.data}")
            frame = json.loads(msg.data)
            if wanted(frame):
                return frame

    async def tap(self, words: str) -> float:
        """ADJUDICATE tapped to the verdict frame received: seconds; then NEXT."""
        start = time.perf_counter()
        await self.send(t="judge", text=words)
        await self._until(lambda m: m["t"] == "state" and "verdict" in m)
        took = time.perf_counter() - start
        await self.send(t="next")
        await self._until(lambda m: m["t"] == "state" and m.get("view") == "ready")
        return took

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.session is not None:
            await self.session.close()


async def open_all(phones: list[SimPhone], spread: float) -> list[float]:
    """Open every phone, their starts spread evenly over SPREAD seconds; each one's ready time."""

    async def one(i: int, phone: SimPhone) -> float:
        await asyncio.sleep(spread * i / max(1, len(phones)))
        return await phone.open()

    return list(await asyncio.gather(*(one(i, p) for i, p in enumerate(phones))))


async def tap_load(phones: list[SimPhone], per_second: float, seconds: float,
                   plays: list[str]) -> list[float]:
    """PER_SECOND submissions each second for SECONDS, from phones in turn; each latency."""
    tasks = []
    count = int(per_second * seconds)
    start = time.perf_counter()
    for i in range(count):
        delay = start + i / per_second - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(phones[i % len(phones)].tap(plays[i % len(plays)])))
    return list(await asyncio.gather(*tasks))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]
