"""The native phone page in Debian's chromium at phone sizes with touch (WESPA 3.11.1(b)): the
table is chosen, the challenger types, the opponent taps ADJUDICATE (or presses Enter), and the
verdict fills the screen, recorded first with the table and the device."""

from __future__ import annotations

import re

import pytest
from web_helpers import PHONE, box, centre, inside_viewport, resize

from adjudicator.journal import Journal
from adjudicator.journal.flags import SPLIT_LOOKUP

SMALL = {"width": 320, "height": 568}


def journal_rows(server) -> list:
    journal = Journal.open(str(server.config.parent / "journal.db"))
    try:
        return list(reversed(journal.recent(20)))
    finally:
        journal.close()


def open_page(page, server) -> None:
    page.goto(server.url)
    page.wait_for_selector("body[data-ready='1']")


def sit_at(page, table: str, round_: str = "") -> None:
    page.tap("#table")
    page.keyboard.type(table)
    if round_:
        page.fill("#round", round_)
    page.tap("button[type=submit] >> text=START")
    page.wait_for_selector("#words", state="visible")


def enter(page, words: str) -> None:
    page.tap("#words")
    page.keyboard.type(words)


def verdict_text(page) -> str:
    page.wait_for_selector("#verdict", state="visible")
    return page.inner_text("#verdict")


def test_a_phone_chooses_its_table_types_taps_adjudicate_and_sees_the_verdict(server,
                                                                           new_device):
    page = new_device()  # 412x915 CSS px, device pixel ratio 2.625, touch
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    open_page(page, server)
    assert page.evaluate("document.body.dataset.view") == "table"
    sit_at(page, "12", "3")
    for attribute, value in (("autocapitalize", "off"), ("autocorrect", "off"),
                             ("spellcheck", "false"), ("autocomplete", "off")):
        assert page.get_attribute("#words", attribute) == value
    steps = page.inner_text("#steps")
    assert "tap ADJUDICATE" in steps and "TAB" not in page.inner_text("body")
    enter(page, "qi za")
    button = box(page, "#adjudicate")
    assert inside_viewport(button, PHONE)
    page.touchscreen.tap(*centre(button))
    shown = verdict_text(page)
    assert "✔" in shown and "ACCEPTABLE" in shown and "UNACCEPTABLE" not in shown
    assert not re.search(r"\bTAB\b|\bR:", shown)  # phone words: tap RECHECK or NEXT
    assert "Words: QI ZA" in shown
    assert "Its player scores 10 extra points" in shown  # the consequence under the event's rule (5-per-word)
    assert "UNRECOGNISED LIST" in shown  # the lexicon's warning, on the verdict itself
    assert inside_viewport(box(page, "#word"), PHONE)
    verdict_box = box(page, "#verdict")
    assert verdict_box["width"] >= PHONE["width"] - 1
    assert verdict_box["height"] >= PHONE["height"] - 1
    colour = page.eval_on_selector("#verdict", "e => getComputedStyle(e).backgroundColor")
    assert colour == "rgb(0, 90, 156)"  # blue for ACCEPTABLE (orange for UNACCEPTABLE)

    page.wait_for_selector("body[data-view=verdict] #next")  # after the hold (verdict_hold)
    page.tap("#next")
    enter(page, "qi zzz")
    page.tap("#adjudicate")
    shown = verdict_text(page)
    assert "✘" in shown and "UNACCEPTABLE" in shown and "comes off the board" in shown
    colour = page.eval_on_selector("#verdict", "e => getComputedStyle(e).backgroundColor")
    assert colour == "rgb(230, 159, 0)"

    rows = journal_rows(server)
    assert [(r.words, r.acceptable, r.table, r.round) for r in rows] == [
        (("QI", "ZA"), True, "12", "3"), (("QI", "ZZZ"), False, "12", "3")]
    device = page.inner_text("#device").strip("· ")
    assert device.startswith("phone-")
    assert {r.station for r in rows} == {f"Phones / {device}"} and {r.mode for r in rows} == {
        "smart device"}
    assert server.token.encode() not in (server.config.parent / "journal.db").read_bytes()
    import psutil

    process = psutil.Process(server.proc.pid)  # never in ps: read from the token file
    assert not any(server.token in arg for arg in process.cmdline())
    assert not any(server.token in value for value in process.environ().values())
    assert server.output.count(server.token) == 1  # only the announced URL
    assert all(url.startswith(server.base + "/") for url in requests), requests
    assert page.url == server.base + "/"  # the token left the address bar


