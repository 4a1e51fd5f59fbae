"""The verdict screen pushed again is not restyled whole (kiosk/screens/verdict.py: it cost every
verdict time on its way to the screen), and looks exactly as one restyled whole would."""

from __future__ import annotations

import pytest
from kiosk_helpers import elapse, screen_lines, screen_name

pytestmark = pytest.mark.asyncio

SIZE = (80, 24)


async def settle(pilot, n: int = 3):
    for _ in range(n):
        await pilot.pause()


def look(app) -> list[tuple[str, str]]:
    """Every row of the screen as drawn: its characters and the style of each segment."""
    return [(strip.text, "|".join(str(s.style) for s in strip))
            for strip in app.screen._compositor.render_strips()]


def widget_styles(app) -> dict[str, tuple]:
    """What the stylesheet gave each widget of the verdict screen (colours, text style)."""
    return {f"{type(w).__name__}#{w.id}": (w.styles.background, w.styles.color,
                                           w.styles.text_style, w.styles.border_top)
            for w in app.screen.walk_children(with_self=True)}


@pytest.mark.parametrize("plays", [("qi", "xyzzy", "za"), ("xyzzy", "qi", "xyzzy")])
async def test_a_verdict_pushed_again_looks_as_one_restyled_whole(make_app, plays):
    app = make_app()
    restyled = []  # the verdict screen restyled whole (Textual's push does it: app.update_styles)
    update_styles = app.update_styles
    app.update_styles = lambda node, *a, **k: (
        restyled.append(1) if screen_name(app) == "VerdictScreen" and node is app.screen
        and type(node).__name__ == "VerdictScreen" else None, update_styles(node, *a, **k))[1]
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):  # the verdict screen built ahead, after the first paint
            if app.is_screen_installed("verdict") and app.get_screen("verdict")._styled:
                break
            await pilot.pause(0.01)
        for play in plays:  # acceptable and not in turn: its colours change each time
            await pilot.press(*play, "tab")
            await settle(pilot)
            assert screen_name(app) == "VerdictScreen"
            screen = app.screen
            shown, styles = look(app), widget_styles(app)
            update_styles(screen, animate=False)  # as Textual's push did: every widget
            screen.refresh(layout=True)
            await settle(pilot)
            assert widget_styles(app) == styles
            assert look(app) == shown
            acceptable = play != "xyzzy"
            assert screen.query_one("#verdict-box").has_class(
                "acceptable" if acceptable else "unacceptable")
            await elapse(pilot, app, 0.4)
            await pilot.press("space")
            await settle(pilot)
            assert screen_name(app) == "ReadyScreen"
            assert "".join(screen_lines(app)).count("press TAB") == 1
    assert restyled == []  # pushed three times, never restyled whole by a push
