"""Remake the phone screenshot: python tests/web/phone_screenshot.py docs/phone.png"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from web_helpers import BROWSER_ARGS, REPO, ServeProcess, browser_executable

SMALL_PHONE = {"width": 360, "height": 740}


def main(out: str) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "event.toml"
        config.write_text('event = "Club Night"\nstation = "Phones"\n'
                          f'journal = "{Path(tmp) / "journal.db"}"\n'
                          "[timers]\nverdict_clear = 300\nverdict_hold = 0\n")
        env = dict(os.environ, PYTHONPATH=str(REPO))
        server = ServeProcess(config, env)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=browser_executable(),
                                            args=BROWSER_ARGS)
                context = browser.new_context(viewport=SMALL_PHONE, device_scale_factor=2,
                                              has_touch=True, is_mobile=True)
                page = context.new_page()
                page.goto(server.url)
                page.wait_for_selector("body[data-ready='1']")
                page.tap("#table")
                page.keyboard.type("12")
                page.fill("#round", "3")
                page.tap("button[type=submit] >> text=START")
                page.tap("#words")
                page.keyboard.type("quixotic jo")
                page.tap("#adjudicate")
                page.wait_for_selector("#verdict", state="visible")
                page.screenshot(path=out)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(REPO / "docs" / "phone.png"))
