"""The baseline for the kiosk bench: a bare Textual app with the same paint markers and TAB flow."""

from __future__ import annotations

import os

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, Static


class Entry(Input):
    BINDINGS = [Binding("tab", "judge")]

    def action_judge(self) -> None:
        self.app.judged += 1
        self.value = ""
        self.app.push_screen(Result())


class Result(Screen):
    def compose(self) -> ComposeResult:
        yield Static("the play is ACCEPTABLE")

    def on_key(self, event) -> None:
        self.app.pop_screen()


class Tap(Static):
    """A touch button at its plainest: a click judges."""

    def on_click(self) -> None:
        self.screen.query_one(Entry).action_judge()


class Ready(Screen):
    def compose(self) -> ComposeResult:
        yield Static("2. OPPONENT: check them, then press TAB.")
        yield Static("station: 0", id="count")
        yield Entry(max_length=int(os.environ.get("BARE_MAX_LENGTH", "0")))  # 0: no cap
        if os.environ.get("BARE_BUTTON"):  # the tap's baseline (bench/test_kiosk_load_bench.py)
            yield Tap("ADJUDICATE", id="adjudicate")

    def on_screen_resume(self) -> None:
        self.query_one("#count", Static).update(f"station: {self.app.judged}")
        self.query_one(Entry).focus()


class Bare(App):
    judged = 0

    def on_mount(self) -> None:
        self.push_screen(Ready())


if __name__ == "__main__":
    Bare().run()
