"""Director: settings (event, lexicons, rule, station, timers, printer, PIN), journal, export."""

from __future__ import annotations

import os
import shlex

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, DataTable, Label, Select, Static
from textual.widgets import Input as PinInput

from adjudicator.config.station import parse_config
from adjudicator.config.save import to_toml_dict
from adjudicator.errors import AdjudicatorError, ConfigError
from adjudicator.event.pin import check_pin_text, hash_pin, is_set
from adjudicator.judging.rules import ChallengeRule
from adjudicator.lexicon.library import choices, name_of
from adjudicator.text.visible import visible

from kiosk.printing import Printed, print_desk
from kiosk.widgets.entry_input import VisibleInput as Input
from kiosk.screens.base import DismissedOnce, screen_css

TIMER_KEYS = ("entry_idle", "verdict_hold", "verdict_clear", "director_idle")
TIMER_LABELS = {"entry_idle": "Unfinished entry cleared after",
                "verdict_hold": "Verdict ignores keys for",
                "verdict_clear": "Verdict cleared after",
                "director_idle": "Director mode closes, untouched, after"}
RECENT = 30
NARROW = 90  # columns: below this, the buttons are stacked (the four need 88: at 80 the
# last, "Quit the kiosk", was cut; issue 36)
COLUMNS = ("#", "Time", "Words", "Verdict", "Recheck of", "Flags", "Print", "Station", "Mode")
CUT_FIRST = ("Words", "Flags")  # cut, in this order, to make the columns before Station fit
SCROLL_OFF = ("Station", "Mode")  # last: what a narrow screen scrolls to
MIN_CUT = 8
IDLE_STATUS = "TAB moves between the fields · ESCAPE goes back to the station"


def fit_columns(rows: list[tuple[str, ...]], width: int) -> list[tuple[str, ...]]:
    """ROWS with the words and the flags cut (the longer first, ending in …) so every column
    fits WIDTH cells, else every column before Station: one long play no longer pushes Verdict,
    Flags and Print off screen (issue 21); on a narrow screen Station and Mode, last, are what
    scrolls off. Nothing is lost: the journal and its export hold every word and flag."""
    cuts = [COLUMNS.index(c) for c in CUT_FIRST]
    for shown in (len(COLUMNS), len(COLUMNS) - len(SCROLL_OFF)):
        room = {i: max([len(COLUMNS[i])] + [len(r[i]) for r in rows]) for i in cuts}
        full = {i: room[i] for i in cuts}
        fixed = _width(rows, shown) - sum(full.values())
        while fixed + sum(room.values()) > width:
            i = max(cuts, key=lambda c: room[c])
            if room[i] <= MIN_CUT:
                break
            room[i] -= 1
        if fixed + sum(room.values()) <= width:
            break
    return [tuple(_cut(cell, room[i]) if i in room else cell for i, cell in enumerate(r))
            for r in rows]


def _cut(text: str, room: int) -> str:
    return text if len(text) <= room else text[:room - 1] + "…"


def _width(rows: list[tuple[str, ...]], shown: int) -> int:
    """Cells taken by the first SHOWN columns (DataTable pads each cell by one either side)."""
    return sum(max([len(COLUMNS[i])] + [len(r[i]) for r in rows]) + 2 for i in range(shown))