def test_enter_judges_like_the_adjudicate_button(server, new_device):
    page = new_device()
    open_page(page, server)
    sit_at(page, "7")
    enter(page, "cat")
    page.keyboard.press("Enter")
    assert "ACCEPTABLE" in verdict_text(page)
    assert [r.words for r in journal_rows(server)] == [("CAT",)]


def test_a_malformed_entry_is_named_and_never_judged(server, new_device):
    page = new_device()
    open_page(page, server)
    sit_at(page, "7")
    enter(page, "cat5")
    page.keyboard.press("Enter")
    page.wait_for_selector("#error:not(:empty)")
    assert "5" in page.inner_text("#error")
    assert page.input_value("#words") == "cat5"  # nothing dropped
    assert journal_rows(server) == []


def test_a_table_that_is_not_one_is_said_on_the_table_chooser(server, new_device):
    """"²" (a French keyboard's key) is not a table (adjudicator/event/tables.py): the phone stays on
    its table chooser saying what a table is; nothing is judged."""
    page = new_device()
    open_page(page, server)
    page.tap("#table")
    page.keyboard.type("²")
    page.tap("button[type=submit] >> text=START")
    page.wait_for_selector("#table-error:not(:empty)")
    assert "'²' is not a table: type a number from 1 to 9999" in page.inner_text("#table-error")
    assert page.evaluate("document.body.dataset.view") == "table"
    page.fill("#table", "7")
    page.tap("button[type=submit] >> text=START")
    page.wait_for_selector("#words", state="visible")
    assert page.inner_text("#table-error") == ""
    assert journal_rows(server) == []


@pytest.mark.parametrize("name, viewport", [
    ("phone landscape, keyboard open", {"width": 740, "height": 170}),
    ("small phone landscape, keyboard open", {"width": 568, "height": 150}),
    ("small phone upright, keyboard open", {"width": 320, "height": 290}),
    ("small phone", SMALL),
])
def test_adjudicate_stays_on_screen_with_the_keyboard_open(server, new_device, name, viewport):
    page = new_device(viewport=viewport)
    open_page(page, server)
    sit_at(page, "4")
    enter(page, "jo")
    for selector in ("#words", "#adjudicate"):
        assert inside_viewport(box(page, selector), viewport), (name, selector)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.touchscreen.tap(*centre(box(page, "#adjudicate")))
    verdict_text(page)
    page.wait_for_selector("body[data-view=verdict] #next")
    for selector in ("#word", "#played", "#next"):
        assert inside_viewport(box(page, selector), viewport), (name, selector)


@pytest.mark.parametrize("viewport", [{"width": 915, "height": 412},
                                      {"width": 1024, "height": 1366}])
def test_landscape_phone_and_tablet_show_the_whole_verdict(server, new_device, viewport):
    page = new_device(viewport=viewport)
    open_page(page, server)
    sit_at(page, "4")
    enter(page, "qi")
    page.tap("#adjudicate")
    verdict_text(page)
    page.wait_for_selector("body[data-view=verdict] #next")
    for selector in ("#mark", "#word", "#played", "#consequence", "#recheck-button", "#next"):
        assert inside_viewport(box(page, selector), viewport), selector


