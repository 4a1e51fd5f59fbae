"""Remake docs/img/: the kiosk's screens from the accepted snapshots, and a slip decoded to a picture.

    python tools/docs_images.py            # every picture
    python tools/docs_images.py slip       # only the slip

The screens are the snapshot SVGs the tests compare against (tests/kiosk/__snapshots__), so a
picture in the docs is exactly what a test holds; the slip is the ESC/POS bytes the encoder sends
to the printer, decoded back (tests/docket/escpos_decode.py) and drawn as paper: bold, double
width and height as the printer would. Uses Playwright with Debian's chromium. Look at every
picture before committing it.
"""

from __future__ import annotations

import html
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SNAPSHOTS = REPO / "tests" / "kiosk" / "__snapshots__" / "test_kiosk_snapshots"
OUT = REPO / "docs" / "img"

# docs/img name: the snapshot it is made from (the station judging with the embedded ENABLE list,
# its real fingerprint; the challenges are examples)
SCREENS = {
    "station-ready.png": "test_ready[80x24].svg",
    "station-entry.png": "test_entry[80x24].svg",
    "station-verdict.png": "test_verdict_acceptable[80x24].svg",
    "station-unacceptable.png": "test_verdict_unacceptable[80x24].svg",
    "station-malformed.png": "test_malformed_long_entry[80x24].svg",
    "station-phone.png": "test_verdict_acceptable[phone].svg",
    "director-door.png": "test_director_door_without_pin[80x24].svg",
    "director-mode.png": "test_director_recent_challenges[120x40].svg",
    "director-refused.png": "test_director_settings_refused[80x24].svg",
    "runner-desk.png": "test_runner_desk_unprinted[120x40].svg",
    "runner-desk-small.png": "test_runner_desk_idle[80x24].svg",
}


def _browser():
    from playwright.sync_api import sync_playwright

    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        sys.exit("docs_images: chromium not found (apt-get install chromium)")
    pw = sync_playwright().start()
    return pw, pw.chromium.launch(executable_path=exe, args=["--no-sandbox"])


def _shoot(browser, page_html: str, out: Path, selector: str) -> None:
    page = browser.new_page(device_scale_factor=1)
    page.set_content(page_html)
    page.locator(selector).first.screenshot(path=str(out))
    page.close()
    print(f"wrote {out.relative_to(REPO)}")


def screens(browser) -> None:
    for name, snap in SCREENS.items():
        svg = (SNAPSHOTS / snap).read_text(encoding="utf-8")
        _shoot(browser, f"<html><body style='margin:0;background:#000'>{svg}</body></html>",
               OUT / name, "svg")


SLIP_LEXICON = "CSW24"


def sample_slip_bytes(columns: int = 42) -> bytes:
    """The bytes of an example challenge's slip, as the encoder sends them to the printer.

    The challenge (event, number, time, words, journal check) is an example; the list is CSW24
    under its real fingerprint, from lexicons/known.toml (issue 21: the picture had made one up).
    """
    from adjudicator.docket.encoder import encode_slip
    from adjudicator.docket.slip import Slip
    from adjudicator.lexicon.known import by_id
    from adjudicator.judging.rules import ChallengeRule, consequence

    known = by_id(SLIP_LEXICON)
    slip = Slip(event="Club Night", station="Table 1 station", number=17,
                time="2026-11-21 14:32:05", words=("QUIXOTIC", "JO"), acceptable=True,
                consequence=consequence(ChallengeRule.WORD5, True, 2),
                lexicon_name=known.id, short_fingerprint=known.fingerprint[:12], table="12",
                round="4", row_hash="a41f09c2")
    return encode_slip(slip, columns)


def slip_html(data: bytes, columns: int = 42) -> str:
    sys.path.insert(0, str(REPO / "tests" / "docket"))
    from escpos_decode import decode

    rows = []
    for line in decode(data, columns).lines:
        align = {"centre": "center"}.get(line.align, line.align)
        # the printer scales each cell: font size gives the width, a vertical scale the height
        text = html.escape(line.text) or "&nbsp;"
        span = (f"<span style='display:inline-block;font-size:{line.width}em;"
                f"transform:scaleY({line.height / line.width});transform-origin:top'>{text}</span>")
        rows.append(f"<div style='text-align:{align};height:{line.height * 1.15}em;"
                    f"{'font-weight:bold;' if line.bold else ''}'>{span}</div>")
    return ("<html><body style='margin:0;padding:24px;background:#d8d4cc'>"
            f"<div id='paper' style='width:{columns}ch;padding:16px 12px;background:#fffdf6;"
            "font:15px/1.15 DejaVu Sans Mono,monospace;color:#111;white-space:pre;"
            "box-shadow:0 2px 6px #0004'>" + "".join(rows) + "</div></body></html>")


def slip(browser) -> None:
    _shoot(browser, slip_html(sample_slip_bytes()), OUT / "slip.png", "#paper")


def main(argv: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    pw, browser = _browser()
    try:
        if not argv or "screens" in argv:
            screens(browser)
        if not argv or "slip" in argv:
            slip(browser)
    finally:
        browser.close()
        pw.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
