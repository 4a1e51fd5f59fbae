"""Ready's lock line follows the PIN the station has (issue 42 item 6): gone when one comes (the
event's, set-pin's), back when a change takes it away; never beside 'director PIN changed'."""

from __future__ import annotations

import pytest

from adjudicator.event.pin import hash_pin
from kiosk.screens.ready import TRY_OUT


async def settle(pilot, n: int = 3):
    for _ in range(n):
        await pilot.pause()


def lines(app) -> list[str]:
    return [str(w.render()) for w in app.screen.query("#try-out")]


@pytest.mark.asyncio
async def test_the_lock_line_follows_the_pin(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert lines(app) == [TRY_OUT]
        app.station.config = app.station.config.with_changes(pin_hash=hash_pin("4321", n=2))
        app.screen._show_try_out()
        await settle(pilot)
        assert lines(app) == []
        app.station.config = app.station.config.with_changes(pin_hash="")
        app.screen._show_try_out()
        await settle(pilot)
        assert lines(app) == [TRY_OUT]
