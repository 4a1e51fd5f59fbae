"""Tap to verdict painted on the phone page in chromium, WebKitGTK and Firefox ESR (issue 43),
on a direct link and on one that holds every byte 200 ms each way (bench/slow_link.py, a
proxy in a process of its own).

Timed inside the page, in its own clock (performance.now()), so no driver is in the figure: from
the ADJUDICATE click (a capturing listener on the document, before the page's own) to the first
task after the next frame once the verdict view is set (requestAnimationFrame, then a message to
itself: the frame with the verdict has been painted). Split in two: *answer*, the click to the
verdict view set (the page's frame sent, the link, the server judging and recording, the frame
back, the page's handler), and *paint*, from then to painted. One device per engine and link, at
a table; taps interleaved across the engines; the first tap of each device (its first verdict
drawn) reported apart from the 30 counted. Reported, never asserted. The baseline is the
direct link's median in the same run (the slow link's extra is the 400 ms round trip).
Run: python -m pytest bench/test_phone_paint_bench.py -s   (ADJUDICATOR_BENCH_TAPS=30)
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import pytest
from benchutil import report
from phone_load import percentile
from slow_link import SlowLinkProcess
from test_engine_bench import server, three_engines  # noqa: F401 (the fixture)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "web"))
from web_helpers import browser_executable

TAPS = int(os.environ.get("ADJUDICATOR_BENCH_TAPS", "30"))
DELAY = 0.2  # seconds each way on the slow link
# Installed once per page load: every ADJUDICATE click timed to its verdict painted.
STOPWATCH = r"""
if (!window.__taps) {
  window.__taps = [];
  const current = () => window.__taps[window.__taps.length - 1];
  document.addEventListener('click', (e) => {
    if (e.target.closest && e.target.closest('#adjudicate'))
      window.__taps.push({start: performance.now(), sent: null, arrived: null, shown: null,
                          painted: null});
  }, {capture: true});
  // the judge frame sent, and the verdict's frame arrived (its event's time stamp: before the
  // page's own handler ran)
  const send = WebSocket.prototype.send, watched = new WeakSet();
  WebSocket.prototype.send = function (data) {
    const tap = current();
    if (tap && tap.sent === null && String(data).includes('"judge"')) tap.sent = performance.now();
    if (!watched.has(this)) {
      watched.add(this);
      this.addEventListener('message', (e) => {
        const tap = current();
        if (tap && tap.arrived === null && tap.sent !== null && /"verdict": ?\{/.test(e.data))
          tap.arrived = e.timeStamp;
      });
    }
    return send.call(this, data);
  };
  new MutationObserver(() => {
    const tap = current();
    if (!tap || tap.shown !== null || !document.body.dataset.view.startsWith('verdict')) return;
    tap.shown = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { tap.painted = performance.now(); };
      channel.port2.postMessage(0);
    });
  }).observe(document.body, {attributes: true, attributeFilter: ['data-view']});
}
"""


def sit(page, url: str, table: str) -> None:
    """A fresh device at TABLE through URL, the stopwatch installed."""
    page.clear_cookies()
    page.goto(url)
    page.wait("return document.body.dataset.ready === '1' && "
              "document.body.dataset.view === 'table';", what="the table chooser")
    page.type("#table", table)
    page.click("#table-form button[type=submit]")
    page.wait("return document.body.dataset.view === 'ready';", what="the entry")
    page.js(STOPWATCH)


def tap(page, words: str) -> dict:
    """WORDS typed, ADJUDICATE clicked, the verdict painted, NEXT: the page's times (ms) and
    the driver's (the click sent to its poll seeing the paint)."""
    page.type("#words", words)
    n = page.js("return window.__taps.length;")
    start = time.perf_counter()
    page.click("#adjudicate")
    page.wait("const t = window.__taps[arguments[0]]; return !!t && t.painted !== null;", n,
              what="the verdict painted")
    driver = (time.perf_counter() - start) * 1000
    t = page.js("return window.__taps[arguments[0]];", n)
    page.click("#next")
    page.wait("return document.body.dataset.view === 'ready';", what="the entry again")
    return {"whole": t["painted"] - t["start"], "answer": t["shown"] - t["start"],
            "paint": t["painted"] - t["shown"], "driver": driver,
            "send": t["sent"] - t["start"], "link": t["arrived"] - t["sent"],
            "drawn": t["shown"] - t["arrived"]}


def figures(taps: list[dict], key: str) -> str:
    values = [t[key] for t in taps]
    return (f"median {statistics.median(values):.0f} ms, p95 {percentile(values, 95):.0f} ms, "
            f"max {max(values):.0f} ms")


def test_tap_to_verdict_painted_in_three_engines_direct_and_on_a_slow_link(server):  # noqa: F811
    executable = browser_executable()
    if executable is None:
        pytest.skip("no chromium executable (Debian's chromium package)")
    link = SlowLinkProcess(server.port, DELAY)
    results: dict[tuple[str, str], list[dict]] = {}
    try:
        with three_engines(executable) as (pages, skipped):
            links = (("direct", server.url), ("200 ms each way", link.url(server.url)))
            for link_name, url in links:
                for k, (name, page) in enumerate(pages.items()):
                    sit(page, url, str(k + 1 + (10 if link_name != "direct" else 0)))
                for i in range(TAPS + 1):  # the first: each device's first verdict drawn
                    for name, page in pages.items():
                        results.setdefault((name, link_name), []).append(
                            tap(page, ("qi za", "zzz qi", "cat jo")[i % 3]))
    finally:
        link.stop()
    print()
    for (name, link_name), taps in results.items():
        first, counted = taps[0], taps[1:]
        print(f"{name}, {link_name}: tap to verdict painted {figures(counted, 'whole')}; "
              f"answer {figures(counted, 'answer')}; paint {figures(counted, 'paint')}; "
              f"the driver's view {figures(counted, 'driver')}; first tap {first['whole']:.0f} "
              f"ms (answer {first['answer']:.0f}, paint {first['paint']:.0f})")
        print("   every tap, send+link+drawn+paint (ms):", " ".join(
            f"{t['send']:.0f}+{t['link']:.0f}+{t['drawn']:.0f}+{t['paint']:.0f}" for t in taps))
    for name in pages:
        direct = statistics.median(t["whole"] for t in results[(name, "direct")][1:])
        for link_name in ("direct", "200 ms each way"):
            counted = results[(name, link_name)][1:]
            values = [t["whole"] for t in counted]
            report(f"tap to verdict painted, {name}, {link_name}",
                   f"median {statistics.median(values):.0f} ms, p95 "
                   f"{percentile(values, 95):.0f} ms", f"{statistics.median(values) / direct:.2f}"
                   f"x the direct link's median ({direct:.0f} ms); first tap "
                   f"{results[(name, link_name)][0]['whole']:.0f} ms")
    for line in skipped:
        print("not measured:", line)
