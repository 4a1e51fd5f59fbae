"""Remake the phone page's pictures in docs from the real page at a phone's size (390 x 844 CSS
px, 2x): python tests/web/phone_screenshot.py [docs folder]. docs/phone.png is a verdict;
docs/img/phone-division.png a phone at table 25 of a two-division event, which needs NWL2020.txt
and CSW21.txt in $ADJUDICATOR_TEST_LEXICONS (skipped, saying so, without them)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from web_helpers import BROWSER_ARGS, REPO, ServeProcess, browser_executable

PHONE = {"width": 390, "height": 844}


def serve(config: Path, text: str) -> ServeProcess:
    config.write_text(text)
    return ServeProcess(config, dict(os.environ, PYTHONPATH=str(REPO)))


def sit(page, server, table: str, round_: str = "") -> None:
    page.goto(server.url)
    page.wait_for_selector("body[data-ready='1']")
    page.tap("#table")
    page.keyboard.type(table)
    if round_:
        page.fill("#round", round_)
    page.tap("button[type=submit] >> text=START")
    page.wait_for_selector("body[data-view=ready]")


def verdict(browser, tmp: Path, out: Path) -> None:
    """A verdict at table 12, round 3, with the shipped ENABLE list (its warning shown)."""
    server = serve(tmp / "verdict.toml", 'event = "Club Night"\nstation = "Phones"\n'
                   f'journal = "{tmp / "verdict.db"}"\n'
                   "[timers]\nverdict_clear = 300\nverdict_hold = 0\n")
    try:
        page = phone(browser)
        sit(page, server, "12", "3")
        page.tap("#words")
        page.keyboard.type("quixotic jo")
        page.tap("#adjudicate")
        page.wait_for_selector("body[data-view=verdict] #next")
        page.screenshot(path=str(out))
        page.context.close()
    finally:
        server.stop()


def division(browser, tmp: Path, out: Path) -> None:
    """A phone just seated at table 25: division B's list said before the first challenge."""
    from adjudicator.lexicon.compile import compile_sources

    lists = Path(os.environ.get("ADJUDICATOR_TEST_LEXICONS", "/nonexistent"))
    if not all((lists / f"{name}.txt").exists() for name in ("CSW21", "NWL2020")):
        print(f"{out} not remade: needs CSW21.txt and NWL2020.txt in $ADJUDICATOR_TEST_LEXICONS")
        return
    shelf = tmp / "lists"
    shelf.mkdir()
    for name in ("CSW21", "NWL2020"):
        compile_sources([str(lists / f"{name}.txt")], str(shelf / f"{name}.lex"), name=name)
    server = serve(tmp / "division.toml", f'event = "Club Open 2026"\nstation = "Phones"\n'
                   f'lexicon_dirs = ["{shelf}"]\njournal = "{tmp / "division.db"}"\n'
                   '[[division]]\nname = "A"\nlexicon = "CSW21"\ntables = "1-20"\n'
                   '[[division]]\nname = "B"\nlexicon = "NWL2020"\ntables = "21-40"\n'
                   'challenge_rule = "double"\n')
    try:
        page = phone(browser)
        sit(page, server, "25")
        page.tap("#words")  # the keyboard's place: the box focused, as a player sees it
        page.screenshot(path=str(out))
        page.context.close()
    finally:
        server.stop()


def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True,
                                  is_mobile=True)
    context.set_default_timeout(30_000)
    return context.new_page()


def main(docs: Path) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=browser_executable(), args=BROWSER_ARGS)
        try:
            verdict(browser, Path(tmp), docs / "phone.png")
            division(browser, Path(tmp), docs / "img" / "phone-division.png")
        finally:
            browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs")