def test_every_line_of_the_verdict_fits_at_every_phone_and_tablet_size(enable_config,
                                                                        start_server, new_device):
    """Issue 21 (12): at 320 x 568 with ENABLE the RECHECK/NEXT hint line was cut off the bottom.
    Every line of the verdict, a recheck's too, is on screen with nothing to scroll, upright on
    phones from 320 x 568 to tablets (the smallest also with a browser's bars: 320 x 460)."""
    server = start_server()
    lines = ["#recheck", "#mark", "#word", "#played", "#consequence", "#record", "#v-lexicon",
             "#v-warning", "#recheck-button", "#next", "#next-hint"]
    page = new_device(viewport=SMALL)
    open_page(page, server)
    sit_at(page, "1")
    for words in ("quixotic jo", "qi zzz"):
        enter(page, words)
        page.tap("#adjudicate")
        page.wait_for_selector("body[data-view=verdict] #next")
        page.tap("#recheck-button")  # one more line: RECHECK OF #n
        page.wait_for_selector("body[data-view=verdict] #recheck:not(:empty)")
        assert "ENABLE is not a tournament word list" in page.inner_text("#v-warning")
        for viewport in (SMALL, {"width": 360, "height": 640}, {"width": 390, "height": 844},
                         {"width": 412, "height": 915}, {"width": 768, "height": 1024},
                         {"width": 1024, "height": 1366}, {"width": 320, "height": 460}):
            resize(page, viewport)  # the same verdict, laid out again at this size
            shown = lines + (["#plain"] if viewport["height"] > 540 else [])
            for selector in shown:
                assert inside_viewport(box(page, selector), viewport), (viewport, words, selector)
            assert page.evaluate("document.getElementById('verdict').scrollHeight") \
                <= viewport["height"], (viewport, words)
        resize(page, SMALL)
        page.tap("#next")


def test_a_reload_keeps_the_table_the_verdict_and_the_split_look_up_flag(server, new_device):
    page = new_device()
    open_page(page, server)
    sit_at(page, "9")
    enter(page, "qi")
    page.tap("#adjudicate")
    verdict_text(page)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert "Words: QI" in verdict_text(page)  # a reload cannot hide a verdict
    assert "Table 9" in page.inner_text("#where")
    page.wait_for_selector("body[data-view=verdict] #next")  # after the hold (verdict_hold)
    page.tap("#next")
    page.reload()  # NASPA IV.J.2: the rest of the play, looked up after a reload
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("document.body.dataset.view") == "ready"
    enter(page, "za")
    page.tap("#adjudicate")
    verdict_text(page)
    first, second = journal_rows(server)
    assert first.station == second.station  # the same device, after the reload
    assert SPLIT_LOOKUP in second.flags


def test_each_table_sees_its_own_challenge_count(server, new_device):
    phones = [new_device(), new_device(), new_device()]
    for page, table in zip(phones, ("1", "1", "2")):
        open_page(page, server)
        sit_at(page, table)
        enter(page, "qi")
        page.tap("#adjudicate")
        verdict_text(page)
    phones[0].reload()
    phones[0].wait_for_selector("body[data-ready='1']")
    assert "challenges here: 2" in phones[0].inner_text("#where")
    assert "challenges here: 1" in phones[2].inner_text("#where")
    stations = {r.station for r in journal_rows(server)}
    assert len(stations) == 3  # every phone is its own device in the journal


def test_a_page_left_open_over_a_token_rotation_says_it_needs_the_new_link(start_server,
                                                                            new_device):
    from adjudicator.net.token import TokenStore, token_path

    server = start_server()
    page = new_device()
    open_page(page, server)
    sit_at(page, "3")
    server.stop()  # the laptop restarts between rounds, with a new token
    page.wait_for_selector("body[data-view=connecting]")
    TokenStore(token_path(str(server.config))).rotate()
    start_server("--port", str(server.port))
    page.wait_for_selector("text=needs the current link", timeout=30_000)
    assert "Ask the tournament director" in page.inner_text("body")


