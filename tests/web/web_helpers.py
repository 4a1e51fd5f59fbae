"""Browser test helpers: a real `adjudicator serve` process, and reading what xterm.js shows."""

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

    def kiosk_processes(self) -> list:
        """The live smart-device kiosks this server started (psutil processes)."""
        import psutil

        try:
            children = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []
        alive = []
        for child in children:
            try:
                if "kiosk" in child.cmdline() and child.status() != psutil.STATUS_ZOMBIE:
                    alive.append(child)
            except psutil.NoSuchProcess:
                pass
        return alive

    def wait_for_kiosks(self, count: int, timeout: float = WAIT) -> list:
        """Wait until exactly COUNT kiosk processes are alive; return them."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.kiosk_processes()
            if len(found) == count:
                return found
            time.sleep(0.1)
        raise AssertionError(f"expected {count} kiosk processes, have {self.kiosk_processes()}")

    def stop(self) -> None:
        """SIGTERM (the server ends its kiosks), then SIGKILL the whole group if need be."""
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
        for child in family:  # kiosks run in their own groups: make sure none outlives the test
            try:
                child.kill()
            except psutil.NoSuchProcess:
                pass
        self._reader.join(timeout=5)


# -- reading the terminal --------------------------------------------------------------------
# textual.js draws into a canvas (xterm.js) and keeps its Terminal private. This script, run
# before the page's own, notes the object that owns the Terminal when textual.js assigns its
# fit addon, so the tests can read the very buffer xterm.js paints and the cell geometry.
#
# Playwright's device_scale_factor does not reach ResizeObserver's devicePixelContentBoxSize
# (microsoft/playwright#18591; xtermjs/xterm.js#4728): xterm would size its canvases at 1x and
# draw at 2.625x, so a screenshot shows a magnified corner. Without that property xterm sizes
# its canvases from devicePixelRatio, as it does on a real phone.
CAPTURE_TERMINAL = """
delete ResizeObserverEntry.prototype.devicePixelContentBoxSize;
Object.defineProperty(Object.prototype, 'fitAddon', {
  configurable: true,
  set(value) {
    Object.defineProperty(this, 'fitAddon', {value, writable: true, configurable: true,
                                             enumerable: true});
    window.__textualClient = this;
  },
});
window.__screenLines = () => {
  const t = window.__textualClient && window.__textualClient.terminal;
  if (!t || !t.buffer) return null;
  const b = t.buffer.active, lines = [];
  for (let y = 0; y < t.rows; y++) {
    const line = b.getLine(b.viewportY + y);
    let s = '';
    for (let x = 0; x < t.cols; x++) {
      const cell = line && line.getCell(x);
      const ch = cell ? cell.getChars() : '';
      s += ch ? ch[0] : ' ';   // one character per cell, so an index is a column
    }
    lines.push(s);
  }
  return lines;
};
window.__findText = (text) => {
  const lines = window.__screenLines();
  if (!lines) return null;
  for (let y = 0; y < lines.length; y++) {
    const x = lines[y].indexOf(text);
    if (x >= 0) {
      const t = window.__textualClient.terminal;
      const r = t.element.querySelector('.xterm-screen').getBoundingClientRect();
      const w = r.width / t.cols, h = r.height / t.rows;
      return {x: r.left + x * w, y: r.top + y * h, width: text.length * w, height: h,
              row: y, col: x, cols: t.cols, rows: t.rows};
    }
  }
  return null;
};
"""


def screen_text(page) -> str:
    """Everything the terminal shows now, one line per row."""
    lines = page.evaluate("window.__screenLines && window.__screenLines()")
    return "\n".join(line.rstrip() for line in lines or [])


def wait_for_text(page, text: str, timeout: float = WAIT) -> dict:
    """Wait until TEXT is on screen; its box in CSS pixels (x, y, width, height) and cell."""
    try:
        page.wait_for_function("t => !!(window.__findText && window.__findText(t))", arg=text,
                               timeout=timeout * 1000, polling=100)
    except Exception as e:  # playwright's TimeoutError: say what the screen showed instead
        raise AssertionError(f"{text!r} not on screen within {timeout}s; it shows:\n"
                             f"{screen_text(page)}") from e
    return page.evaluate("t => window.__findText(t)", text)


def inside_viewport(box: dict, viewport: dict) -> bool:
    """The whole box lies inside the viewport (nothing to zoom or scroll to)."""
    return (box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= viewport["width"] + 0.5
            and box["y"] + box["height"] <= viewport["height"] + 0.5)


def centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
