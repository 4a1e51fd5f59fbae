"""A director's phone server for two divisions on different real lists, in chromium at phone
width (issue 27, item 4): CSW19 at tables 1-20, NWL2020 at tables 21-40. ZO is good in CSW19 and
not in NWL2020: a phone at table 5 and a phone at table 25 get opposite verdicts, each page naming
its list before the first challenge and with the verdict; the journal rows name each list."""

from __future__ import annotations

import os
import re

import pytest
from realdata import real_list
from web_helpers import REPO, ServeProcess

from adjudicator.journal import Journal
from adjudicator.lexicon.compile import compile_sources

SMALL_PHONE = {"width": 360, "height": 740}
SHOTS = os.environ.get("ADJUDICATOR_SCREENSHOTS")  # a folder to keep the PNGs in, to look at


@pytest.fixture
def two_lists_server(tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    for name in ("CSW19", "NWL2020"):  # compiled once here: serve starts at once
        compile_sources([real_list(f"{name}.txt")], str(folder / f"{name}.lex"))
    config = tmp_path / "event.toml"
    config.write_text(f'event = "Club Open 2026"\nstation = "Phones"\nlexicon_dirs = ["{folder}"]\n'
                      f'journal = "{tmp_path / "journal.db"}"\n'
                      "[timers]\nverdict_hold = 0\nverdict_clear = 300\nentry_idle = 300\n"
                      '[[division]]\nname = "A"\nlexicon = "CSW19"\ntables = "1-20"\n'
                      'challenge_rule = "5-per-word"\n'
                      '[[division]]\nname = "B"\nlexicon = "NWL2020"\ntables = "21-40"\n'
                      'challenge_rule = "double"\n')
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    server = ServeProcess(config, env)
    try:
        yield server
    finally:
        server.stop()


def shot(page, tmp_path, name: str) -> None:
    page.screenshot(path=str(tmp_path / f"{name}.png"))
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def test_two_phones_at_two_divisions_judge_zo_with_their_own_lists(two_lists_server, new_device,
                                                                   tmp_path):
    server = two_lists_server
    said = server.output
    assert "Event: Club Open 2026" in said
    assert re.search(r"Division A \(tables 1-20\): CSW19 — Collins Scrabble Words 2019 — "
                     r"[0-9a-f]{12} · 5-per-word", said)
    assert re.search(r"Division B \(tables 21-40\): NWL2020 — .* · double", said)
    assert f"Journal: {tmp_path / 'journal.db'}" in said and "Hub: none" in said
    verdicts = {}
    for table, division, listed in (("5", "A", "CSW19"), ("25", "B", "NWL2020")):
        page = new_device(viewport=SMALL_PHONE, device_scale_factor=2)
        page.goto(server.url)
        page.wait_for_selector("body[data-ready='1']")
        assert "Club Open 2026" in page.inner_text("#bar")
        assert "A (tables 1-20): CSW19 · B (tables 21-40): NWL2020" in page.inner_text(
            "#divisions")
        if table == "5":
            shot(page, tmp_path, "divisions-table-chooser")
        page.tap("#table")
        page.keyboard.type(table)
        page.tap("button[type=submit] >> text=START")
        page.wait_for_selector("#words", state="visible")
        judges = page.inner_text("#judges")  # before the first challenge
        assert judges.startswith(f"Division {division} · Judged with {listed} — ")
        assert listed in page.inner_text("#foot") and "Club Open 2026" in page.inner_text("#foot")
        shot(page, tmp_path, f"divisions-ready-{table}")
        page.tap("#words")
        page.keyboard.type("zo")
        page.tap("#adjudicate")
        page.wait_for_selector("#verdict", state="visible")
        verdicts[table] = page.inner_text("#verdict")
        assert f"Division {division} · {listed} — " in page.inner_text("#v-lexicon")
        shot(page, tmp_path, f"divisions-verdict-{table}")
    assert "UNACCEPTABLE" not in verdicts["5"] and "ACCEPTABLE" in verdicts["5"]
    assert "UNACCEPTABLE" in verdicts["25"]
    journal = Journal.open(str(tmp_path / "journal.db"))
    try:
        rows = list(reversed(journal.recent(5)))
    finally:
        journal.close()
    assert [(r.table, r.lexicon_name, r.rule, r.acceptable) for r in rows] == [
        ("5", "CSW19", "5-per-word", True), ("25", "NWL2020", "double", False)]
