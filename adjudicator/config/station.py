"""The station's configuration: one TOML file, checked as a whole, with a default for every key."""

from __future__ import annotations

import math
import os
import re
import tomllib
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from adjudicator.text.entry import describe_char
from adjudicator.errors import ConfigError
from adjudicator.config.modes import MODES
from adjudicator.judging.rules import ChallengeRule
from adjudicator.config.station_name import FALLBACK, MAX_STATION_NAME, SEPARATOR, name_problem
from adjudicator.text.visible import is_hidden

HEX64_TEXT = re.compile(r"[0-9a-f]{64}")  # a SHA-256 as hub_fingerprint holds it

if TYPE_CHECKING:  # the event's module is read only by a config that names divisions
    from adjudicator.event.setup import Division, Event

CONFIG_ENV = "ADJUDICATOR_CONFIG"
JOURNAL_ENV = "ADJUDICATOR_JOURNAL"
# The longest any timer or timeout may be: a day. TOML reads nan, inf and 1e308 as numbers; no
# timer can wait that long (asyncio and the protocol's deadlines need finite seconds).
MAX_SECONDS = 86_400.0
FLOWS = ("none", "rtscts", "xonxoff")
PAPERS = ("58mm", "80mm")
STYLES = ("auto", "console", "full")  # the kiosk's look (kiosk/console.py); auto: by TERM


def station_name_problem(name: str) -> str:
    """Why NAME cannot be a station's name ("" when it can): stationname.name_problem, the one
    rule both ends of the link hold (for a name given on a command line or by the hub)."""
    return name_problem(name)


@dataclass(frozen=True)
class Timers:
    """Seconds: unfinished entry cleared, verdict held against stray keys, verdict cleared,
    director mode closed when nobody touches it (the station locked again, issue 11)."""

    entry_idle: float = 30.0
    verdict_hold: float = 2.0
    verdict_clear: float = 15.0
    director_idle: float = 120.0

    def __post_init__(self) -> None:
        """However built (config file, director's screen, code), every timer is finite."""
        for key, value in asdict(self).items():
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not 0 <= value <= MAX_SECONDS):  # False for nan too
                raise ConfigError(f"timers.{key} must be a number of seconds from 0 to "
                                  f"{MAX_SECONDS:g}, not {value!r}")


class PrinterSettings(NamedTuple):
    """How to reach the docket printer; an empty url means no printer."""

    url: str = ""
    baudrate: int = 19200
    flow: str = "none"
    write_timeout: float = 5.0
    paper: str = "80mm"
    columns: int = 48

    @property
    def enabled(self) -> bool:
        return bool(self.url)


@dataclass(frozen=True)
class Config:
    """Everything a station needs; `journal` is the resolved path, `path` the file it came from."""

    event: str = "Club Night"
    station: str = FALLBACK
    mode: str = "station"
    lexicon: str = ""
    secondary_lexicon: str = ""
    lexicon_dirs: tuple[str, ...] = ()
    challenge_rule: ChallengeRule = ChallengeRule.WORD5
    journal: str = ""
    split_window: float = 90.0
    pin_hash: str = ""
    timers: Timers = field(default_factory=Timers)
    printer: PrinterSettings = field(default_factory=PrinterSettings)
    path: str = ""
    journal_setting: str = ""  # the journal key as written in the file ("" = default place)
    hub: str = ""  # the director's hub ("https://H:P"): every row is forwarded there; "" = none
    hub_token: str = ""  # the station token the hub printed
    hub_fingerprint: str = ""  # the SHA-256 of the hub's certificate: the only one trusted
    # the event's divisions ([[division]], as the hub has them: adjudicator/event/setup.py) and the
    # ones this station serves (divisions = ["A"]; () = every division of the event)
    event_divisions: tuple[Division, ...] = ()
    divisions: tuple[str, ...] = ()
    event_version: int = 0  # the hub's version of the event this config was last set to

    @property
    def event_setup(self) -> Event:
        """The event as this station knows it (its name, its divisions, the director's PIN)."""
        from adjudicator.event.setup import Event

        return Event(name=self.event, divisions=self.event_divisions, pin_hash=self.pin_hash)

    style: str = "auto"  # the kiosk's look: "console" (Linux console), "full", "auto" (by TERM)

    def with_changes(self, **changes: Any) -> Config:
        """A copy with some fields changed (the director's edits), the journal path re-resolved."""
        cfg = replace(self, **changes)
        if "journal_setting" in changes:
            cfg = replace(cfg, journal=_resolve_journal(cfg.journal_setting, cfg.path))
        return cfg


