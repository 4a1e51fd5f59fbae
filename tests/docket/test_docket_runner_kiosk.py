"""Runner mode in the kiosk with Pilot (WESPA 3.11.2(a)): table, round, words, TAB, slip."""

from __future__ import annotations

import datetime as dt

import pytest
from escpos_decode import decode
from fake_printer import FakePrinter

from adjudicator.config.station import Config, PrinterSettings, Timers
from adjudicator.journal import Journal
from adjudicator.event.pin import hash_pin
from kiosk.app import build_app

pytestmark = pytest.mark.asyncio

SIZE = (100, 40)
FIXED_TIME = dt.datetime(2026, 11, 22, 14, 3, 22, tzinfo=dt.timezone.utc)


@pytest.fixture
def runner(tmp_path, make_lexicon):
    """runner(printer=None) -> (app, journal): the kiosk in runner mode on a tiny list."""
    made = []

    def make(printer: PrinterSettings | None = None, pin_hash: str = ""):
        config = Config(event="Test Open", station="Runner desk", mode="runner", pin_hash=pin_hash,
                        journal=str(tmp_path / "journal.db"),
                        journal_setting=str(tmp_path / "journal.db"),
                        path=str(tmp_path / "config.toml"),
                        timers=Timers(entry_idle=300, verdict_hold=0.2, verdict_clear=300),
                        printer=printer or PrinterSettings())
        journal = Journal.open(config.journal)
        made.append(journal)
        app = build_app(config, make_lexicon(["QI", "ZA", "CAT"], name="TINY"), journal,
                        clock=lambda: FIXED_TIME)
        return app, journal

    yield make
    for journal in made:
        journal.close()


