"""KioskApp: the locked challenge station; it only routes between screens (build_app makes it)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.errors import NoWidget

from adjudicator.config.station import Config
from adjudicator.errors import AdjudicatorError
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.station.protocol import Protocol

from adjudicator.station.pin_gate import PinGate
from adjudicator.station.state import save_state, state_path
from adjudicator.station.unseen_verdict import UnseenVerdict
from kiosk.console import CSS_TEXT as CONSOLE_CSS, ConsoleFilter, wants_console
from kiosk.director_door import DirectorDoor
from kiosk.screens.ready import ReadyScreen
from kiosk.in_order import InOrder
from kiosk.typed import Typed
from adjudicator.station.service import Outcome, Station, open_station

DIRECTOR_KEY = "f12"
# App-level actions anything may start (a key, a click, markup): the director's door, and focus
# moves, which only the director's screen binds. Everything else (quit, palette, suspend,
# screenshot, help-quit...) is refused by check_action, whatever asks (WESPA 3.11.1(b)).
ALLOWED_APP_ACTIONS = frozenset({"director", "focus_next", "focus_previous"})
# What counts as the director still being there (timers.director_idle).
ACTIVITY = (events.Key, events.Paste, Typed, events.MouseDown, events.MouseScrollDown,
            events.MouseScrollUp)
# What the players do: none of it is applied before a verdict recorded and never shown is on
# screen, nor when it was read before the verdict (or the refusal) it would act on was shown.
PLAYERS_INPUT = (events.Key, events.Paste, Typed, events.MouseDown, events.MouseUp)
HOME_CHECK = 1.0  # seconds between looks for a stack with no screen of the kiosk's own
UNSEEN_NOTE = "RECORDED BUT NEVER SHOWN: the station restarted before showing it"
# Signals that end the kiosk as the director's Quit does, the terminal put back (issue 21), and
# signals ignored while it runs. A Windows console's Ctrl-C is a key while the app runs (its
# driver turns processed input off); Ctrl-Break is always a signal there: held.
HELD_SIGNALS: tuple[signal.Signals, ...]
if sys.platform == "win32":
    STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
    HELD_SIGNALS = (signal.SIGBREAK,)
else:
    STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
    HELD_SIGNALS = ()


class KioskApp(InOrder, DirectorDoor, App, inherit_bindings=False):
    """Adjudication mode only: no way out but the director's PIN, no palette, no sound."""

    # read when the module is imported, not when each app starts: a restarted kiosk reads no
    # file of a package reinstalled or removed meanwhile (issue 27)
    CSS = Path(__file__).with_name("kiosk.tcss").read_text(encoding="utf-8")
    TITLE = "adjudicator"
    ENABLE_COMMAND_PALETTE = False
    ALLOW_SELECT = False
    BINDINGS = [Binding(DIRECTOR_KEY, "director", show=False, priority=True)]

    def __init__(self, station: Station, *, pin_clock=None, idle_clock=None) -> None:
        # The Linux console's characters and colours (kiosk/console.py), by `style` and TERM.
        self.console_style = wants_console(station.config.style, os.environ.get("TERM"))
        super().__init__(ansi_color=True if self.console_style else None)
        if self.console_style:
            self.CSS = f"{type(self).CSS}\n{CONSOLE_CSS}"  # after the full style: it wins
        self._console_filter = ConsoleFilter() if self.console_style else None
        self.station = station
        # a verdict waits for its row's commit only; the head file and checkpoint follow its
        # paint (_painted). The runner's desk shows no verdict screen: its rows settle at once
        station.settle_after_show = station.config.mode != "runner"
        journal = station.config.journal
        self.state_file = state_path(journal) if journal else None  # survives a restart
        self.pin_gate = PinGate(lambda: self.station.config.pin_hash,
                                **({"clock": pin_clock} if pin_clock else {}),
                                state_file=self.state_file)
        self.protocol = Protocol(station.config.timers)  # where the players are (adjudicator/)
        self._director_open = False
        self.on_first_paint = None  # set by a supervised start: tells the supervisor
        self.refused: AdjudicatorError | None = None  # why it stopped before it could judge
        self.idle_clock = idle_clock or time.monotonic
        self._director_seen: float | None = None  # last key or touch in director mode
        self._director_watch = None
        self.stop_signal = 0  # the stop signal that ended the app, if one did
        self._judging_seen = False  # keep_home saw a judgement under way at its last look
        # a verdict recorded and never shown: shown at start, rechecked if challenged again
        self.unseen = UnseenVerdict(station, self.state_file)
        # input read before this moment (time.monotonic, as Textual stamps events) is dropped:
        # read while a verdict was recorded, or before it or its refusal was on screen
        self.ignore_read_before = 0.0

    def get_line_filters(self):
        filters = super().get_line_filters()
        return [*filters, self._console_filter] if self._console_filter else filters

    def run_until_signalled(self) -> int:
        """Run the app; the stop signal that ended it (0 when something else did).

        SIGTERM, SIGHUP and SIGINT end it as the director's Quit does: Textual leaves the
        alternate screen and turns off everything it turned on. Python's own default (die at
        once; KeyboardInterrupt wherever the app happened to be) left the players' terminal on
        the alternate screen with mouse reporting on. The previous handlers are put back after.
        """
        if sys.platform != "win32":  # the POSIX driver's log (Windows: Textual's own driver)
            from kiosk.terminal import keep_log  # imports Textual's LinuxDriver: termios, tty

            keep_log(sys.stderr)  # the kiosk log, before Textual holds sys.stderr
        handlers = {sig: signal.signal(sig, self._signalled) for sig in STOP_SIGNALS}
        handlers.update({sig: signal.signal(sig, signal.SIG_IGN) for sig in HELD_SIGNALS})
        try:
            self.run()
        finally:
            for sig, handler in handlers.items():
                signal.signal(sig, handler)
        return self.stop_signal

    def _signalled(self, signum: int, _frame) -> None:
        if self.stop_signal:
            return  # already ending
        self.stop_signal = signum
        try:
            loop = asyncio.get_running_loop()  # the app's: it runs in this (the main) thread
        except RuntimeError:  # not running yet: nothing of it is on the screen
            raise SystemExit(128 + signum) from None
        try:
            loop.call_soon_threadsafe(self.exit, None, 128 + signum)
        except RuntimeError:  # its loop is closing: the app is ending anyway
            pass

    def on_mount(self) -> None:
        self.push_screen(self.home_screen())
        self.call_after_refresh(self._warm_fonts)
        self.set_interval(HOME_CHECK, self.keep_home)

    def keep_home(self) -> None:
        """Never a station without its screen: were every screen of the kiosk's own gone from
        the stack (Textual's blank one left: issue 36's dead station), the home screen comes
        back within HOME_CHECK seconds, and with it the keys, F12 and the clicks."""
        # a judgement taken and never made or refused (it is made within one refresh): every
        # key would be dropped for good (on_event), so it is let go at the second look
        stuck = self.protocol.judging and self._judging_seen
        self._judging_seen = self.protocol.judging
        if stuck:
            self.protocol.refused()
        if len(self.screen_stack) <= 1:
            if self._director_open:
                self._director_open = False
                self._stop_director_watch()
                save_state(self.state_file, director_open=False)
            self.push_screen(self.home_screen())

    def _warm_fonts(self) -> None:
        # Just after the first paint: every list's words checked against its fingerprint (about
        # 0.1 s for CSW, off the event loop; a verdict asked for meanwhile waits for it), and
        # only then is the supervisor told the kiosk started: a list altered by hand refuses
        # to start as it would before the paint (exit 3, its one line), never judges.
        self.run_worker(self._check_lists, thread=True, group="lists")
        # After the first paint: open a deferred journal, show its count (or its problem)...
        if self.station.journal_pending:
            self.station.journal  # noqa: B018 - opens it
            show = getattr(self.screen, "show_journal_state", None)
            if show is not None:
                show()
        # ...build the verdict screen, and load the big-letter fonts so the first verdict paints
        # at once; a verdict recorded and never shown (a crash before its paint) is shown now.
        if self.station.config.mode != "runner":
            self._verdict_screen()
        self.show_unseen_now()
        from kiosk.widgets.bigtext import warm

        self.run_worker(warm, thread=True, exclusive=True, group="warm")
        self.set_timer(1.0, self._freeze_startup_objects)

    def _check_lists(self) -> None:
        try:
            self.station.lists.check_words()
        except AdjudicatorError as e:
            self.refused = e
            self.call_from_thread(self.exit, None, e.exit_code)
            return
        self.call_from_thread(self._started)

    def _started(self) -> None:
        if self.on_first_paint is not None:
            self.on_first_paint()
            self.on_first_paint = None

    def _preload(self) -> None:
        """Every module this kiosk may import later (director mode, printing...), taken in now,
        off the event loop: a package reinstalled or removed under the running station is never
        read half-way (issue 27: its supervisor does the same for the children it restarts)."""
        from adjudicator.supervisor.preload import preload_package

        self.run_worker(preload_package, thread=True, group="preload")

    def _freeze_startup_objects(self) -> None:
        # Everything built at start-up lives as long as the kiosk: keep it out of the garbage
        # collector's full passes, which otherwise show up as the slowest verdicts.
        # (`adjudicator kiosk` starts with the collector off, for a sooner first paint: on here.)
        import gc

        gc.collect()
        gc.freeze()
        gc.enable()
        self._preload()

    async def on_event(self, event: events.Event) -> None:
        """Keys and pastes for an entry box are applied here, as they arrive, in order.

        Textual would post them to the box and run its bindings only after they bubble back,
        behind later keys (kiosk/widgets/entry_input.py says why); the director's key is still
        the App's own priority binding. A mouse report where the screen has no widget (outside
        it: a terminal can send any coordinates, or just after a resize) is dropped: Textual
        answered it by taking the keyboard focus from the entry box, and the station silently
        stopped taking keys. For the same reason the terminal's focus-out report (ESC [ O) is
        ignored, with its focus-in: a station's entry box keeps the keyboard. A run of printable
        characters read together (Typed, kiosk/typed.py) goes to the entry box as one piece of
        text; anything else focused gets its keys one by one, as if they had come as keys.
        """
        if isinstance(event, (events.AppBlur, events.AppFocus)):
            return
        if isinstance(event, events.MouseEvent) and not self._has_widget_at(event):
            return
        if isinstance(event, PLAYERS_INPUT):
            if not self.unseen.looked and self.screen_stack[1:]:
                self.show_unseen_now()  # before this key: a verdict never shown comes first
            if event.time < self.ignore_read_before or self.protocol.holding():
                return  # read before what it would act on was on screen: nothing (issue 42)
        if self._director_seen is not None and isinstance(event, ACTIVITY):
            self._director_seen = self.idle_clock()  # the director is still there
        if self.protocol.judging and isinstance(event, (events.Key, events.Paste, Typed)):
            return  # read with the TAB being judged: a moment later it meets the held verdict
        if isinstance(event, Typed):
            await self._take_typed(event)
            return
        if isinstance(event, events.MouseDown) and not event.is_forwarded:
            self._button_down = self._touch_button_at(event)
        if isinstance(event, events.MouseUp) and not event.is_forwarded:
            self._release(event)
        if (isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded
                and getattr(event, "key", None) != DIRECTOR_KEY):
            paste = isinstance(event, events.Paste)
            take = self._taker("take_paste" if paste else "take_key")
            if take is not None:
                event.stop()
                take(event)
                return
        await super().on_event(event)

    def _has_widget_at(self, event: events.MouseEvent) -> bool:
        try:
            self.screen.get_widget_at(event.screen_x, event.screen_y)
        except NoWidget:
            return False
        return True

    def get_driver_class(self):
        """Textual's driver, but on a Linux terminal one whose input no byte can end."""
        driver = super().get_driver_class()
        if (driver.__module__, driver.__name__) == ("textual.drivers.linux_driver", "LinuxDriver"):
            from kiosk.terminal import KioskDriver

            return KioskDriver
        return driver

    def bell(self) -> None:
        """Silent, always (WESPA 3.11.1(b))."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action in ALLOWED_APP_ACTIONS

    # -- routes -----------------------------------------------------------------------------

    # Screens other than Ready and Verdict are imported when first needed: a shorter cold start.

    def home_screen(self, notice: str = ""):
        """Where the station rests: the runners' desk in runner mode, else Ready (issue 5).
        NOTICE is said on it until the next key (e.g. why director mode closed)."""
        if self.station.config.mode == "runner":
            from kiosk.screens.runner import RunnerScreen

            return RunnerScreen(notice=notice)
        return ReadyScreen(notice=notice)

    def show_verdict(self, outcome: Outcome, note: str = "") -> None:
        """One VerdictScreen, installed once and filled in for each challenge (paints sooner).

        The protocol is told first (judged: the hold starts now). Pushed only when it is not
        shown already: a second push suspended it and stopped its timers for good (issue 28).
        Once painted, the challenge is marked shown (adjudicator/station/unseen.py).
        """
        self.protocol.judged()
        self.ignore_read_before = time.monotonic()  # what was read meanwhile meets it held
        screen = self._verdict_screen()
        screen.show(outcome, note)
        if screen not in self.screen_stack:
            self.push_screen(screen)
        self.call_after_refresh(self.painted, outcome.seq)

    def painted(self, seq: int | None) -> None:
        """A verdict is on screen: no restart shows it again (adjudicator/station/unseen_verdict.py),
        once its frame has reached the terminal; then its row's head file and checkpoint, which it
        did not wait for (journal/settle.py). Called after the refresh that paints it."""
        if seq is not None:
            self.after_written(self._shown, seq)

    def _shown(self, seq: int) -> None:
        self.unseen.shown(seq)
        self.station.settle_journal()

    def after_written(self, callback, *args) -> None:
        """CALLBACK(*ARGS) once what is painted now has reached the terminal (the kiosk's
        driver writes from a thread of its own); at once under any other driver."""
        later = getattr(self._driver, "after_written", None)
        if later is None:
            callback(*args)
        else:
            later(lambda: callback(*args))

    def show_unseen_now(self) -> None:
        """The last verdict this station recorded and never showed (it was stopped between
        the journal's commit and the paint), shown now: just after the first paint, or before
        the first key, tap or paste is applied, whichever comes first (issue 42: a TAB read
        before the look judged the next play and the verdict never shown was lost). Keys read
        meanwhile wait, in order, and are applied after it: at a station they meet it held (it
        is on screen before anything typed blind during the restart is judged); at the
        runner's desk likewise they do nothing: the slip never shown is in its box, said so,
        before the next slip is typed (its runner types it again)."""
        unseen = self.unseen.look()  # once: later calls find nothing
        if unseen is None:
            return
        if self.station.config.mode != "runner":
            self.show_verdict(unseen, UNSEEN_NOTE)
            return
        show = getattr(self.screen, "show_unseen", None)  # the desk's own box
        if show is not None:
            show(unseen, UNSEEN_NOTE)
            self.ignore_read_before = time.monotonic()

    def back_home(self) -> None:
        """The verdict leaves, NOW: the screen under it (Ready) takes the next key read, its
        entry cleared (resume_now). A pop alone left Ready's resume for later, behind the keys
        read with the one that dismissed the verdict, which it then wiped."""
        self.pop_screen()
        resume = getattr(self.screen, "resume_now", None)
        if resume is not None:
            resume()

    def _on_verdict(self) -> bool:
        return self.is_screen_installed("verdict") and self.screen is self.get_screen("verdict")

    def _verdict_screen(self):
        if not self.is_screen_installed("verdict"):
            from kiosk.screens.verdict import VerdictScreen  # after the first paint (_warm_fonts)

            self.install_screen(VerdictScreen(), "verdict")
            self._get_screen("verdict")  # composed and styled now, not at the first verdict
        return self.get_screen("verdict")

    def show_error(self, message: str, title: str = "NOT DONE") -> None:
        from kiosk.screens.error import ErrorModal

        self.push_screen(ErrorModal(message, title))

    def on_unmount(self) -> None:
        if getattr(self, "print_desk", None) is not None:  # runner mode's slips (issue 5)
            self.print_desk.close(wait=1.0)
        self.station.close()


def build_app(config: Config, lexicon: Lexicon | None = None, journal=None, *,
              secondary: Lexicon | None = None, session: str = "", clock=None,
              pin_clock=None, idle_clock=None, defer_journal: bool = False) -> KioskApp:
    """The one factory, for production and tests: loads what the config names unless given.

    DEFER_JOURNAL: open the journal just after the first paint (a shorter cold start); it is
    still open before anything is judged.
    """
    station = open_station(config, lexicon, journal, secondary=secondary, session=session,
                           clock=clock, defer_journal=defer_journal, check_words=False)
    return KioskApp(station, pin_clock=pin_clock, idle_clock=idle_clock)
