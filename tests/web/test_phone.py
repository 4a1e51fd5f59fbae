"""The real kiosk on a phone in chromium: type, tap ADJUDICATE, read the verdict; all on screen."""

from __future__ import annotations

import signal
import time

import psutil
import pytest
from web_helpers import PHONE, centre, inside_viewport, screen_text, wait_for_text

from adjudicator.journal import Journal

YES = "YES: the play is ACCEPTABLE"
NO = "NO: the play is UNACCEPTABLE"


def open_kiosk(page, server) -> dict:
    """Open the token URL; wait for the locked kiosk's Ready screen; its ADJUDICATE button box."""
    page.goto(server.url)
    return wait_for_text(page, "ADJUDICATE")


def enter(page, words: str, tap: bool = True) -> None:
    """Touch the entry line (a phone brings its keyboard up) and type WORDS."""
    field = wait_for_text(page, "type the words here")
    if tap:
        page.touchscreen.tap(*centre(field))
    else:
        page.mouse.click(*centre(field))
    page.keyboard.type(words)
    wait_for_text(page, words)  # the entry line shows exactly what was typed


def adjudicate(page, tap: bool = True) -> dict:
    """Press the on-screen ADJUDICATE button where it is now; its box at that moment."""
    button = wait_for_text(page, "ADJUDICATE")
    (page.touchscreen.tap if tap else page.mouse.click)(*centre(button))
    return button


def assert_fits(page, viewport: dict) -> None:
    """Nothing to scroll or zoom: the page is exactly the viewport, at scale 1."""
    sizes = page.evaluate("""() => ({
        sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight,
        scale: window.visualViewport.scale, w: window.innerWidth, h: window.innerHeight,
        font: Number(document.getElementById('terminal').dataset.fontSize)})""")
    assert sizes["w"] == viewport["width"], "no viewport meta tag: the page is laid out wider"
    assert sizes["sw"] <= viewport["width"] and sizes["sh"] <= viewport["height"], sizes
    assert sizes["scale"] == 1
    assert sizes["font"] >= 14, sizes  # readable without zooming


def test_phone_types_words_taps_adjudicate_and_sees_the_verdict(server, new_device):
    page = new_device()  # 412x915 CSS px, device pixel ratio 2.625, touch
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    open_kiosk(page, server)
    assert_fits(page, PHONE)
    kiosk = server.wait_for_kiosks(1)[0]
    ready = screen_text(page)

    enter(page, "qi za")
    button = adjudicate(page)
    assert inside_viewport(button, PHONE)
    verdict = wait_for_text(page, YES)  # primary assertion: the verdict as the players see it
    assert inside_viewport(verdict, PHONE)
    words = wait_for_text(page, "Words: QI ZA")
    assert inside_viewport(words, PHONE)
    shown = screen_text(page)
    assert "✔" in shown and "UNACCEPTABLE" not in shown
    assert sum(1 for line in shown.splitlines() if set(line) & set("▀▄▌▐▖▗▘▝▚▞▛▜▙▟█")) >= 3, \
        "the verdict in big block letters"
    assert server.token not in shown

    # Next challenge on the same phone: NEXT (after the hold), then an unacceptable play.
    wait_for_text(page, "NEXT")
    page.touchscreen.tap(*centre(wait_for_text(page, "NEXT")))
    enter(page, "qi zzz")
    adjudicate(page)
    verdict = wait_for_text(page, NO)
    assert inside_viewport(verdict, PHONE)
    assert inside_viewport(wait_for_text(page, "Words: QI ZZZ"), PHONE)
    assert_fits(page, PHONE)

    # Secondary: the journal holds both, as a smart device with this session's label.
    journal = Journal.open(str(server.config.parent / "journal.db"))
    try:
        rows = list(reversed(journal.recent(5)))
    finally:
        journal.close()
    assert [(r.words, r.acceptable) for r in rows] == [(("QI", "ZA"), True),
                                                        (("QI", "ZZZ"), False)]
    assert {r.mode for r in rows} == {"smart device"}
    label = kiosk.cmdline()[kiosk.cmdline().index("--session") + 1]
    assert {r.station for r in rows} == {f"Phones / {label}"}
    assert label in ready  # the session label is on the phone's Ready screen too

    # The token goes nowhere a player or another site could read it.
    assert server.token not in " ".join(kiosk.cmdline())
    assert server.token not in " ".join(kiosk.environ().values())
    assert server.token.encode() not in (server.config.parent / "journal.db").read_bytes()
    assert all(url.startswith(server.base + "/") for url in requests), requests
    assert page.url == server.base + "/"  # the token left the address bar


