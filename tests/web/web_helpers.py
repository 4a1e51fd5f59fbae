"""Browser test helpers: a real `adjudicator serve` process, and where things are on the page."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]
URL_LINE = re.compile(r"(http://127\.0\.0\.1:(\d+))/\?token=([A-Za-z0-9_\-]+)")
WORDS = ["QI", "ZA", "CAT", "XU", "JO"]  # the tiny lexicon every browser test judges with
PHONE = {"width": 412, "height": 915}  # a common Android phone, held upright
PHONE_DPR = 2.625
WAIT = 20.0  # seconds: the bound of every wait in these tests (a slow shared machine)


def browser_executable() -> str | None:
    """Debian's chromium (what .ci/run installs); never a downloaded browser."""
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


class ServeProcess:
    """`adjudicator serve --port 0` in its own process group; its output collected line by line."""

    def __init__(self, config: Path, env: dict[str, str], extra_args: tuple[str, ...] = ()):
        self.config = config
        self.lines: list[str] = []
        self._lock = threading.Lock()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "adjudicator", "serve", "--port", "0", "--config", str(config),
             *extra_args],
            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        match = self.wait_for_output(URL_LINE)
        self.base, self.port, self.token = match.group(1), int(match.group(2)), match.group(3)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._lock:
                self.lines.append(line)

    @property
    def output(self) -> str:
        with self._lock:
            return "".join(self.lines)

    @property
    def url(self) -> str:
        return f"{self.base}/?token={self.token}"

    def wait_for_output(self, pattern: re.Pattern, start: int = 0, timeout: float = WAIT):
        """The first match of PATTERN in the output after character START, or fail."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = pattern.search(self.output, start)
            if match:
                return match
            if self.proc.poll() is not None:
                time.sleep(0.2)
                match = pattern.search(self.output, start)
                if match:
                    return match
                raise AssertionError(f"serve exited ({self.proc.returncode}):\n{self.output}")
            time.sleep(0.05)
        raise AssertionError(f"no {pattern.pattern!r} within {timeout}s in:\n{self.output}")

    def children(self) -> list:
        """Processes the server started (none: one process serves every phone)."""
        import psutil

        try:
            return psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def stop(self) -> None:
        """SIGTERM, then SIGKILL the whole group if need be."""
        import psutil

        try:
            family = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            family = []
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)
        for child in family:  # make sure nothing outlives the test
            try:
                child.kill()
            except psutil.NoSuchProcess:
                pass
        self._reader.join(timeout=5)


def box(page, selector: str) -> dict:
    """The element's box in CSS pixels (x, y, width, height)."""
    return page.eval_on_selector(
        selector, "e => { const r = e.getBoundingClientRect(); "
        "return {x: r.left, y: r.top, width: r.width, height: r.height}; }")


def resize(page, viewport: dict) -> None:
    """Give PAGE the size VIEWPORT, then wait until the page has measured it: the phone page sizes
    its verdict from --vw and --vh, set by its resize handler, which a browser runs before it next
    paints but after set_viewport_size returns (a box read at once was laid out for the old size)."""
    page.set_viewport_size(viewport)
    page.wait_for_function(
        "([w, h]) => innerWidth === w && innerHeight === h && new Promise(done =>"
        " requestAnimationFrame(() => done(getComputedStyle(document.documentElement)"
        ".getPropertyValue('--vw').trim() === w / 100 + 'px')))",
        arg=[viewport["width"], viewport["height"]], timeout=WAIT * 1000)


def inside_viewport(box: dict, viewport: dict) -> bool:
    """The whole box lies inside the viewport (nothing to zoom or scroll to)."""
    return (box["width"] > 0 and box["height"] > 0 and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= viewport["width"] + 0.5
            and box["y"] + box["height"] <= viewport["height"] + 0.5)


def axe_violations(page) -> list[str]:
    """axe-core's violations on PAGE as it shows now, one line each naming the rule, its impact
    and where. The script (from axe-playwright-python) is evaluated by Playwright, so the page's
    Content-Security-Policy, which lets no other script run, does not stop it."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + "; ".join(" ".join(node["target"]) for node in v["nodes"]) for v in found]


def centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium driven by Playwright; skipped only when no browser is installed.

    Module scope: Playwright's sync API runs an event loop in the main thread while it is open,
    which would break asyncio.run() in any test collected after these."""
    executable = browser_executable()
    if executable is None:
        pytest.skip("no chromium executable (.ci/run installs Debian's chromium with apt-get)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=BROWSER_ARGS, timeout=30_000)
        try:
            yield browser
        finally:
            browser.close()
