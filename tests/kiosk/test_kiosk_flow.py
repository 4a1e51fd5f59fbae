"""The self-adjudication protocol with Pilot: every transition and every rejection on screen."""

from __future__ import annotations

import pytest
from kiosk_helpers import elapse, screen_name, text_of

from adjudicator.config.station import Timers
from adjudicator.journal import Journal
from adjudicator.station.service import NOT_RECORDED
from kiosk.screens.ready import STEP_1, STEP_2

pytestmark = pytest.mark.asyncio

SIZE = (80, 24)


async def settle(pilot, n: int = 3):
    for _ in range(n):
        await pilot.pause()


async def test_ready_shows_identity_rule_count_and_the_two_steps(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen"
        lexicon = text_of(app, "#lexicon")
        assert "TINY" in lexicon and "UNRECOGNISED LIST" in lexicon and "3 words" in lexicon
        assert app.screen.query_one("#lexicon").has_class("unrecognised")  # loud
        assert "Station 7" in text_of(app, "#station")
        assert "5 points per word challenged" in text_of(app, "#rule")
        assert text_of(app, "#count").endswith(": 0")
        assert text_of(app, "#steps") == f"{STEP_1}\n{STEP_2}"
        assert not app.screen.query("#journal-problem")  # built only when the journal fails
        assert app.focused is app.screen.query_one("#entry")


async def test_default_list_is_labelled_not_for_tournaments(make_app):
    from adjudicator.lexicon.compiled import Lexicon
    from adjudicator.lexicon.library import default_path

    app = make_app(lexicon=Lexicon.load(default_path()))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "not a tournament word list" in text_of(app, "#lexicon")


async def test_typing_starts_the_entry_and_shows_the_words_large(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi za")
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen"
        assert app.screen.has_class("entering")
        assert text_of(app, "#steps") == STEP_2  # the challenger's step is done
        assert not app.screen.query_one("#station").display
        big = app.screen.query_one("#typed")
        assert big.text == "QI ZA"
        assert big.size.height >= 3  # block letters, not a plain line
        # no hint of validity while typing: the message line is empty
        assert text_of(app, "#message") == ""


async def test_tab_judges_records_first_and_shows_the_verdict(make_app, config):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi za", "tab")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        assert "YES: the play is ACCEPTABLE" in text_of(app, "#plain")
        assert text_of(app, "#plain").startswith("✔")
        assert text_of(app, "#words") == "Words: QI ZA"
        assert "Its player scores 10 extra points (2 words x 5)" in text_of(app, "#consequence")
        row = app.station.journal.get(1)  # its short hash anchors the journal (docs/journal.md)
        assert text_of(app, "#record") == f"Challenge #1 · check {row.hash[:8]} · TINY · 14:03:22"
        assert app.screen.query_one("#verdict-box").has_class("acceptable")
        assert row.words == ("QI", "ZA") and row.acceptable and row.station == "Station 7"
        assert row.mode == "station" and row.rule == "5-per-word"


async def test_unacceptable_play_comes_off_and_says_nothing_per_word(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi xyzzy za", "tab")
        await settle(pilot)
        assert "NO: the play is UNACCEPTABLE" in text_of(app, "#plain")
        assert text_of(app, "#plain").startswith("✘")
        assert "comes off the board" in text_of(app, "#consequence")
        assert app.screen.query_one("#verdict-box").has_class("unacceptable")
        shown = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "XYZZY" in shown  # the words as entered...
        # ...and nothing per word
        assert "not in" not in shown.lower() and "invalid" not in shown.lower()


async def test_adjudicate_button_judges_like_tab(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"cat")
        await pilot.click("#adjudicate")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        assert app.station.journal.get(1).words == ("CAT",)


async def test_verdict_buttons_recheck_and_next_by_touch_only_after_the_hold(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press(*"qi za", "tab")
        await settle(pilot)
        assert not app.screen.query_one("#verdict-buttons").display  # held: nothing to tap
        await elapse(pilot, app, 0.4)
        await settle(pilot)
        await pilot.click("#recheck")  # WESPA 3.10.9: the same words, recorded as a recheck
        await settle(pilot)
        assert text_of(app, "#recheck-of") == "RECHECK OF #1"
        assert app.station.journal.get(2).recheck_of == 1
        await elapse(pilot, app, 0.4)
        await settle(pilot)
        await pilot.click("#next")
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen"
        assert app.station.journal.count() == 2  # NEXT judged nothing
        assert app.focused is app.screen.query_one("#entry")  # the keyboard never left the entry


@pytest.mark.parametrize("typed, fragment", [
    ("cat5", "'5' is not a letter"),
    ("q", "has 1 letter"),
    ("a" * 16, "has 16 letters"),
    (" ".join(["qi"] * 9), "at most 8 words"),
    ("   ", "No words entered"),
])
async def test_malformed_entry_is_answered_in_place_and_never_judged(make_app, typed, fragment):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*typed) if typed.strip() else await pilot.press("space", "space")
        await pilot.press("tab")
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen"
        assert fragment in text_of(app, "#message")
        assert app.screen.query_one("#entry").value == (typed if typed.strip() else "  ")
        assert app.station.journal.count() == 0


async def test_enter_does_not_judge_it_points_to_tab(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi", "enter")
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen"
        assert "TAB" in text_of(app, "#message")
        assert app.station.journal.count() == 0


async def test_unfinished_entry_clears_after_idle_time(make_app, config):
    app = make_app(config=config.with_changes(timers=Timers(entry_idle=1, verdict_hold=0.2,
                                                            verdict_clear=300)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi z")
        await settle(pilot)
        assert app.screen.query_one("#entry").value == "qi z"
        await elapse(pilot, app, 1.4)
        await settle(pilot)
        assert app.screen.query_one("#entry").value == ""
        assert not app.screen.has_class("entering")
        assert text_of(app, "#steps") == f"{STEP_1}\n{STEP_2}"  # Ready again, both steps
        assert app.station.journal.count() == 0


async def test_idle_timer_that_wakes_before_its_deadline_waits_again(make_app, config):
    """A timer may wake before the protocol's deadline (clock resolution; here the protocol's
    clock stands still): the entry is still cleared once the idle time has passed."""
    app = make_app(config=config.with_changes(timers=Timers(entry_idle=0.05, verdict_hold=0.2,
                                                            verdict_clear=300)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi")
        await pilot.pause(0.3)  # the idle timer wakes, finds no time passed on the protocol
        assert app.screen.query_one("#entry").value == "qi"
        await elapse(pilot, app, 0.1)
        assert app.screen.query_one("#entry").value == ""


async def test_verdict_holds_against_stray_keys_then_any_key_returns(make_app, config):
    app = make_app(config=config.with_changes(timers=Timers(entry_idle=300, verdict_hold=1,
                                                            verdict_clear=300)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi", "tab", "x", "space", "enter", "r")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        assert app.station.journal.count() == 1  # the stray R did not recheck
        await elapse(pilot, app, 1.3)
        await pilot.press("x")
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen"
        assert app.screen.query_one("#entry").value == ""
        assert text_of(app, "#count").endswith(": 1")


async def test_verdict_clears_itself_after_the_timeout(make_app, config):
    app = make_app(config=config.with_changes(timers=Timers(entry_idle=300, verdict_hold=0.1,
                                                            verdict_clear=1)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi", "tab")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        await elapse(pilot, app, 1.3)
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen"


async def test_recheck_judges_the_same_words_again_as_a_recheck(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi za", "tab")
        await elapse(pilot, app, 0.4)
        await pilot.press("r")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        assert text_of(app, "#recheck-of") == "RECHECK OF #1"
        assert text_of(app, "#record").startswith("Challenge #2")
        row = app.station.journal.get(2)
        assert row.words == ("QI", "ZA") and row.recheck_of == 1
        assert row.secondary_agrees is None
        assert not app.screen.query_one("#secondary").display  # no secondary list configured
        await elapse(pilot, app, 0.4)
        await pilot.press("R")  # a recheck of the recheck still points at the challenge
        await settle(pilot)
        assert text_of(app, "#recheck-of") == "RECHECK OF #1"
        assert app.station.journal.get(3).recheck_of == 1


@pytest.mark.parametrize("secondary_words, said, agrees", [
    (["QI", "ZA", "CAT"], "Secondary lexicon OLDER agrees", True),
    (["QI", "CAT"], "Secondary lexicon OLDER DISAGREES", False),
])
async def test_recheck_reports_the_secondary_lexicon_collectively(
        make_app, make_lexicon, secondary_words, said, agrees):
    app = make_app(secondary=make_lexicon(secondary_words, name="OLDER"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi za", "tab")
        await settle(pilot)
        # only a recheck asks the secondary list
        assert not app.screen.query_one("#secondary").display
        await elapse(pilot, app, 0.4)
        await pilot.press("r")
        await settle(pilot)
        assert text_of(app, "#secondary") == said
        assert "ZA" not in text_of(app, "#secondary")  # no per-word detail
        assert app.station.journal.get(2).secondary_agrees is agrees


async def test_failed_journal_still_shows_the_verdict_and_says_not_recorded(
        make_app, broken_journal):
    app = make_app(journal=broken_journal)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert text_of(app, "#count").endswith("unknown")
        await pilot.press(*"qi za", "tab")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        assert "ACCEPTABLE" in text_of(app, "#plain")
        assert text_of(app, "#not-recorded") == NOT_RECORDED
        assert app.screen.query_one("#not-recorded").display
        assert "not numbered" in text_of(app, "#record")


async def test_smart_device_mode_journals_as_smart_device_with_session(make_app, config):
    app = make_app(config=config.with_changes(mode="smart-device"), session="table-12")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"za", "tab")
        await settle(pilot)
        row = app.station.journal.get(1)
        assert row.mode == "smart device" and row.station == "Station 7 / table-12"


@pytest.mark.parametrize("size", [(45, 30), (40, 24), (80, 24), (160, 48)])
async def test_verdict_fits_the_width_at_phone_and_desk_sizes(make_app, size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press(*"qi za cat", "tab")
        await settle(pilot)
        big = app.screen.query_one("#big")
        lines = str(big.render()).split("\n")
        assert max(len(line) for line in lines) <= size[0]
        assert big.region.right <= size[0]
        plain = app.screen.query_one("#plain")
        assert plain.region.bottom <= size[1]  # the plain words are on screen


async def test_journal_is_written_before_the_verdict_screen_exists(make_app, config):
    seen = []
    app = make_app()
    record = app.station.journal.record

    def spy(*args, **kwargs):
        seen.append(screen_name(app))
        return record(*args, **kwargs)

    app.station.journal.record = spy
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi", "tab")
        await settle(pilot)
        assert seen == ["ReadyScreen"] and screen_name(app) == "VerdictScreen"
        assert Journal.open(config.journal).count() == 1


@pytest.mark.parametrize("size", [(43, 22), (40, 20), (80, 24)])
async def test_adjudicate_button_stays_on_screen_while_typing_on_small_screens(make_app, size):
    """A phone with its keyboard open leaves about 40x20 cells (issue 6)."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        for typed in ("", "qi za", "qi za cat qi za cat qi za"):
            app.screen.query_one("#entry").value = typed
            await settle(pilot)
            button = app.screen.query_one("#adjudicate").region
            assert button.bottom <= size[1] and button.right <= size[0], (typed, button)
            entry = app.screen.query_one("#entry").region
            assert entry.bottom <= size[1]


async def test_next_verdict_shows_nothing_left_over_from_the_last(make_app, make_lexicon):
    app = make_app(secondary=make_lexicon(["QI"], name="OLDER"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi xyzzy", "tab")
        await elapse(pilot, app, 0.4)
        await pilot.press("r")  # a recheck: RECHECK OF and the secondary line shown
        await settle(pilot)
        assert app.screen.query_one("#secondary").display
        await elapse(pilot, app, 0.4)
        await pilot.press("space")
        await settle(pilot)
        await pilot.press(*"za", "tab")
        await settle(pilot)
        assert screen_name(app) == "VerdictScreen"
        assert text_of(app, "#words") == "Words: ZA"
        assert "YES" in text_of(app, "#plain")
        assert app.screen.query_one("#verdict-box").has_class("acceptable")
        assert not app.screen.query_one("#verdict-box").has_class("unacceptable")
        assert not app.screen.query_one("#recheck-of").display
        assert not app.screen.query_one("#secondary").display
        assert not app.screen.query_one("#verdict-buttons").display  # held again


async def test_journal_that_cannot_open_is_announced_and_verdicts_still_shown(config, tiny):
    from kiosk.app import build_app

    cfg = config.with_changes(journal_setting="/proc/no-such-dir/journal.db")
    app = build_app(cfg, tiny)  # the factory opens the journal itself, and fails
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "JOURNAL NOT AVAILABLE: call the director" in text_of(app, "#journal-problem")
        await pilot.press(*"qi", "tab")
        await settle(pilot)
        assert "YES" in text_of(app, "#plain")
        assert text_of(app, "#not-recorded") == NOT_RECORDED


async def test_deferred_journal_is_open_before_anything_is_judged(config, tiny):
    """The command paints first and opens the journal just after; nothing is judged unrecorded."""
    from kiosk.app import build_app

    app = build_app(config, tiny, defer_journal=True)
    assert app.station.journal_pending
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"qi", "tab")  # as early as a key can come
        await settle(pilot)
        assert not app.station.journal_pending
        assert text_of(app, "#record").startswith("Challenge #1")
    with Journal.open(config.journal) as journal:
        assert journal.get(1).words == ("QI",)


async def test_deferred_journal_that_cannot_open_is_announced(config, tiny):
    from kiosk.app import build_app

    cfg = config.with_changes(journal_setting="/proc/no-such-dir/journal.db")
    app = build_app(cfg, tiny, defer_journal=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#journal-problem").display
        assert "JOURNAL NOT AVAILABLE" in text_of(app, "#journal-problem")
        assert text_of(app, "#count").endswith("unknown")


async def test_the_journal_banner_goes_once_the_journal_recovered_and_recorded(
        config, tiny, tmp_path):
    """Issue 36: the banner stayed on Ready after the journal came back (a USB stick plugged in
    late) and recorded the next challenge."""
    from kiosk.app import build_app

    later = tmp_path / "stick"
    cfg = config.with_changes(journal_setting=str(later / "journal.db"),
                              journal=str(later / "journal.db"))
    app = build_app(cfg, tiny)
    app.protocol.timers = Timers(entry_idle=300, verdict_hold=0, verdict_clear=300)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#journal-problem").display
        later.mkdir()  # the stick is in
        await pilot.press(*"qi", "tab")
        await settle(pilot)
        assert text_of(app, "#record").startswith("Challenge #1")  # recorded
        await pilot.press("space")
        await settle(pilot)
        assert screen_name(app) == "ReadyScreen"
        assert not app.screen.query_one("#journal-problem").display
        assert text_of(app, "#count").endswith(": 1")