def test_closing_the_tab_ends_its_kiosk_process(server, new_device):
    page = new_device()
    open_kiosk(page, server)
    (kiosk,) = server.wait_for_kiosks(1)
    pid = kiosk.pid
    page.close()
    server.wait_for_kiosks(0)
    deadline = time.monotonic() + 10
    while psutil.pid_exists(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_two_phones_at_once_stay_independent(server, new_device):
    a, b = new_device(), new_device()
    open_kiosk(a, server)
    open_kiosk(b, server)
    kiosks = server.wait_for_kiosks(2)
    assert len({k.pid for k in kiosks}) == 2
    enter(a, "qi za")
    enter(b, "cat qzx")
    assert "cat" not in screen_text(a) and "qi za" not in screen_text(b)
    adjudicate(a)
    wait_for_text(a, YES)
    wait_for_text(a, "Words: QI ZA")
    assert "the play is" not in screen_text(b)  # B is still at its own entry
    wait_for_text(b, "cat qzx")
    adjudicate(b)
    wait_for_text(b, NO)
    wait_for_text(b, "Words: CAT QZX")
    assert YES in screen_text(a)  # A's verdict untouched by B's challenge
    journal = Journal.open(str(server.config.parent / "journal.db"))
    try:
        rows = journal.recent(5)
    finally:
        journal.close()
    assert len(rows) == 2 and len({r.station for r in rows}) == 2


@pytest.mark.parametrize("name, viewport, dpr, touch", [
    ("small phone", {"width": 360, "height": 740}, 3.0, True),
    ("tablet", {"width": 768, "height": 1024}, 2.0, True),
    ("laptop", {"width": 1366, "height": 768}, 1.0, False),
])
def test_tablet_laptop_and_small_phone_show_the_whole_kiosk(server, new_device, name, viewport,
                                                             dpr, touch):
    page = new_device(viewport=viewport, device_scale_factor=dpr, has_touch=touch,
                      is_mobile=touch)
    open_kiosk(page, server)
    assert_fits(page, viewport)
    enter(page, "jo xu", tap=touch)
    assert inside_viewport(adjudicate(page, tap=touch), viewport)
    assert inside_viewport(wait_for_text(page, YES), viewport)
    assert inside_viewport(wait_for_text(page, "Words: JO XU"), viewport)


def test_stopping_the_server_ends_every_kiosk(server, new_device):
    page = new_device()
    open_kiosk(page, server)
    (kiosk,) = server.wait_for_kiosks(1)
    server.proc.send_signal(signal.SIGTERM)
    assert server.proc.wait(timeout=20) == 0
    deadline = time.monotonic() + 10
    while psutil.pid_exists(kiosk.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not psutil.pid_exists(kiosk.pid)


LAPTOP = {"width": 1366, "height": 768}
CHORDS = ["Escape", "Control+c", "Control+q", "Control+z", "Control+p", "Control+w", "Alt+F4",
          "Alt+Tab", "Control+Shift+p", "F1", "F2", "F5", "F10", "F11", "Tab", "Shift+Tab"]


def assert_still_at_ready(page, server, pid: int) -> None:
    text = screen_text(page)
    assert "ADJUDICATE" in text and "the play is" not in text, text
    assert "DIRECTOR" not in text and "PIN" not in text, text
    assert [k.pid for k in server.wait_for_kiosks(1)] == [pid]


def test_keys_from_a_browser_keyboard_leave_the_locked_kiosk_as_it_is(server, new_device):
    """Adjudication mode only (WESPA 3.11.1(b)): a tablet's keyboard or a laptop's changes nothing."""
    page = new_device(viewport=LAPTOP, device_scale_factor=1, has_touch=False, is_mobile=False)
    open_kiosk(page, server)
    (kiosk,) = server.wait_for_kiosks(1)
    page.mouse.click(*centre(wait_for_text(page, "type the words here")))
    for chord in CHORDS:
        page.keyboard.press(chord)
    page.wait_for_timeout(1000)  # let the kiosk handle every key before looking
    assert_still_at_ready(page, server, kiosk.pid)
    # Still the same working judge: clear whatever a chord may have typed, then judge.
    for _ in range(8):
        page.keyboard.press("Backspace")
    wait_for_text(page, "type the words here")
    enter(page, "qi za", tap=False)
    adjudicate(page, tap=False)
    wait_for_text(page, YES)


def test_f12_in_a_browser_does_not_open_director_mode(server, new_device):
    """Issue 6: a smart device has no way to another mode, director mode included."""
    page = new_device(viewport=LAPTOP, device_scale_factor=1, has_touch=False, is_mobile=False)
    open_kiosk(page, server)
    (kiosk,) = server.wait_for_kiosks(1)
    page.mouse.click(*centre(wait_for_text(page, "type the words here")))
    page.keyboard.press("F12")
    page.wait_for_timeout(1000)
    assert_still_at_ready(page, server, kiosk.pid)


PHONE_WITH_KEYBOARD = {"width": 412, "height": 480}  # the on-screen keyboard takes the rest


def test_adjudicate_stays_on_screen_while_the_phone_keyboard_is_open(server, new_device):
    """The page shrinks above the keyboard (interactive-widget=resizes-content)."""
    page = new_device(viewport=PHONE_WITH_KEYBOARD)
    open_kiosk(page, server)
    assert_fits(page, PHONE_WITH_KEYBOARD)
    enter(page, "qi za")
    page.wait_for_timeout(500)
    button = adjudicate(page)
    assert inside_viewport(button, PHONE_WITH_KEYBOARD)
    assert inside_viewport(wait_for_text(page, YES), PHONE_WITH_KEYBOARD)
