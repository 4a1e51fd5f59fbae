"""The runner's desk (issue 11): every slip not printed listed, each printable; the first slip
that comes out is the original, not a REPRINT; a keyboard way back to Table; nothing clipped."""

from __future__ import annotations

import re

import pytest
from escpos_decode import decode
from test_docket_runner_kiosk import runner, slip, text, until  # noqa: F401 (fixture)

from adjudicator.config.station import PrinterSettings

pytestmark = pytest.mark.asyncio

SIZE = (100, 40)


def printer_at(fake_printer) -> PrinterSettings:
    return PrinterSettings(url=fake_printer.path, write_timeout=1, columns=32)


def listed(app) -> list[str]:
    box = app.screen.query_one("#unprinted")
    if not box.display:
        return []
    return [str(box.get_option_at_index(i).prompt) for i in range(box.option_count)]


def screen_text(app) -> str:
    """Everything on the terminal as one line of words (wrapped lines joined)."""
    lines = [strip.text for strip in app.screen._compositor.render_strips()]
    return re.sub(r"\s+", " ", " ".join(lines))


async def two_failed_slips(app, pilot, fake_printer) -> None:
    fake_printer.state = "paper out"
    await slip(pilot, "7", "2", "cat xyzzy")
    await until(pilot, lambda: "#1 not printed" in text(app, "#runner-print"))
    await slip(pilot, "9", "2", "qi za")
    await until(pilot, lambda: "#2 not printed" in text(app, "#runner-print"))


async def test_every_slip_not_printed_is_listed_and_each_prints_as_the_original(
        runner, fake_printer):
    app, journal = runner(printer_at(fake_printer))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert listed(app) == []  # nothing failed: no list
        await two_failed_slips(app, pilot, fake_printer)
        assert listed(app) == ["#1 · Table 7 · Round 2 · paper out",
                               "#2 · Table 9 · Round 2 · paper out"]
        assert "Not printed: 2" in text(app, "#unprinted-title")

        fake_printer.state = "ok"  # paper reloaded: the runner picks #2 first
        await pilot.press("l")
        await pilot.pause()
        assert app.focused is app.screen.query_one("#unprinted")
        assert app.screen.query_one("#table").value == ""  # L typed nothing
        await pilot.press("down", "enter")
        await until(pilot, lambda: "#2 printed" in text(app, "#runner-print"))
        assert text(app, "#runner-print") == "Slip for challenge #2 printed."
        assert listed(app) == ["#1 · Table 7 · Round 2 · paper out"]
        assert journal.get(2).print_status == "printed"  # its first slip: not a reprint
        out = decode(fake_printer.take(), 32)
        assert "REPRINT" not in out.text and out.find("Table 9")

        await pilot.press("escape")  # back to Table, and P prints whatever is left
        await pilot.pause()
        assert app.focused is app.screen.query_one("#table")
        await pilot.press("p")
        await until(pilot, lambda: "#1 printed" in text(app, "#runner-print"))
        assert listed(app) == [] and not app.screen.query_one("#unprinted-title").display
        assert journal.get(1).print_status == "printed"
        out = decode(fake_printer.take(), 32)
        assert "REPRINT" not in out.text and out.find("Table 7")

        await pilot.press("p")  # nothing waiting: the last slip again, now a true reprint
        await until(pilot, lambda: "Reprint for challenge #2 printed" in text(app, "#runner-print"))
        assert journal.get(2).print_status == "reprinted"
        assert "REPRINT" in decode(fake_printer.take(), 32).text


async def test_the_list_survives_a_restart(runner, fake_printer):
    app, _ = runner(printer_at(fake_printer))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await two_failed_slips(app, pilot, fake_printer)
    app, _ = runner(printer_at(fake_printer))  # the kiosk started again on the same journal
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert [line.split(" · ")[0] for line in listed(app)] == ["#1", "#2"]


async def test_a_failed_reprint_of_a_printed_slip_stays_a_reprint(runner, fake_printer):
    app, journal = runner(printer_at(fake_printer))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await slip(pilot, "3", "1", "qi")
        await until(pilot, lambda: "#1 printed" in text(app, "#runner-print"))
        fake_printer.take()
        fake_printer.state = "paper out"
        await pilot.press("p")
        await until(pilot, lambda: "not printed" in text(app, "#runner-print"))
        fake_printer.state = "ok"
        await pilot.press("p")
        await until(pilot, lambda: "Reprint for challenge #1 printed" in text(app, "#runner-print"))
        assert journal.get(1).print_status == "reprinted"
        assert "REPRINT" in decode(fake_printer.take(), 32).text


async def test_escape_goes_back_from_the_words_to_table_keeping_them(runner):
    app, journal = runner()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"14", "enter", *"3", "enter", *"qi za")
        assert app.focused is app.screen.query_one("#entry")
        await pilot.press("escape")  # the table number was wrong
        assert app.focused is app.screen.query_one("#table")
        assert app.screen.query_one("#entry").value == "qi za"  # the words kept
        await pilot.press("backspace", "backspace", "5", "enter", "shift+tab")
        assert app.focused is app.screen.query_one("#table")  # SHIFT+TAB from Round: Table
        await pilot.press("enter", "enter", "tab")
        for _ in range(3):
            await pilot.pause()
        assert [(r.table, r.words) for r in journal.recent(5)] == [("5", ("QI", "ZA"))]


@pytest.mark.parametrize("size", [(40, 20), (80, 24)])
async def test_the_consequence_and_the_print_news_are_not_clipped(runner, fake_printer, size):
    """At a phone's 40x20 and at 80x24, with two slips not printed, everything about the last
    verdict is on screen in full: consequence, lexicon warning, printer news, the list."""
    app, _ = runner(printer_at(fake_printer))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await two_failed_slips(app, pilot, fake_printer)
        await pilot.pause()
        shown = screen_text(app)
        for selector in ("#last-mark", "#last-record", "#last-consequence", "#last-lexicon",
                         "#runner-print", "#unprinted-title"):
            whole = re.sub(r"\s+", " ", text(app, selector)).strip()
            assert whole and whole in shown, (selector, whole, shown)
            widget = app.screen.query_one(selector)
            assert widget.region.bottom <= size[1] and widget.region.right <= size[0]
        for line in listed(app):
            assert line[:size[0] - 2] in shown