def test_an_unfinished_entry_is_cleared_by_the_stations_idle_timer(tiny_config, start_server,
                                                                    new_device):
    """As at a station (protocol.py, timers.entry_idle): words left typed and never judged are
    cleared, so the next challenge at the table starts from an empty entry."""
    tiny_config.write_text(tiny_config.read_text().replace("entry_idle = 300", "entry_idle = 1"))
    server = start_server()
    page = new_device()
    open_page(page, server)
    sit_at(page, "6")
    enter(page, "qi z")
    assert page.evaluate("document.body.dataset.view") == "entry"
    page.wait_for_selector("body[data-view=ready]", timeout=10_000)
    assert page.input_value("#words") == ""
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#words") == "" and journal_rows(server) == []
    enter(page, "qi")  # and the entry still judges afterwards
    page.keyboard.press("Enter")
    assert "Words: QI" in verdict_text(page)


def test_a_verdict_waiting_on_a_locked_journal_says_so_then_shows(server, new_device):
    """Issue 15: a hung kiosk froze a phone without a word. The verdict is recorded before it is
    shown; while another program holds the journal's lock the phone says why it waits."""
    import sqlite3

    page = new_device()
    open_page(page, server)
    sit_at(page, "5")
    enter(page, "qi za")
    lock = sqlite3.connect(str(server.config.parent / "journal.db"), isolation_level=None)
    try:
        lock.execute("BEGIN EXCLUSIVE")
        page.tap("#adjudicate")
        page.wait_for_selector("#error:has-text('Still recording the verdict')", timeout=15_000)
        assert page.evaluate("document.body.dataset.view") in ("ready", "entry")
        # issue 36: bounded, then no verdict (as at the station), the words kept
        page.wait_for_selector("#error:has-text('NOT RECORDED, no verdict')", timeout=15_000)
        assert page.evaluate("document.body.dataset.view") in ("ready", "entry")
        assert page.input_value("#words").upper() == "QI ZA"
    finally:
        lock.execute("COMMIT")
        lock.close()
    page.tap("#adjudicate")  # the lock gone: tried again, recorded, shown
    assert "Words: QI ZA" in verdict_text(page)
    assert [r.words for r in journal_rows(server)] == [("QI", "ZA")]


def test_a_paste_too_long_is_refused_whole_with_its_real_length(server, new_device):
    """Issue 21 (12): pasting 600 characters said "Not taken (400 characters)": the box had cut
    the paste to 400 first. Nothing is cut silently: the paste is refused whole, the box keeps
    what it held, and the player reads the real length and the limit (as at the kiosk)."""
    from adjudicator.text.entry import MAX_ENTRY_CHARS

    page = new_device()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_page(page, server)
    sit_at(page, "2")
    enter(page, "qi ")
    pasted = ("abcdefghijklmno " * 38)[:600]
    page.evaluate("t => navigator.clipboard.writeText(t)", pasted)
    page.keyboard.press("Control+V")
    page.wait_for_selector("#error:not(:empty)")
    error = page.inner_text("#error")
    assert "Not taken (600 characters)" in error, error
    assert f"at most {MAX_ENTRY_CHARS} characters" in error
    assert page.input_value("#words") == "qi "  # nothing of the paste, nothing lost
    page.keyboard.insert_text("x" * 1000)  # an insertion of another kind (a drop, a keyboard's)
    assert "Not taken (1,000 characters)" in page.inner_text("#error")
    assert page.input_value("#words") == "qi "
    page.keyboard.type("za")
    page.keyboard.press("Enter")
    assert "Words: QI ZA" in verdict_text(page)
    assert [r.words for r in journal_rows(server)] == [("QI", "ZA")]


