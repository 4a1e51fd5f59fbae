"""Remake the README's phone screenshot: python tests/web/phone_screenshot.py docs/phone.png"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from web_helpers import (BROWSER_ARGS, CAPTURE_TERMINAL, PHONE, REPO, ServeProcess,
                         browser_executable, centre, wait_for_text)


def main(out: str) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "event.toml"
        config.write_text('event = "Club Night"\nstation = "Phones"\n'
                          f'journal = "{Path(tmp) / "journal.db"}"\n'
                          "[timers]\nverdict_clear = 300\n")
        env = dict(os.environ, PYTHONPATH=str(REPO))
        server = ServeProcess(config, env)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=browser_executable(),
                                            args=BROWSER_ARGS)
                context = browser.new_context(viewport=PHONE, device_scale_factor=2,
                                              has_touch=True, is_mobile=True)
                context.add_init_script(CAPTURE_TERMINAL)
                page = context.new_page()
                page.goto(server.url)
                page.touchscreen.tap(*centre(wait_for_text(page, "type the words here")))
                page.keyboard.type("quixotic jo")
                wait_for_text(page, "quixotic jo")
                page.touchscreen.tap(*centre(wait_for_text(page, "ADJUDICATE")))
                wait_for_text(page, "the play is ACCEPTABLE")
                page.wait_for_timeout(600)  # the fade-in of the first paint
                page.screenshot(path=out)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(REPO / "docs" / "phone.png"))
