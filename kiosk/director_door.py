"""DirectorDoor: F12, the director's PIN, and director mode closing itself when left idle."""

from __future__ import annotations

from adjudicator.station.state import save_state

from kiosk.screens.ready import ReadyScreen

IDLE_CHECK = 1.0  # seconds between looks at the director's idle time
DIRECTOR_IDLE_NOTICE = ("Director mode closed after {seconds:g} s without a key or a touch: "
                        "the station is locked again.")


class DirectorDoor:
    """For the App: the way into director mode (F12, then the PIN) and back to the station."""

    def action_director(self) -> None:
        if self.station.config.mode == "smart-device":
            return  # a player's device has no way to another mode (WESPA 3.11.1(b); issue 6)
        home = ReadyScreen
        if self.station.config.mode == "runner":
            from kiosk.screens.runner import RunnerScreen as home
        if not self._director_open and self._on_verdict() and self.screen.released():
            # F12 on a released verdict: the verdict goes, as a "next" key would, and the
            # PIN is asked (docs/station.md); held, it does nothing, as every key
            self.protocol.next_challenge()
            self.back_home()
        if self._director_open or self.protocol.judging or not isinstance(self.screen, home):
            return  # never over a verdict (or one being recorded), never twice
        self._director_open = True
        self._reread_pin()
        if not self.pin_gate.configured:  # a try-out station: director mode, to set a PIN
            self._pin_answered(True)
            return
        from kiosk.screens.pin import PinModal

        self.push_screen(PinModal(), callback=self._pin_answered)

    def _reread_pin(self) -> None:
        """`adjudicator set-pin` run on this station's config while it runs: taken now, at F12,
        without a restart (issue 27)."""
        from adjudicator.event.pin import stored_pin_hash

        config = self.station.config
        fresh = stored_pin_hash(config.path, config.pin_hash)
        if fresh != config.pin_hash:
            self.station.config = config.with_changes(pin_hash=fresh)

    def _pin_answered(self, ok: bool | None) -> None:
        if ok:
            from kiosk.screens.director import DirectorScreen

            save_state(self.state_file, director_open=True)
            self._director_seen = self.idle_clock()
            self._director_watch = self.set_interval(IDLE_CHECK, self.check_director_idle)
            self.push_screen(DirectorScreen(), callback=self._director_closed)
        else:
            self._director_open = False

    def check_director_idle(self) -> None:
        """A director who walked away leaves no open station: after timers.director_idle
        without a key or a touch, director mode closes (its dialogs with it), unsaved edits
        are dropped, and the station says why (issue 11)."""
        from kiosk.screens.director import DirectorScreen

        idle = self.station.config.timers.director_idle
        if self._director_seen is None or self.idle_clock() - self._director_seen < idle:
            return
        self._stop_director_watch()
        if not any(isinstance(screen, DirectorScreen) for screen in self.screen_stack):
            return  # already closed: nothing of the station's own is ever popped
        while len(self.screen_stack) > 1 and not isinstance(self.screen, DirectorScreen):
            self.pop_screen()  # a dialog over director mode (an error, a confirmation)
        if isinstance(self.screen, DirectorScreen):
            self.screen.dismiss(DIRECTOR_IDLE_NOTICE.format(seconds=idle))

    def _stop_director_watch(self) -> None:
        self._director_seen = None
        if self._director_watch is not None:
            self._director_watch.stop()
            self._director_watch = None

    def _director_closed(self, result=None) -> None:
        self._stop_director_watch()
        self._director_open = False
        save_state(self.state_file, director_open=False)
        self.protocol.timers = self.station.config.timers  # the director may have changed them
        notice = result if isinstance(result, str) else ""
        # redrawn: lexicon, rule, station may have changed
        self.switch_screen(self.home_screen(notice=notice))
