"""The kiosk's link to the station's print desk: the worker's reports delivered as a message."""

from __future__ import annotations

from textual.message import Message

from adjudicator.station.printdesk import PrintDesk


class Printed(Message):
    """The print worker's report for one slip (handled as on_printed by any screen that shows it)."""

    def __init__(self, seq: int, ok: bool, message: str):
        super().__init__()
        self.seq, self.ok, self.message = seq, ok, message


def print_desk(app) -> PrintDesk:
    """The app's PrintDesk (made once); its reports reach every screen on the stack."""
    desk = getattr(app, "print_desk", None)
    if desk is None:
        def deliver(seq: int, ok: bool, message: str) -> None:
            for screen in app.screen_stack:  # the runner's desk under the director's screen too
                screen.post_message(Printed(seq, ok, message))

        def notify(seq: int, ok: bool, message: str) -> None:
            try:  # on the print worker's thread: hop back to the UI thread
                app.call_from_thread(deliver, seq, ok, message)
            except RuntimeError:
                pass  # the app is closing
        desk = app.print_desk = PrintDesk(app.station, notify)
    return desk
