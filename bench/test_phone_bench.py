"""Phone server bench: 300 phones on one `adjudicator serve` process on this machine (issue 15).

Baselines, measured in the same run on the same machine: a static page (the phone page's HTML and
CSS without its script) served by aiohttp in a process of its own (bench/static_page.py), and the
phone server's own figures with one phone and no load. Goals: server memory at most 3 MB per
phone with 300 connected; page ready at most 2x the static page; 300 phones opening within one
second ready at p95 within 2 s; tap-to-verdict p95 at most 100 ms with 300 connected and 30
submitting each second. Reported, never asserted (times are not test results).
Simulated phones are aiohttp client websockets (bench/phone_load.py), in this process; the page
in a real chromium (Playwright, Debian's package) for the page-ready figure.
Run: python -m pytest bench/test_phone_bench.py -s   (ADJUDICATOR_BENCH_PHONES=30 for a quick run)
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import time

import psutil
import pytest
from benchutil import report
from phone_load import SimPhone, open_all, percentile, tap_load

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "web"))
from web_helpers import BROWSER_ARGS, PHONE, REPO, ServeProcess, browser_executable  # noqa: E402

PHONES = int(os.environ.get("ADJUDICATOR_BENCH_PHONES", "300"))
TAPS_PER_SECOND = 30
TAP_SECONDS = 10
READY_ROUNDS = 12
PLAYS = ["qi za", "quixotic jo", "cat dog", "zzz qi", "xu", "retinas", "aeiou", "jo xi ax"]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    import compileall

    compileall.compile_dir(os.path.join(REPO, "adjudicator"), quiet=1)
    folder = tmp_path_factory.mktemp("phone-bench")
    config = folder / "event.toml"
    config.write_text(f'event = "Bench Open"\nstation = "Phones"\n'
                      f'journal = "{folder / "journal.db"}"\n'
                      "[timers]\nverdict_hold = 0\nverdict_clear = 600\nentry_idle = 600\n")
    environ = dict(os.environ, PYTHONPATH=str(REPO))
    environ.pop("ADJUDICATOR_JOURNAL", None)
    return config, environ


@pytest.fixture
def static_server(env):
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "static_page.py")],
                            stdout=subprocess.PIPE, text=True, env=env[1], cwd=REPO)
    try:
        line = proc.stdout.readline()
        yield f"http://127.0.0.1:{int(line.split()[1])}/", proc
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _run(coro):
    return asyncio.run(coro)


def _memory(pid: int) -> tuple[float, float]:
    """(resident, proportional) MB of the process."""
    info = psutil.Process(pid).memory_full_info()
    return info.rss / 2**20, info.pss / 2**20


def test_page_ready_against_a_static_page(env, static_server):
    """URL to ready in chromium at phone size with touch, a fresh device (context) each time:
    the token URL, its redirect, the page, the websocket and the first state frame (the table
    chooser drawn), against the static page's load event; both then wait for a selector (the
    same Playwright round trip); interleaved rounds, medians."""
    executable = browser_executable()
    if executable is None:
        pytest.skip("no chromium executable (Debian's chromium package)")
    from playwright.sync_api import sync_playwright

    static_url, _ = static_server
    server = ServeProcess(env[0], env[1])
    ours, static = [], []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable, args=BROWSER_ARGS)
            for i in range(READY_ROUNDS + 2):
                for url, ready, into in ((server.url, "body[data-ready='1']", ours),
                                         (static_url, "body", static)):
                    context = browser.new_context(viewport=PHONE, has_touch=True,
                                                  is_mobile=True, device_scale_factor=2.625)
                    page = context.new_page()
                    start = time.perf_counter()
                    page.goto(url, wait_until="load")
                    page.wait_for_selector(ready)  # the same last step for both
                    took = time.perf_counter() - start
                    if i >= 2:  # the first rounds warm the browser's and the servers' caches
                        into.append(took)
                    context.close()
            browser.close()
    finally:
        server.stop()
    a, b = statistics.median(ours), statistics.median(static)
    print(f"\npage ready: ours {a * 1000:.0f} ms (min {min(ours) * 1000:.0f}), "
          f"static {b * 1000:.0f} ms (min {min(static) * 1000:.0f}): {a / b:.2f}x")
    report("phone page ready: <= 2x static", f"{a * 1000:.0f} ms median",
           f"{a / b:.2f}x the static page's time ({b * 1000:.0f} ms)")


def test_300_phones_memory_opening_and_tap_to_verdict(env, static_server):
    """PHONES simulated phones open within one second; the server's memory with them all
    connected; then 30 submissions a second for ten seconds, each timed from the frame sent to
    the verdict frame received (recorded in the journal in between)."""
    server = ServeProcess(env[0], env[1], ("--max-phones", str(PHONES + 50),
                                           "--per-address", "0"))
    static_url, _ = static_server
    try:
        async def scenario():
            # Baselines: the static page fetched by PHONES clients spread over one second;
            # one phone alone on the server, opening and tapping.
            static_times = await _static_fetches(static_url, PHONES, spread=1.0)
            alone = SimPhone(server.url, server.base, "alone")
            alone_ready = await alone.open()
            alone_taps = [await alone.tap(PLAYS[i % len(PLAYS)]) for i in range(30)]
            await alone.close()
            await asyncio.sleep(0.5)
            idle = _memory(server.proc.pid)

            phones = [SimPhone(server.url, server.base, str(1 + i // 2)) for i in range(PHONES)]
            start = time.perf_counter()
            ready = await open_all(phones, spread=1.0)
            opened_in = time.perf_counter() - start
            await asyncio.sleep(1.0)
            loaded = _memory(server.proc.pid)
            taps = await tap_load(phones, TAPS_PER_SECOND, TAP_SECONDS, PLAYS)
            after_taps = _memory(server.proc.pid)
            await asyncio.gather(*(p.close() for p in phones))
            return (static_times, alone_ready, alone_taps, idle, ready, opened_in, loaded,
                    taps, after_taps)

        (static_times, alone_ready, alone_taps, idle, ready, opened_in, loaded, taps,
         after_taps) = _run(scenario())
    finally:
        server.stop()
    assert "Traceback" not in server.output

    per_phone_rss = (loaded[0] - idle[0]) / PHONES
    per_phone_pss = (loaded[1] - idle[1]) / PHONES
    total_per_phone = loaded[1] / PHONES
    p95_ready, p95_static = percentile(ready, 95), percentile(static_times, 95)
    p50_tap, p95_tap = statistics.median(taps), percentile(taps, 95)
    print(f"\nmemory: idle rss {idle[0]:.1f} MB pss {idle[1]:.1f} MB; with {PHONES} phones rss "
          f"{loaded[0]:.1f} MB pss {loaded[1]:.1f} MB; after taps rss {after_taps[0]:.1f} MB"
          f"\nper phone: +{per_phone_rss * 1024:.0f} KB rss, +{per_phone_pss * 1024:.0f} KB pss;"
          f" whole process / phones {total_per_phone:.2f} MB"
          f"\nopening {PHONES} within 1 s (all started in {opened_in:.2f} s): ready p50 "
          f"{statistics.median(ready) * 1000:.0f} ms p95 {p95_ready * 1000:.0f} ms max "
          f"{max(ready) * 1000:.0f} ms; alone {alone_ready * 1000:.0f} ms; static page fetched "
          f"the same way p95 {p95_static * 1000:.0f} ms"
          f"\ntap to verdict with {PHONES} connected, {TAPS_PER_SECOND}/s: p50 "
          f"{p50_tap * 1000:.1f} ms p95 {p95_tap * 1000:.1f} ms max {max(taps) * 1000:.1f} ms; "
          f"alone p50 {statistics.median(alone_taps) * 1000:.1f} ms p95 "
          f"{percentile(alone_taps, 95) * 1000:.1f} ms")
    report(f"server memory, {PHONES} phones: <= 3 MB each",
           f"+{per_phone_pss * 1024:.0f} KB pss each", f"idle server {idle[1]:.1f} MB pss; whole "
           f"process {total_per_phone:.2f} MB per phone")
    report(f"{PHONES} opening in 1 s: p95 <= 2 s", f"p95 {p95_ready * 1000:.0f} ms",
           f"static page fetched the same way p95 {p95_static * 1000:.0f} ms")
    report(f"tap to verdict, {PHONES} on, 30/s: p95 <= 100 ms", f"p95 {p95_tap * 1000:.1f} ms",
           f"one phone alone p95 {percentile(alone_taps, 95) * 1000:.1f} ms")


async def _static_fetches(url: str, count: int, spread: float) -> list[float]:
    """COUNT clients, each with its own connection, fetching the static page; starts spread
    evenly over SPREAD seconds; each one's time to the whole page."""
    import aiohttp

    async def one(i: int) -> float:
        await asyncio.sleep(spread * i / count)
        start = time.perf_counter()
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1)) as session:
            async with session.get(url) as response:
                await response.read()
        return time.perf_counter() - start

    return list(await asyncio.gather(*(one(i) for i in range(count))))