class DirectorScreen(DismissedOnce, Screen):
    """Behind the PIN (WESPA 3.11.1(b)): TAB moves between fields here; ESCAPE goes back."""

    DEFAULT_CSS = screen_css("director.tcss")
    BINDINGS = [Binding("escape", "back", show=False)]
    _pin_set_said = False  # the foot says the PIN was set, and nothing was typed since

    def compose(self) -> ComposeResult:
        station = self.app.station
        cfg = station.config
        # Above the scrolling form, whatever its scroll position: every screen says which list
        # judges, and when it is not fit for a tournament (README; issue 21).
        yield Static("", id="lexicon")  # filled by _show_header, again after each Save
        with VerticalScroll(id="director"):
            yield Static("", id="director-title")
            if not is_set(cfg.pin_hash):  # a try-out station: say so, and where to lock it
                yield Static(self._try_out_text(), id="director-try-out", classes="alarm")
            yield Static(self._counter_text(), id="director-count")
            yield Static(f"Config file: {cfg.path}", id="director-config")
            yield Static(f"Journal: {cfg.journal}", id="director-journal")
            if cfg.hub:  # the link's state: what the hub refused, a sender started again
                yield Static(self._hub_text(), id="director-hub")
            yield Static(f"Director mode closes by itself after {cfg.timers.director_idle:g} s "
                         "without a key or a touch (timers.director_idle).", id="director-idle")
            yield Label("Event name (on every screen and slip)")
            yield Input(cfg.event, id="f-event")
            yield Label("Station name")
            yield Input(cfg.station, id="f-station")
            yield Label("Lexicon (name · edition · fingerprint; saved by name)")
            choices = self._list_choices()
            primary = name_of(cfg.lexicon, list(cfg.lexicon_dirs))
            yield Select(self._lexicon_options(
                choices, primary, "Embedded default (ENABLE, not a tournament word list)"),
                value=primary, allow_blank=False, id="f-lexicon")
            yield Label("Secondary lexicon (rechecks during a lexicon transition)")
            secondary = name_of(cfg.secondary_lexicon, list(cfg.lexicon_dirs))
            yield Select(self._lexicon_options(choices, secondary, "None"),
                         value=secondary, allow_blank=False, id="f-secondary")
            yield Label("Challenge rule")
            yield Select([(r.label, r.value) for r in ChallengeRule],
                         value=cfg.challenge_rule.value, allow_blank=False, id="f-rule")
            with Grid(id="timers"):
                for key in TIMER_KEYS:
                    yield Label(f"{TIMER_LABELS[key]} (timers.{key}, seconds)")
                    yield Input(f"{getattr(cfg.timers, key):g}", id=f"f-{key}")
            yield Label("Printer URL (empty: no printer)")
            yield Input(cfg.printer.url, id="f-printer")
            with Horizontal(classes="director-buttons"):
                yield Button("Save settings", id="save", variant="primary")
                yield Button("Export journal (CSV)", id="export")
                yield Button("Back to the station", id="back")
                yield Button("Quit the kiosk", id="quit", variant="warning")
            yield Label("Director PIN (asked by F12; 4 to 64 characters, typed twice)")
            with Horizontal(classes="director-buttons"):
                yield PinInput(password=True, max_length=64, id="f-pin", placeholder="new PIN")
                yield PinInput(password=True, max_length=64, id="f-pin2", placeholder="again")
                yield Button("Set PIN", id="set-pin")
            yield Label("Reprint the slip of challenge number (from the journal, marked REPRINT, "
                        "on the saved printer)")
            with Horizontal(classes="director-buttons"):
                yield Input(id="f-reprint", restrict=r"[0-9]*", max_length=9, placeholder="#")
                yield Button("Reprint slip", id="reprint")
            yield Static("Last challenges (newest first)", classes="director-heading")
            yield DataTable(id="recent", cursor_type="row", zebra_stripes=True)
            yield Static("Challenges per hour", classes="director-heading")
            yield Static(self._per_hour_text(), id="per-hour")
        # Outside the scrolling form, docked at the bottom, always the same rows (nothing under
        # the pointer moves): every confirmation is on screen whatever the form's scroll
        # position (issue 11: they appeared below the fold).
        yield Static(IDLE_STATUS, id="director-status", classes="empty")

    def on_mount(self) -> None:
        self._show_header()
        self.set_interval(1.0, self._refresh_hub)  # a refusal shows while the director looks
        self.set_class(self.app.size.width < NARROW, "narrow")
        table = self.query_one("#recent", DataTable)
        table.add_columns(*COLUMNS)
        try:
            rows = self.app.station.recent(RECENT)
        except AdjudicatorError as e:
            self._status(f"Journal not readable: {e}")
            rows = []
        # every control shown as its picture (a journal is merged in from anywhere), one cell each
        cells = [tuple(visible(str(cell)) for cell in (
                     row.seq, row.time_local[11:19], " ".join(row.words),
                     "ACCEPTABLE" if row.acceptable else "UNACCEPTABLE",
                     "" if row.recheck_of is None else f"#{row.recheck_of}",
                     "; ".join(row.flags), row.print_status or "", row.station, row.mode))
                 for row in rows]
        for row in fit_columns(cells, self.size.width - 4):  # the form's padding, scroll bar
            table.add_row(*(Text(cell) for cell in row))  # as text, never markup
        field = self.query_one("#f-station", Input)
        field.focus(scroll_visible=False)
        self.call_after_refresh(self._top_in_view, field)

    def _top_in_view(self, field: Input) -> None:
        """The form from its top (the title, NOT LOCKED on a try-out), the focused field still
        in view: the least scrolling that shows it."""
        self.query_one("#director", VerticalScroll).scroll_home(animate=False)
        field.scroll_visible(animate=False)

    def on_resize(self, event) -> None:
        self.set_class(event.size.width < NARROW, "narrow")

    def _show_header(self) -> None:
        """The list that judges and the event, as they are now (after a Save too, issue 27)."""
        station = self.app.station
        identity = station.lexicon.identity
        lexicon = self.query_one("#lexicon", Static)
        lexicon.update(Text(f"Lexicon: {identity.describe()}"))
        lexicon.set_class(not identity.recognised, "unrecognised")
        lexicon.set_class(bool(identity.warning), "not-tournament")
        self.query_one("#director-title", Static).update(
            Text(f"DIRECTOR · {station.config.event} · {station.station_name}"))

    def _try_out_text(self) -> Text:
        path = shlex.quote(os.path.abspath(self.app.station.config.path))
        return Text("NOT LOCKED: no director PIN, anyone can open this screen with F12. Set one "
                    f"below, or from a terminal: adjudicator set-pin --config {path}")

    def _list_choices(self) -> list:
        try:
            return choices(list(self.app.station.config.lexicon_dirs))
        except AdjudicatorError:
            return []

    @staticmethod
    def _lexicon_options(found: list, current: str, blank_label: str) -> list[tuple[str, str]]:
        """The lists by name, edition and fingerprint; the value saved is the name (issue 27)."""
        options = [(blank_label, "")] + [(c.label, c.name) for c in found]
        if current and current not in [value for _, value in options]:
            options.append((f"{current} (as the config names it)", current))
        return options

    def _hub_text(self) -> Text:
        """The hub link in words (link/forward.py describe()); the hub's own words in it are
        a peer's, so every control is shown as its picture and nothing is read as markup."""
        link = self.app.station.hub_link
        state = link.describe() if link is not None else "starting"
        from adjudicator.station.follow import offline_text  # since when the hub is out of reach

        state = " · ".join(filter(None, (state, offline_text(self.app.station))))
        return Text(visible(f"Hub: {self.app.station.config.hub} · {state}"))

    def _refresh_hub(self) -> None:
        for hub in self.query("#director-hub"):
            hub.update(self._hub_text())

    def _counter_text(self) -> str:
        count = self.app.station.judged_count()
        return f"Challenges judged: {'unknown' if count is None else f'{count:,}'}"

    def _per_hour_text(self) -> str:
        journal = self.app.station.journal
        if journal is None or not hasattr(journal, "counts_per_hour"):
            return "(no journal)"
        try:
            hours = journal.counts_per_hour()
        except AdjudicatorError as e:
            return f"(not readable: {e})"
        return "\n".join(f"{hour}  {n}" for hour, n in hours[-24:]) or "(none yet)"

    def _status(self, text: str, *, error: bool = False) -> None:
        """Every answer, good or bad, at the foot of the screen (docs/station.md)."""
        self._pin_set_said = False  # the foot says something else now
        status = self.query_one("#director-status", Static)
        status.update(text or IDLE_STATUS)
        status.set_class(not text, "empty")
        status.set_class(error, "error")

    # -- actions ----------------------------------------------------------------------------

    def on_input_changed(self, event) -> None:
        if event.input.id in ("f-pin", "f-pin2") and event.value:
            self._pin_set_said = False  # a new PIN is being typed: Set PIN sets it

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        handler = {"save": self.save, "export": self.export, "reprint": self.reprint,
                   "back": self.action_back, "quit": self.quit_kiosk,
                   "set-pin": self.set_pin}.get(event.button.id or "")
        if handler:
            handler()

    def form_config(self):
        """The form's settings, checked like a config file (ConfigError names the key)."""
        cfg = self.app.station.config
        data = to_toml_dict(cfg)
        data["event"] = self.query_one("#f-event", Input).value
        data["station"] = self.query_one("#f-station", Input).value
        data["lexicon"] = self.query_one("#f-lexicon", Select).value
        data["secondary_lexicon"] = self.query_one("#f-secondary", Select).value
        data["challenge_rule"] = self.query_one("#f-rule", Select).value
        for key in TIMER_KEYS:
            text = self.query_one(f"#f-{key}", Input).value.strip()
            try:
                data["timers"][key] = float(text)
            except ValueError:
                data["timers"][key] = text  # parse_config names the key and says what is wrong
        data["printer"]["url"] = self.query_one("#f-printer", Input).value.strip()
        return parse_config(data, cfg.path)

    def save(self) -> None:
        try:
            new = self.form_config()
            self.app.station.reconfigure(new)
        except AdjudicatorError as e:
            self._status(f"NOT SAVED: {e}. Nothing was changed.", error=True)
            return
        lists = self.app.station.lists
        self._show_header()
        judging = lists.describe() if lists.by_division else lists.first.identity.describe()
        self._status(f"Saved to {new.path}. Now judging with: {judging}")

    def set_pin(self) -> None:
        """The director's PIN set here (a try-out station locked, or a PIN changed): saved as
        a salted hash in the config the station reads; F12 asks for it from now on. The
        director typed it twice here, so the station can always be left (issue 27)."""
        first, second = self.query_one("#f-pin", PinInput), self.query_one("#f-pin2", PinInput)
        pin, again = first.value, second.value
        if not pin and not again and self._pin_set_said:
            return  # Set PIN tapped again after it set the PIN (a double tap): still true
        first.value = second.value = ""
        try:
            check_pin_text(pin)
            if pin != again:
                raise ConfigError("the two PINs differ")
            station = self.app.station
            station.reconfigure(station.config.with_changes(pin_hash=hash_pin(pin)))
        except AdjudicatorError as e:
            self._status(f"PIN NOT SET: {e}. Nothing was changed.", error=True)
            return
        for note in self.query("#director-try-out"):
            note.remove()
        self._status(f"Director PIN set in {self.app.station.config.path}: F12 asks for it "
                     "from now on.")
        self._pin_set_said = True

    def export(self) -> None:
        try:
            path = self.app.station.export_csv()
        except AdjudicatorError as e:
            self._status(f"NOT EXPORTED: {e}", error=True)
            return
        self._status(f"Journal exported to {path}")

    def reprint(self) -> None:
        """The director's pick: any challenge's slip again, rebuilt from the journal."""
        text = self.query_one("#f-reprint", Input).value.strip()
        if not text.isdigit():
            self._status("Type the number of the challenge whose slip to reprint.")
            return
        note = print_desk(self.app).reprint(int(text))
        self._status(note.text)

    def on_printed(self, event: Printed) -> None:
        self._status(event.message)

    def action_back(self) -> None:
        self.dismiss(None)

    def quit_kiosk(self) -> None:
        self.app.exit(0)
