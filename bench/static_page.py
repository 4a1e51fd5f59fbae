"""The bench's baseline: a static page (the phone page's HTML and CSS, without its script) served
by aiohttp in a process of its own on this machine. Prints 'PORT <n>' once it listens."""

from __future__ import annotations

import asyncio
import re
import sys

from aiohttp import web

from adjudicator.phone.page import Page


def static_body() -> bytes:
    html = Page().body.decode()
    return re.sub(r"<script>.*?</script>", "", html, flags=re.S).encode()


async def main() -> None:
    body = static_body()

    async def page(_request):
        return web.Response(body=body, content_type="text/html", charset="utf-8")

    app = web.Application()
    app.add_routes([web.get("/", page)])
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    print(f"PORT {runner.addresses[0][1]}", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
