"""Director mode names lists by name, edition and fingerprint, saves the name, and the event."""

from __future__ import annotations

import os
import sys

import pytest
from kiosk_helpers import screen_name, text_of

from adjudicator.config.station import load_config
from adjudicator.event.pin import hash_pin
from adjudicator.lexicon.store import add, shelf_dir

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
from realdata import real_list  # noqa: E402

pytestmark = pytest.mark.asyncio

SIZE = (110, 44)
PIN = "2468"


async def open_director(pilot):
    await pilot.press("f12")
    await pilot.pause()
    await pilot.press(*PIN, "enter")
    for _ in range(3):
        await pilot.pause()


async def test_shelf_lists_by_name_edition_fingerprint_saved_by_name_header_at_once(
        make_app, config, tmp_path):
    """Issue 27: director mode listed `CSW21.lex`, saved the shelf file's full path (which fails
    on the next machine), and its header kept saying ENABLE after the change."""
    csw21 = add(real_list("CSW21.txt")).identity  # onto this test's own shelf
    source = tmp_path / "club.txt"
    source.write_text("QI\nZA\nZO\n")
    add(str(source), name="CLUB")
    pinned = config.with_changes(pin_hash=hash_pin(PIN))
    from adjudicator.lexicon.library import load_lexicon

    app = make_app(config=pinned, lexicon=load_lexicon(None))  # ENABLE, as a new station
    async with app.run_test(size=SIZE) as pilot:
        await open_director(pilot)
        assert screen_name(app) == "DirectorScreen"
        assert "NOT A TOURNAMENT" in text_of(app, "#lexicon").upper()
        labels = dict((v, label) for label, v in app.screen.query_one("#f-lexicon")._options)
        assert labels["CSW21"] == (f"CSW21 · Collins Scrabble Words 2021 (2021) · "
                                   f"{csw21.short_fingerprint}")
        assert labels["CLUB"].startswith("CLUB · UNRECOGNISED LIST · ")
        assert not any(os.sep in value for value in labels)  # no path is offered
        app.screen.query_one("#f-lexicon").value = "CSW21"
        app.screen.query_one("#f-event").value = "Club Open 2026"
        app.screen.save()
        await pilot.pause()
        saved = load_config(pinned.path)
        assert (saved.lexicon, saved.event) == ("CSW21", "Club Open 2026")  # the name
        header = text_of(app, "#lexicon")
        assert header.startswith("Lexicon: CSW21 — Collins Scrabble Words 2021") and \
            "tournament" not in header  # at once, not after leaving director mode
        assert "Club Open 2026" in text_of(app, "#director-title")
        await pilot.press("escape")
        for _ in range(3):
            await pilot.pause()
        assert text_of(app, "#station").startswith("Club Open 2026 · ")


async def test_a_path_saved_before_is_offered_as_its_name(make_app, config, tmp_path):
    source = tmp_path / "club.txt"
    source.write_text("QI\nZA\n")
    path = add(str(source), name="CLUB").path
    assert os.path.dirname(path) == shelf_dir()
    pinned = config.with_changes(pin_hash=hash_pin(PIN), lexicon=path)  # as Save wrote it
    app = make_app(config=pinned)
    async with app.run_test(size=SIZE) as pilot:
        await open_director(pilot)
        assert app.screen.query_one("#f-lexicon").value == "CLUB"
        app.screen.save()
        await pilot.pause()
        assert load_config(pinned.path).lexicon == "CLUB"  # mended: it works on any machine
