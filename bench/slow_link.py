"""A slow link for the bench: a TCP proxy on loopback that holds every byte DELAY seconds each
way (order kept, bandwidth not limited), as a phone far from the hall's router would meet the
server. `python bench/slow_link.py TARGET_PORT DELAY` runs one in a process of its own (away from
the bench's drivers and their interpreter lock) and prints 'PORT <n>' once it listens."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading


class SlowLink:
    """Listens on 127.0.0.1:port and forwards to 127.0.0.1:TARGET, each chunk sent DELAY
    seconds after it arrived, in both directions."""

    def __init__(self, target: int, delay: float):
        self.target, self.delay = target, delay
        self.loop = asyncio.new_event_loop()
        self.port = 0
        self._server = None
        started = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(started,), daemon=True)
        self._thread.start()
        if not started.wait(10) or not self.port:
            raise RuntimeError("the slow link did not start")

    def url(self, url: str) -> str:
        """URL (the server's, direct) through this link."""
        return url.replace(f":{self.target}/", f":{self.port}/", 1)

    def _run(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)

        async def listen():
            self._server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
            self.port = self._server.sockets[0].getsockname()[1]
            started.set()
        self.loop.run_until_complete(listen())
        self.loop.run_forever()
        pending = asyncio.all_tasks(self.loop)  # every connection's pumps, ended before the loop
        for task in pending:
            task.cancel()
        self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self.loop.close()

    async def _connection(self, reader, writer) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer),
                             return_exceptions=True)

    async def _pump(self, reader, writer) -> None:
        """Bytes from READER to WRITER, each chunk DELAY after it came; EOF passed on too."""
        queue: asyncio.Queue = asyncio.Queue()

        async def send():
            while True:
                due, data = await queue.get()
                await asyncio.sleep(max(0.0, due - self.loop.time()))
                if data is None:
                    break
                writer.write(data)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(send())
        try:
            while data := await reader.read(65536):
                queue.put_nowait((self.loop.time() + self.delay, data))
        except OSError:
            pass
        queue.put_nowait((self.loop.time() + self.delay, None))
        await sender

    def stop(self) -> None:
        def close():
            if self._server is not None:
                self._server.close()
            self.loop.stop()
        self.loop.call_soon_threadsafe(close)
        self._thread.join(timeout=10)


class SlowLinkProcess:
    """A SlowLink in a process of its own: .port, .url(url), .stop()."""

    def __init__(self, target: int, delay: float):
        self.target = target
        self.proc = subprocess.Popen([sys.executable, __file__, str(target), str(delay)],
                                     stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            self.stop()
            raise RuntimeError(f"the slow link did not start: {line!r}")
        self.port = int(line.split()[1])

    def url(self, url: str) -> str:
        return url.replace(f":{self.target}/", f":{self.port}/", 1)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


if __name__ == "__main__":
    link = SlowLink(int(sys.argv[1]), float(sys.argv[2]))
    print(f"PORT {link.port}", flush=True)
    try:
        link._thread.join()
    except KeyboardInterrupt:
        pass