def text(app, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


async def slip(pilot, table: str, round_: str, words: str) -> None:
    await pilot.press(*table, "enter", *round_, "enter", *words, "tab")
    for _ in range(3):
        await pilot.pause()


async def until(pilot, condition, tries: int = 400) -> None:
    """Let the print worker report back (bounded by tries, not by a clock assertion)."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError("the print worker never reported")


async def test_runner_without_printer_says_mark_the_handwritten_slip(runner):
    app, journal = runner()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "RunnerScreen"
        assert app.focused is app.screen.query_one("#table")
        assert "No printer" in text(app, "#printer")
        await slip(pilot, "14", "3", "qi za")
        assert "ACCEPTABLE" in text(app, "#last-mark")
        assert "Challenge #1 · Table 14 · Round 3 · QI ZA" in text(app, "#last-record")
        assert "a single TICK" in text(app, "#last-hand")
        # ready for the next slip at once: Table empty and focused, Round kept, words cleared
        assert app.focused is app.screen.query_one("#table")
        assert app.screen.query_one("#table").value == ""
        assert app.screen.query_one("#round").value == "3"
        assert app.screen.query_one("#entry").value == ""
        await slip(pilot, "9", "", "cat xyzzy")
        assert "UNACCEPTABLE" in text(app, "#last-mark")
        assert "a single CROSS" in text(app, "#last-hand")
        rows = journal.recent(2)  # the app closes its journal when it stops
        assert [(r.seq, r.mode, r.table, r.round, r.acceptable) for r in rows] == [
            (2, "runner", "9", "3", False), (1, "runner", "14", "3", True)]
        assert all(r.print_status == "" for r in rows)


async def test_no_table_or_a_bad_entry_is_answered_in_place_and_not_judged(runner):
    app, journal = runner()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter", "enter", *"qi", "tab")
        await pilot.pause()
        assert "table number" in text(app, "#runner-message")
        assert app.focused is app.screen.query_one("#table")
        await slip(pilot, "5", "", "ca7")
        assert text(app, "#runner-message") != ""
        assert text(app, "#last-mark") == ""
        assert journal.count() == 0


async def test_letters_cannot_reach_the_table_box(runner):
    app, _ = runner()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "a", "2")
        await pilot.pause()
        assert app.screen.query_one("#table").value == "12"


async def test_runner_prints_a_slip_and_the_journal_says_printed(runner, fake_printer):
    app, journal = runner(PrinterSettings(url=fake_printer.path, baudrate=19200, flow="none",
                                          write_timeout=1, paper="58mm", columns=32))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await slip(pilot, "14", "3", "qi za")
        assert app.focused is app.screen.query_one("#table")  # not waiting for the printer
        await until(pilot, lambda: "printed" in text(app, "#runner-print"))
        assert text(app, "#runner-print") == "Slip for challenge #1 printed."
        assert journal.get(1).print_status == "printed"
    out = decode(fake_printer.take(), 32)
    assert out.find("CHALLENGE #1") and out.find("Table 14") and out.find("Round 3")
    assert out.find("QI ZA") and "ACCEPTABLE" in out.text and out.find("Runner desk")


async def test_paper_out_then_p_reprints_after_recovery(runner, fake_printer):
    fake_printer.state = "paper out"
    app, journal = runner(PrinterSettings(url=fake_printer.path, write_timeout=1, columns=32))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await slip(pilot, "7", "2", "cat xyzzy")
        await until(pilot, lambda: "not printed" in text(app, "#runner-print"))
        assert text(app, "#runner-print") == (
            "Slip for challenge #1 not printed: paper out. Reload paper and press P to reprint.")
        assert app.screen.query_one("#runner-print").has_class("error")
        assert "UNACCEPTABLE" in text(app, "#last-mark")  # the verdict stays on screen
        assert journal.get(1).print_status == "failed"
        fake_printer.state = "ok"  # paper reloaded
        await pilot.press("p")
        # never printed: its first slip is the original, not a REPRINT (issue 11)
        await until(pilot, lambda: "Slip for challenge #1 printed" in text(app, "#runner-print"))
        assert app.screen.query_one("#table").value == ""  # P typed nothing
        assert journal.get(1).print_status == "printed"
    out = decode(fake_printer.take(), 32)
    assert "REPRINT" not in out.text and "UNACCEPTABLE" in out.text and out.find("Table 7")


async def test_refused_printer_settings_never_hide_the_verdict(runner, fake_printer):
    app, journal = runner(PrinterSettings(url=fake_printer.path, write_timeout=0, columns=32))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await slip(pilot, "4", "", "qi")
        assert "ACCEPTABLE" in text(app, "#last-mark")
        note = text(app, "#runner-print")
        assert note.startswith("No slip printed: printer write_timeout must be a positive")
        assert "a single TICK" in note
        assert journal.get(1).mode == "runner"
    assert fake_printer.take() == b""


async def test_r_rechecks_the_last_challenge_and_the_slip_says_recheck_of(runner, fake_printer):
    # WESPA 3.10.9, 003 4.6.7: a recheck judges the same words again, marked as a recheck.
    app, journal = runner(PrinterSettings(url=fake_printer.path, write_timeout=1, columns=32))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")  # nothing to recheck yet: said in place, nothing judged
        await pilot.pause()
        assert "No recorded challenge" in text(app, "#runner-message")
        assert journal.count() == 0
        await slip(pilot, "12", "4", "cat xyzzy")
        await until(pilot, lambda: "#1 printed" in text(app, "#runner-print"))
        await pilot.press("r")
        await until(pilot, lambda: "#2 printed" in text(app, "#runner-print"))
        assert "Challenge #2 · RECHECK OF #1 · Table 12 · Round 4" in text(app, "#last-record")
        assert app.screen.query_one("#table").value == ""  # R typed nothing
        await pilot.press("r")  # a recheck of the recheck still names the original challenge
        await until(pilot, lambda: "#3 printed" in text(app, "#runner-print"))
        rows = {r.seq: r for r in journal.recent(3)}
        assert [(rows[n].recheck_of, rows[n].table, rows[n].words) for n in (2, 3)] == [
            (1, "12", ("CAT", "XYZZY")), (1, "12", ("CAT", "XYZZY"))]
    out = decode(fake_printer.take(), 32)
    assert out.find("RECHECK OF #1") and out.find("CHALLENGE #2") and out.find("Table 12")


async def open_director(pilot, pin: str = "2468") -> None:
    await pilot.press("f12")
    await pilot.pause()
    await pilot.press(*pin, "enter")
    for _ in range(3):
        await pilot.pause()


async def click_reprint(app, pilot) -> None:
    """Scroll the director's screen to the Reprint button, as the director would, and click it."""
    await pilot.pause(0.3)  # a Button ignores clicks while it shows the last one (0.2 s)
    app.screen.query_one("#reprint").scroll_visible(animate=False)
    await pilot.pause()
    await pilot.click("#reprint")


async def test_director_reprints_any_challenge_by_number(runner, fake_printer):
    app, journal = runner(PrinterSettings(url=fake_printer.path, write_timeout=1, columns=32),
                          pin_hash=hash_pin("2468"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await slip(pilot, "14", "3", "qi za")
        await slip(pilot, "9", "3", "cat xyzzy")
        await until(pilot, lambda: "#2 printed" in text(app, "#runner-print"))
        fake_printer.take()
        await open_director(pilot)
        assert type(app.screen).__name__ == "DirectorScreen"
        await click_reprint(app, pilot)  # no number yet: said, nothing printed
        await pilot.pause()
        assert "Type the number" in text(app, "#director-status")
        app.screen.query_one("#f-reprint").value = "7"
        await click_reprint(app, pilot)
        await pilot.pause()
        assert text(app, "#director-status").startswith("Cannot reprint #7:")
        app.screen.query_one("#f-reprint").value = "1"
        await click_reprint(app, pilot)
        await until(pilot, lambda: "printed" in text(app, "#director-status"))
        assert text(app, "#director-status") == "Reprint for challenge #1 printed."
        assert journal.get(1).print_status == "reprinted"
        assert journal.get(2).print_status == "printed"
    out = decode(fake_printer.take(), 32)
    assert "REPRINT" in out.text and out.find("CHALLENGE #1") and out.find("Table 14")
    assert "QI ZA" in out.text and "XYZZY" not in out.text


async def test_a_new_printer_saved_by_the_director_prints_the_next_slip(runner, fake_printer):
    app, journal = runner(PrinterSettings(url=fake_printer.path, write_timeout=1, columns=32),
                          pin_hash=hash_pin("2468"))
    other = FakePrinter()
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await slip(pilot, "14", "3", "qi")
            await until(pilot, lambda: "#1 printed" in text(app, "#runner-print"))
            await open_director(pilot)
            app.screen.query_one("#f-printer").value = other.path
            app.screen.save()
            await pilot.pause()
            await pilot.press("escape")
            for _ in range(3):
                await pilot.pause()
            await slip(pilot, "15", "3", "za")
            await until(pilot, lambda: "#2 printed" in text(app, "#runner-print"))
        assert decode(other.take(), 32).find("CHALLENGE #2")
        assert "CHALLENGE #2" not in decode(fake_printer.take(), 32).text
    finally:
        other.close()


async def test_back_to_table_and_on_to_the_words_keeps_them_and_adds_to_them(runner):
    """docs/runner.md: ESC (or SHIFT+TAB) in the words goes back to Table, keeping the words.
    Coming back to them, what is typed goes after them: it never replaces them all (the words
    box took focus with everything selected, so the next letter wiped the slip's words)."""
    app, journal = runner()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("7", "enter", "enter", *"qi", "escape")
        await pilot.pause()
        await pilot.press("backspace", "8", "enter", "enter", *" za")
        await pilot.pause()
        assert app.screen.query_one("#entry").value == "qi za"
        await pilot.press("shift+tab", "enter", "enter", *" cat", "tab")
        for _ in range(3):
            await pilot.pause()
        (row,) = list(journal.rows())
        assert (row.table, row.words) == ("8", ("QI", "ZA", "CAT"))


@pytest.mark.asyncio
async def test_a_restarted_desk_shows_the_slip_it_never_showed_and_its_slip_again_is_a_recheck(
        runner):
    """Issue 36 item 9 at the runner's desk: a slip's verdict committed and never painted (the
    desk stopped in between) is shown in the last-slip box at the next start, said so; the same
    slip brought again from its table is its recheck, never a possible split look-up."""
    from adjudicator.journal.flags import SPLIT_LOOKUP
    from adjudicator.station.service import open_station
    from adjudicator.station.state import state_path
    from adjudicator.station.unseen import last_shown

    app, journal = runner()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await slip(pilot, "14", "3", "qi za")
    config = app.station.config
    assert last_shown(state_path(config.journal)) == 1  # painted: marked shown
    from adjudicator.journal import Journal

    with Journal.open(config.journal) as reopened:  # the desk's own closed with it
        station = open_station(config, app.station.lexicon, reopened)
        assert station.submit("za cat", table="9").recorded  # the desk died before its paint
    again, _ = runner()
    async with again.run_test(size=SIZE) as pilot:
        for _ in range(4):
            await pilot.pause()
        assert "RECORDED BUT NEVER SHOWN" in text(again, "#runner-message")
        assert "Challenge #2 · Table 9 · ZA CAT" in text(again, "#last-record")
        await slip(pilot, "9", "", "za cat")
        row = again.station.journal.get(3)
        assert row.recheck_of == 2 and SPLIT_LOOKUP not in row.flags
        assert "RECHECK OF #2" in text(again, "#last-record")
