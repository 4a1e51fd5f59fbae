"""A kiosk run just past its first paint: what it refused, and whether its supervisor heard it start."""

from __future__ import annotations

import asyncio

from adjudicator.config.station import load_config


def refused_after_first_paint(config_path: str):
    """(app.refused, what its supervisor was told): the kiosk built as production builds it
    (its lists loaded unchecked), run under Pilot until it refuses or 2 s have passed."""
    from kiosk.app import build_app

    app = build_app(load_config(config_path))
    told: list[str] = []
    app.on_first_paint = lambda: told.append("started")

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(100):
                await pilot.pause(0.02)
                if app.refused is not None:
                    break

    asyncio.run(run())
    return app.refused, told