def test_change_table_starts_the_field_empty_and_the_new_table_is_confirmed(server, new_device):
    """Issue 43 item 4: at table 1, Change table then "2" and Enter seats the phone at table 2,
    not 12, and the entry page says the table chosen until its first challenge."""
    page = new_device()
    open_page(page, server)
    sit_at(page, "1")
    assert "Now at table 1." in page.inner_text("#seated")
    page.tap("#change")
    page.wait_for_selector("body[data-view=table]")
    assert page.input_value("#table") == ""
    assert page.evaluate("document.activeElement.id") == "table"
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-view=ready]")
    assert page.inner_text("#where").startswith("Table 2")
    seated = page.inner_text("#seated")
    assert "Now at table 2." in seated and "Change table" in seated
    page.screenshot(path=str(server.config.parent / "seated.png"))
    enter(page, "qi")
    page.keyboard.press("Enter")
    verdict_text(page)
    assert journal_rows(server)[-1].table == "2"
    page.wait_for_selector("body[data-view=verdict] #next")
    page.tap("#next")
    page.wait_for_selector("body[data-view=ready]")
    assert page.inner_text("#seated") == ""  # said until the first challenge, then gone


EDGES = """ids => ids.map(id => { const s = getComputedStyle(document.getElementById(id));
  return [id, parseFloat(s.borderTopWidth), s.borderTopStyle, s.borderTopColor]; })"""


def test_in_forced_colours_every_button_keeps_an_edge_and_the_verdict_its_mark_and_word(
        server, new_device):
    """Issue 43 item 6 (chromium's forced-colors emulation, as Windows' high contrast): START,
    ADJUDICATE, Change table, RECHECK and NEXT each keep a visible edge; the verdict keeps its
    mark and its word, in a frame (double for UNACCEPTABLE)."""
    page = new_device()
    page.emulate_media(forced_colors="active")
    open_page(page, server)
    assert page.evaluate("matchMedia('(forced-colors: active)').matches")
    folder = server.config.parent

    def edged(ids):
        for id_, width, style, colour in page.evaluate(EDGES, ids):
            assert width >= 2 and style != "none" and colour not in ("rgba(0, 0, 0, 0)",
                                                                     "transparent"), (id_, colour)

    page.evaluate("document.querySelector('#table-form button.big').id = 'start'")
    edged(["start"])
    page.screenshot(path=str(folder / "forced-table.png"))
    sit_at(page, "4")
    edged(["adjudicate", "change"])
    page.screenshot(path=str(folder / "forced-entry.png"))
    for words, mark, word, style in (("qi", "✔", "ACCEPTABLE", "solid"),
                                     ("qqq", "✘", "UNACCEPTABLE", "double")):
        enter(page, words)
        page.keyboard.press("Enter")
        verdict_text(page)
        page.wait_for_selector("body[data-view=verdict] #next")
        assert page.inner_text("#mark") == mark and page.inner_text("#word") == word
        for id_ in ("mark", "word"):
            assert page.eval_on_selector(f"#{id_}", "e => getComputedStyle(e).color") != \
                page.eval_on_selector("#verdict", "e => getComputedStyle(e).backgroundColor")
        edged(["next", "recheck-button"])
        assert page.evaluate(EDGES, ["verdict"])[0][2] == style
        page.screenshot(path=str(folder / f"forced-{word}.png"))
        page.tap("#next")
        page.wait_for_selector("body[data-view=ready]")


def test_every_phone_at_a_table_shows_its_fresh_count_after_any_phones_challenge(server,
                                                                             new_device):
    """Issue 43 item 7: with two phones at one table the second's 'challenges here' was stale."""
    first, second = new_device(), new_device()
    for page in (first, second):
        open_page(page, server)
        sit_at(page, "3")
    assert "challenges here: 0" in second.inner_text("#where")
    for n in (1, 2):
        enter(first, "qi")
        first.keyboard.press("Enter")
        verdict_text(first)
        second.wait_for_function(
            f"document.getElementById('where').textContent.endsWith('challenges here: {n}')")
        first.wait_for_selector("body[data-view=verdict] #next")
        first.tap("#next")
        first.wait_for_selector("body[data-view=ready]")
    assert "challenges here: 2" in first.inner_text("#where")
