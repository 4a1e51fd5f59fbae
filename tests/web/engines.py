"""The engines phones run besides chromium: WebKitGTK (Safari's engine) under Xvfb through
selenium, and Firefox ESR headless through its Marionette port; one small page interface."""

from __future__ import annotations

import glob
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
import warnings
from pathlib import Path

import pytest

WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"  # Debian's webkit2gtk-driver: never a download
FIREFOX = "/usr/bin/firefox-esr"
ENTER = "\ue007"  # WebDriver's key codes (the same in selenium and Marionette)
CONTROL = "\ue009"
WAIT = 20.0  # seconds: the bound of every wait (a slow shared machine)
ENGINES = ("webkitgtk", "firefox")
# Firefox starts clean and quiet: no first-run pages, no update or report traffic.
FIREFOX_PREFS = {
    "marionette.port": 0,  # any free port; Firefox writes it to MarionetteActivePort
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "app.update.disabledForTesting": True,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "browser.aboutwelcome.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
}


class Page:
    """What a test does to a page, the same in every engine: run script, click, type, wait."""

    name = ""

    def goto(self, url: str) -> None:
        raise NotImplementedError

    def reload(self) -> None:
        raise NotImplementedError

    def js(self, script: str, *args):
        raise NotImplementedError

    def _element(self, css: str):
        raise NotImplementedError

    def screenshot(self, path: Path) -> None:
        raise NotImplementedError

    def set_size(self, width: int, height: int) -> None:
        raise NotImplementedError

    def clear_cookies(self) -> None:
        raise NotImplementedError

    def click(self, css: str) -> None:
        self._element(css).click()

    def type(self, css: str, *keys: str) -> None:
        """KEYS typed into the element as a person would (a modifier holds to the end)."""
        self._element(css).send_keys(*keys)

    def wait(self, script: str, *args, timeout: float = WAIT, what: str = ""):
        """Poll SCRIPT (a function body that returns) until it returns something truthy."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(script, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: waited {timeout}s for {what or script}; "
                                     f"the page says: {self.text('body')[:600]!r}")
            time.sleep(0.05)

    def text(self, css: str) -> str:
        return self.js("const e = document.querySelector(arguments[0]);"
                       "return e ? e.innerText : '';", css)

    def value(self, css: str) -> str:
        return self.js("return document.querySelector(arguments[0]).value;", css)

    def wait_text(self, css: str, needle: str, timeout: float = WAIT) -> str:
        self.wait("const e = document.querySelector(arguments[0]);"
                  "return !!e && e.innerText.includes(arguments[1]);", css, needle,
                  timeout=timeout, what=f"{needle!r} in {css}")
        return self.text(css)

    def paste(self, css: str, text: str) -> None:
        """TEXT pasted into CSS as a person would: put on the clipboard by a real copy (a
        textarea the test adds, selected, Ctrl+C), then Ctrl+V in the element."""
        self.js("const t = document.createElement('textarea'); t.id = 'test-clipboard';"
                "t.value = arguments[0]; document.body.appendChild(t); t.select();", text)
        self.type("#test-clipboard", CONTROL, "c")
        self.js("document.getElementById('test-clipboard').remove();")
        self.type(css, CONTROL, "v")


class WebKitPage(Page):
    name = "WebKitGTK"

    def __init__(self, driver):
        self.d = driver

    def goto(self, url):
        self.d.get(url)

    def reload(self):
        self.d.refresh()

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def _element(self, css):
        from selenium.webdriver.common.by import By

        return self.d.find_element(By.CSS_SELECTOR, css)

    def screenshot(self, path):
        self.d.save_screenshot(str(path))

    def set_size(self, width, height):
        self.d.set_window_size(width, height)

    def clear_cookies(self):
        self.d.delete_all_cookies()


class FirefoxPage(Page):
    name = "Firefox"

    def __init__(self, marionette):
        self.m = marionette

    def goto(self, url):
        self.m.navigate(url)

    def reload(self):
        self.m.refresh()

    def js(self, script, *args):
        # the page's own scope (no sandbox), as selenium's script runs
        return self.m.execute_script(script, script_args=list(args), sandbox=None)

    def _element(self, css):
        return self.m.find_element("css selector", css)

    def screenshot(self, path):
        Path(path).write_bytes(self.m.screenshot(format="binary"))

    def set_size(self, width, height):
        self.m.set_window_rect(width=width, height=height)

    def clear_cookies(self):
        self.m.delete_all_cookies()


def minibrowser() -> str | None:
    found = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))
    return found[-1] if found else None


class Xvfb:
    """An X server of our own on a display it chooses itself (-displayfd): no clash with
    another test's."""

    def __init__(self):
        read, write = os.pipe()
        self.log = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(
                ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24",
                 "-nolisten", "tcp"], pass_fds=(write,), stdout=subprocess.DEVNULL,
                stderr=self.log, start_new_session=True)
        finally:
            os.close(write)
        said = b""
        try:  # the number, then a newline, maybe in two writes: close only after both (a
            # closed pipe kills Xvfb: "Cannot write display number")
            deadline = time.monotonic() + WAIT
            while not said.endswith(b"\n") and time.monotonic() < deadline:
                ready, _, _ = select.select([read], [], [], max(0.0, deadline - time.monotonic()))
                chunk = os.read(read, 64) if ready else b""
                if not chunk:
                    break
                said += chunk
        finally:
            os.close(read)
        number = said.decode(errors="replace").strip()
        if not number.isdigit():
            self.stop()
            raise RuntimeError(f"Xvfb gave no display number: {self.said()}")
        self.display = f":{number}"

    def said(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-2000:]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)


