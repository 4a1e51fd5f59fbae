"""The kiosk's docket printer: one print queue per app, slips from outcomes, reports to screens."""

from __future__ import annotations

from textual.message import Message

from adjudicator.docket import PrintQueue, Slip, journal_on_done

from .station import Outcome


class Printed(Message):
    """The print worker's report for one slip (handled as on_printed by any screen that shows it)."""

    def __init__(self, seq: int, ok: bool, message: str):
        super().__init__()
        self.seq, self.ok, self.message = seq, ok, message


def slip_for(station, outcome: Outcome, table: str, round_: str) -> Slip:
    v = outcome.verdict
    return Slip(event=station.config.event, station=station.station_name, number=outcome.seq,
                time=f"{outcome.time:%Y-%m-%d %H:%M:%S}", words=v.words,
                acceptable=v.acceptable, consequence=outcome.consequence,
                lexicon_name=v.lexicon.name, short_fingerprint=v.lexicon.short_fingerprint,
                table=table or None, round=round_ or None, recheck_of=outcome.recheck_of)


def print_queue(app) -> PrintQueue | None:
    """The app's PrintQueue for the printer configured now; None when no printer is configured.

    Made on first use, and made again when the director changes the printer settings (the old
    queue finishes what it holds). Refused settings raise AdjudicatorError.
    """
    settings = app.station.config.printer
    if not settings.enabled:
        return None
    queue = getattr(app, "print_queue", None)
    if queue is not None and getattr(app, "print_settings", None) != settings:
        queue.close(wait=0)
        queue = app.print_queue = None
    if queue is None:
        def deliver(seq: int, ok: bool, message: str) -> None:
            for screen in app.screen_stack:  # the runner's desk under the director's screen too
                screen.post_message(Printed(seq, ok, message))

        def notify(seq: int, ok: bool, message: str) -> None:
            try:  # on the print worker's thread: hop back to the UI thread
                app.call_from_thread(deliver, seq, ok, message)
            except RuntimeError:
                pass  # the app is closing
        journal = app.station.journal
        on_done = journal_on_done(journal, notify) if journal is not None else notify
        queue = app.print_queue = PrintQueue(settings, on_done)
        app.print_settings = settings
    return queue
