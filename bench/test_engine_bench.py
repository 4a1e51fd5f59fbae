"""The phone flow in the engines phones run (issue 28): WebKitGTK (Safari's engine) and Firefox
ESR against Debian's chromium, the baseline, measured in the same run on the same server.

One round, a fresh device each time: the token URL opened, the table chooser drawn, table typed,
START, the words typed, ADJUDICATE clicked, the verdict shown. Two figures per round: the whole
flow as the driver sees it (each engine's own driver adds its round trips: Playwright for
chromium, selenium for WebKitGTK, Marionette for Firefox), and tap to verdict measured inside the
page (the form's submit event to the verdict view, performance.now(): no driver in it). Rounds are
interleaved across the engines so all three share the machine's moments; medians. Reported as
ratios to chromium (above 1: slower than chromium), never asserted.
Run: python -m pytest bench/test_engine_bench.py -s   (ADJUDICATOR_BENCH_ENGINE_ROUNDS=10)
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import sys
import time

import pytest
from benchutil import report

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "web"))
from engines import STARTERS, Page  # noqa: E402
from web_helpers import BROWSER_ARGS, REPO, ServeProcess, browser_executable  # noqa: E402

ROUNDS = int(os.environ.get("ADJUDICATOR_BENCH_ENGINE_ROUNDS", "10"))
WARM = 2  # rounds not counted: caches warm
SIZE = (500, 900)  # every engine's window: Firefox's smallest is 500 wide, WebKitGTK's 447
# Installed in the page before ADJUDICATE: the submit event (captured on the document, before
# the page's own handler) to the verdict view, in the page's own clock.
STOPWATCH = """
window.__benchStart = null; window.__benchTook = null;
document.addEventListener('submit', () => { window.__benchStart = performance.now(); },
                          {capture: true, once: true});
new MutationObserver((m, o) => {
  if (document.body.dataset.view === 'verdict' && window.__benchStart !== null) {
    window.__benchTook = performance.now() - window.__benchStart; o.disconnect();
  }
}).observe(document.body, {attributes: true, attributeFilter: ['data-view']});
"""


class ChromiumPage(Page):
    """The same interface over Playwright; one page kept, its cookies cleared for a fresh
    device each round (as the other engines' are: caches kept alike)."""

    name = "chromium"

    def __init__(self, browser):
        self.context = browser.new_context(viewport={"width": SIZE[0], "height": SIZE[1]})
        self.page = self.context.new_page()

    def clear_cookies(self):
        self.context.clear_cookies()

    def goto(self, url):
        self.page.goto(url)

    def js(self, script, *args):
        return self.page.evaluate(f"(function () {{ {script} }}).apply(null, {json.dumps(args)})")

    def click(self, css):
        self.page.click(css)

    def type(self, css, *keys):
        self.page.type(css, "".join(keys))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("engine-bench")
    config = folder / "event.toml"
    config.write_text(f'event = "Bench Open"\nstation = "Phones"\n'
                      f'journal = "{folder / "journal.db"}"\n'
                      "[timers]\nverdict_hold = 0\nverdict_clear = 600\nentry_idle = 600\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("ADJUDICATOR_JOURNAL", None)
    proc = ServeProcess(config, env, ("--per-address", "0"))
    yield proc
    proc.stop()


def one_round(page, server, table: str) -> tuple[float, float]:
    """(whole flow s, in-page tap to verdict s) for one fresh device at TABLE."""
    page.clear_cookies()
    start = time.perf_counter()
    page.goto(server.url)
    page.wait("return document.body.dataset.ready === '1' && "
              "document.body.dataset.view === 'table';", what="the table chooser")
    page.type("#table", table)
    page.click("#table-form button[type=submit]")
    page.wait("return document.body.dataset.view === 'ready';", what="the entry")
    page.type("#words", "qi za")
    page.js(STOPWATCH)
    page.click("#adjudicate")
    page.wait("return window.__benchTook !== null;", what="the verdict")
    whole = time.perf_counter() - start
    assert "Words: QI ZA" in page.text("#verdict")
    return whole, page.js("return window.__benchTook;") / 1000


@contextlib.contextmanager
def three_engines(executable: str):
    """Chromium (the baseline) and whichever of WebKitGTK and Firefox start, each at SIZE:
    yields ({name: page}, [why an engine did not start]); every engine stopped after."""
    from playwright.sync_api import sync_playwright

    pages, stops, skipped = {}, [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=BROWSER_ARGS)
        pages["chromium"] = ChromiumPage(browser)
        try:
            for name, start in STARTERS.items():
                try:
                    page, stop = start()
                except Exception as error:  # noqa: BLE001 - reported, the others still run
                    skipped.append(f"{name}: {type(error).__name__}: {error}")
                    continue
                stops.append(stop)
                pages[name] = page
                page.set_size(*SIZE)  # chromium's context has the size already
            yield pages, skipped
        finally:
            for stop in stops:
                stop()
            pages["chromium"].context.close()
            browser.close()


def test_phone_flow_in_webkitgtk_and_firefox_against_chromium(server):
    executable = browser_executable()
    if executable is None:
        pytest.skip("no chromium executable (the baseline): Debian's chromium package")
    with three_engines(executable) as (pages, skipped):
        whole = {name: [] for name in pages}
        tap = {name: [] for name in pages}
        for i in range(ROUNDS + WARM):
            for name, page in pages.items():
                took, tapped = one_round(page, server, str(i + 1))
                if i >= WARM:
                    whole[name].append(took)
                    tap[name].append(tapped)
    if len(pages) == 1:
        pytest.skip("neither WebKitGTK nor Firefox could start: " + "; ".join(skipped))
    base_whole = statistics.median(whole["chromium"])
    base_tap = statistics.median(tap["chromium"])
    print(f"\nchromium: flow {base_whole * 1000:.0f} ms, tap to verdict {base_tap * 1000:.1f} ms "
          f"(medians of {ROUNDS})")
    for name in pages:
        if name == "chromium":
            continue
        a, b = statistics.median(whole[name]), statistics.median(tap[name])
        print(f"{name}: flow {a * 1000:.0f} ms ({a / base_whole:.2f}x chromium's), tap to "
              f"verdict {b * 1000:.1f} ms ({b / base_tap:.2f}x chromium's)")
        report(f"phone flow in {name}", f"{a * 1000:.0f} ms, {a / base_whole:.2f}x chromium",
               f"tap to verdict in the page {b * 1000:.1f} ms, {b / base_tap:.2f}x chromium's "
               f"{base_tap * 1000:.1f} ms (above 1: slower)")
    for line in skipped:
        print("not measured:", line)