def default_config_path(path: str | None = None) -> str:
    """--config PATH, else $ADJUDICATOR_CONFIG, else the user config folder's config.toml."""
    if path:
        return path
    env = os.environ.get(CONFIG_ENV)
    if env:
        return env
    import platformdirs

    return os.path.join(platformdirs.user_config_dir("adjudicator"), "config.toml")


def default_journal_path() -> str:
    """$ADJUDICATOR_JOURNAL, else journal.db in the user data folder."""
    env = os.environ.get(JOURNAL_ENV)
    if env:
        return env
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("adjudicator"), "journal.db")


def load_config(path: str | None = None, *, must_exist: bool | None = None) -> Config:
    """Read and check the whole file; ConfigError naming the bad key, never a half-read config.

    A missing file gives the defaults, except when PATH was given explicitly (a typo in
    --config must not silently start a station with defaults); `must_exist` overrides that.
    """
    explicit = bool(path)
    where = default_config_path(path)
    if must_exist is None:
        must_exist = explicit
    try:
        with open(where, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        if must_exist:
            raise ConfigError(f"config file {where} not found") from None
        return Config(path=where, journal=_resolve_journal("", where))
    except OSError as e:
        raise ConfigError(f"cannot read config file {where}: {e.strerror or e}") from e
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"config file {where} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"config file {where} is not valid TOML: {e}") from None
    return parse_config(data, where)


def parse_config(data: dict[str, Any], where: str = "") -> Config:
    """Check a TOML table against the schema; every key optional, unknown keys refused."""
    r = _Reader(data, where, "")
    timers_table = r.table("timers")
    printer_table = r.table("printer")
    cfg = dict(
        event=r.text("event", "Club Night", shown=True),
        station=r.station_name("station"),
        mode=r.choice("mode", "station", MODES),
        lexicon=r.text("lexicon", ""),
        secondary_lexicon=r.text("secondary_lexicon", ""),
        lexicon_dirs=r.text_list("lexicon_dirs"),
        challenge_rule=r.rule("challenge_rule"),
        journal_setting=r.text("journal", ""),
        split_window=r.number("split_window", 90.0, minimum=0.0),
        pin_hash=r.text("pin_hash", ""),
        hub=r.text("hub", "").strip().rstrip("/"),
        hub_token=r.text("hub_token", "").strip(),
        hub_fingerprint=r.text("hub_fingerprint", "").strip().lower(),
        style=r.choice("style", "auto", STYLES),
        divisions=r.text_list("divisions"),
        event_version=r.integer("event_version", 0, 0, 10**12 - 1),  # wire.EVENT_VERSION
    )
    r.seen.add("division")
    if data.get("division") is not None or cfg["divisions"]:  # an event's station
        from adjudicator.event.setup import parse_event

        event = parse_event(None, data.get("division"), where)
        for name in cfg["divisions"]:
            if event.division(name) is None:
                raise ConfigError(f"{_in(where)}key divisions: {name!r} is not one of the "
                                  "event's divisions ([[division]] names it)")
        cfg["divisions"] = tuple(event.division(n).name for n in cfg["divisions"])
        cfg["event_divisions"] = event.divisions
    r.refuse_unknown()
    if cfg["hub"] and not cfg["hub"].startswith(("http://", "https://")):
        raise ConfigError(f"{_in(where)}key hub: {cfg['hub']!r} is not an address like "
                          '"https://192.168.1.20:8080" (as `adjudicator hub` prints it)')
    if cfg["hub"] and not cfg["hub_token"]:
        raise ConfigError(f"{_in(where)}key hub_token: missing; paste both lines "
                          "`adjudicator hub` printed")
    if cfg["hub"].startswith("https://") and not HEX64_TEXT.fullmatch(cfg["hub_fingerprint"]):
        raise ConfigError(f"{_in(where)}key hub_fingerprint: "
                          + ("missing" if not cfg["hub_fingerprint"] else "not a SHA-256 (64 hex)")
                          + ": the hub's certificate is trusted by it alone; paste the lines "
                          "`adjudicator hub` prints, or run `adjudicator join URL` again")
    t = _Reader(timers_table, where, "timers.")
    timers = Timers(
        entry_idle=t.number("entry_idle", 30.0, minimum=1.0),
        verdict_hold=t.number("verdict_hold", 2.0, minimum=0.0),
        verdict_clear=t.number("verdict_clear", 15.0, minimum=1.0),
        director_idle=t.number("director_idle", 120.0, minimum=10.0),
    )
    t.refuse_unknown()
    if timers.verdict_hold > timers.verdict_clear:
        raise ConfigError(
            f"{_in(where)}timers.verdict_hold ({timers.verdict_hold:g}) is longer than "
            f"timers.verdict_clear ({timers.verdict_clear:g})"
        )
    p = _Reader(printer_table, where, "printer.")
    printer = PrinterSettings(
        url=p.text("url", ""),
        baudrate=p.integer("baudrate", 19200, 50, 4_000_000),
        flow=p.choice("flow", "none", FLOWS),
        write_timeout=p.number("write_timeout", 5.0, minimum=0.1),
        paper=p.choice("paper", "80mm", PAPERS),
        columns=p.integer("columns", 48, 24, 80),  # the tick and cross are 24 wide
    )
    p.refuse_unknown()
    journal = _resolve_journal(cfg["journal_setting"], where)
    return Config(**cfg, journal=journal, timers=timers, printer=printer, path=where)


def _resolve_journal(setting: str, config_path: str) -> str:
    if not setting:
        return default_journal_path()
    setting = os.path.expanduser(setting)
    if os.path.isabs(setting) or not config_path:
        return setting
    return os.path.join(os.path.dirname(os.path.abspath(config_path)), setting)


def _in(where: str) -> str:
    return f"{where}: " if where else ""


class _Reader:
    """Takes typed values out of one TOML table, naming the key in every complaint."""

    def __init__(self, table: dict[str, Any], where: str, prefix: str):
        self.data, self.where, self.prefix = table, where, prefix
        self.seen: set[str] = set()

    def _fail(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{_in(self.where)}key {self.prefix}{key}: {problem}")

    def _get(self, key: str) -> Any:
        self.seen.add(key)
        return self.data.get(key)

    def table(self, key: str) -> dict[str, Any]:
        value = self._get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self._fail(key, "must be a table, e.g. [" + self.prefix + key + "]")
        return value

    def text(self, key: str, default: str, nonempty: bool = False, shown: bool = False,
             limit: int = 0) -> str:
        """SHOWN: a name drawn on every screen and slip, which holds no control or invisible
        character (a terminal would act on an ESC in it; issue 21); LIMIT: at most that many
        characters (0: any)."""
        value = self._get(key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise self._fail(key, f"must be text in quotes, not {value!r}")
        if limit and len(value) > limit:
            raise self._fail(key, f"is longer than {limit} characters")
        if nonempty and not value.strip():
            raise self._fail(key, "must not be empty")
        hidden = next((ch for ch in value if is_hidden(ch)), None) if shown else None
        if hidden is not None:
            raise self._fail(key, f"holds {describe_char(hidden)}, a control or invisible "
                                  "character: use letters, digits, spaces and punctuation")
        return value

    def station_name(self, key: str) -> str:
        """A station's own name: shown text, not empty, and without the separator the hub
        reads a phone's device name after (config/station_name.py)."""
        value = self.text(key, FALLBACK, nonempty=True, shown=True, limit=MAX_STATION_NAME)
        if SEPARATOR in value:
            raise self._fail(key, name_problem(value))
        return value

    def text_list(self, key: str) -> tuple[str, ...]:
        value = self._get(key)
        if value is None:
            return ()
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._fail(key, 'must be a list of folders, e.g. ["/srv/lexicons"]')
        return tuple(value)

    def choice(self, key: str, default: str, options: tuple[str, ...]) -> str:
        value = self.text(key, default)
        if value not in options:
            raise self._fail(key, f"{value!r} is not one of: {', '.join(options)}")
        return value

    def rule(self, key: str) -> ChallengeRule:
        value = self.text(key, ChallengeRule.WORD5.value)
        try:
            return ChallengeRule.parse(value)
        except ConfigError as e:
            raise self._fail(key, str(e)) from None

    def number(self, key: str, default: float, minimum: float) -> float:
        value = self._get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self._fail(key, f"must be a number of seconds, not {value!r}")
        if not math.isfinite(value):  # TOML's nan, inf and -inf are floats
            raise self._fail(key, f"must be a finite number of seconds, not {value!r}")
        if value > MAX_SECONDS:
            raise self._fail(key, f"must be at most {MAX_SECONDS:g} seconds (a day), "
                                  f"not {value!r}")
        if value < minimum:
            raise self._fail(key, f"must be at least {minimum:g}, not {value!r}")
        return float(value)

    def integer(self, key: str, default: int, low: int, high: int) -> int:
        value = self._get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._fail(key, f"must be a whole number, not {value!r}")
        if not low <= value <= high:
            raise self._fail(key, f"must be between {low} and {high}, not {value}")
        return value

    def refuse_unknown(self) -> None:
        unknown = sorted(set(self.data) - self.seen)
        if unknown:
            raise self._fail(unknown[0], "is not a known setting (check the spelling)")