def start_webkit():
    """(page, stop) for WebKitGTK's MiniBrowser under a fresh Xvfb, or raise why not."""
    if not os.path.exists(WEBKIT_DRIVER):
        raise RuntimeError(f"no {WEBKIT_DRIVER} (apt-get install webkit2gtk-driver)")
    if not shutil.which("Xvfb"):
        raise RuntimeError("no Xvfb (apt-get install xvfb)")
    browser = minibrowser()
    if browser is None:
        raise RuntimeError("no MiniBrowser (apt-get install webkit2gtk-driver)")
    os.environ.setdefault("SE_OFFLINE", "true")  # selenium-manager never downloads
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    xvfb = Xvfb()
    try:
        options = Options()
        options.binary_location = browser
        options.add_argument("--automation")
        service = Service(executable_path=WEBKIT_DRIVER, env=dict(os.environ,
                                                                  DISPLAY=xvfb.display))
        driver = webdriver.WebKitGTK(options=options, service=service)
    except Exception:
        xvfb.stop()
        raise
    driver.set_page_load_timeout(WAIT)

    def stop():
        try:
            driver.quit()
        finally:
            xvfb.stop()
    page = WebKitPage(driver)
    page.display = xvfb.display  # the X display its window is on (for xdotool: its zoom keys)
    return page, stop


def start_firefox(prefs: dict | None = None, system_access: bool = False):
    """(page, stop) for Firefox ESR headless, driven through Marionette (no geckodriver); PREFS
    set besides ours (a user's settings: the text size); SYSTEM_ACCESS lets a test use the
    browser's own controls (its zoom) through Marionette's chrome context."""
    if not os.path.exists(FIREFOX):
        raise RuntimeError(f"no {FIREFOX} (apt-get install firefox-esr)")
    from marionette_driver.marionette import Marionette

    profile = tempfile.mkdtemp(prefix="adjudicator-firefox-")
    Path(profile, "user.js").write_text("".join(
        f"user_pref({json.dumps(name)}, {json.dumps(value)});\n"
        for name, value in {**FIREFOX_PREFS, **(prefs or {})}.items()))
    proc = subprocess.Popen([FIREFOX, "--marionette", "--headless", "--no-remote", "--profile",
                             profile, *(["-remote-allow-system-access"] if system_access else [])],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=dict(os.environ, MOZ_HEADLESS="1"), start_new_session=True)

    def stop_process():
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        shutil.rmtree(profile, ignore_errors=True)

    try:
        port_file = Path(profile, "MarionetteActivePort")
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip().isdigit()):
            if proc.poll() is not None:
                raise RuntimeError(f"firefox-esr exited ({proc.returncode}) while starting")
            if time.monotonic() > deadline:
                raise RuntimeError("firefox-esr opened no Marionette port within 60 s")
            time.sleep(0.1)
        marionette = Marionette(host="127.0.0.1", port=int(port_file.read_text()))
        marionette.start_session()
        marionette.timeout.page_load = WAIT
    except Exception:
        stop_process()
        raise

    def stop():
        try:
            marionette.delete_session()
        except Exception:  # noqa: BLE001 - the browser may be gone already
            pass
        stop_process()
    return FirefoxPage(marionette), stop


def _quietly(start):
    """START() without the drivers' own deprecation warnings (selenium's, mozinfo's,
    mozrunner's: not ours to act on)."""
    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return start()
    return run


STARTERS = {"webkitgtk": _quietly(start_webkit), "firefox": _quietly(start_firefox)}


@pytest.fixture(scope="module", params=ENGINES)
def engine(request):
    """A page in each engine in turn, started once per module; skipped with the reason when
    the engine cannot start here."""
    try:
        page, stop = STARTERS[request.param]()
    except Exception as error:  # noqa: BLE001 - any failure to start is a reason to skip
        pytest.skip(f"{request.param} could not start: {type(error).__name__}: {error}")
    try:
        yield page
    finally:
        stop()
