"""The station service: every challenge becomes a verdict and a journal row here, and only here.

Every surface (the kiosk, the runner's desk, the phone page, `adjudicator judge --journal`) is a
renderer of this one behaviour: validate the entry, judge the play as a whole, record it BEFORE
anything is shown (a failed record hides nothing: the verdict is shown with NOT_RECORDED), recheck
with the secondary lexicon (WESPA 3.10.9), and hand the printer a slip (printdesk.py).
"""

from __future__ import annotations

import datetime as dt
import threading
from functools import partial

from adjudicator.config.station import Config
from adjudicator.text.entry import check_entry_length, parse_entry
from adjudicator.errors import (AdjudicatorError, ConfigError, JournalLockedError,
                                JournalLostError, JournalUnwritableError)
from adjudicator.station.journal_hold import JournalKeeping, open_journal
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.station.lists import TableLists, lists_for
from adjudicator.station.outcome import Outcome, TableCounts
from adjudicator.judging.rules import consequence_under
from adjudicator.config.station_name import joined
from adjudicator.event.tables import check_table
from adjudicator.judging.verdict import Verdict, adjudicate

NOT_RECORDED = "NOT RECORDED: call the director"
# A journal held locked past the wait: nothing recorded, so no verdict shown (the players retry)
NO_VERDICT = "NOT RECORDED, no verdict: {problem}. Call the director; {again} tries again."
_MAKING = threading.Lock()
JOURNAL_MODES = {"station": "station", "smart-device": "smart device", "runner": "runner"}


class Station(JournalKeeping):
    """One station's service: config, lexicons, journal, session label; judges and records."""

    hub_link = None  # the hub's sender (link/attach.py sets it when the config names a hub)
    leader = None  # the Station whose sender follows the hub for this one (a phone's: build.py)
    takes_at_once = False  # a leader with no screen of its own takes a change as it comes

    def __init__(
        self,
        config: Config,
        lists: TableLists,
        journal=None,
        *,
        session: str = "",
        journal_problem: str = "",
        journal_opener=None,
        clock=None,
        rule_known: bool = True,
        journal_reopener=None,
        table_counts: TableCounts | None = None,
    ):
        """JOURNAL_OPENER: () -> (journal, problem), called on first use of the journal (so the
        kiosk can paint before it imports and opens SQLite; it is open before any judgement).
        JOURNAL_REOPENER: the same, tried again before each record while no journal is open (a
        USB stick plugged in late, a lock released): a verdict is NOT RECORDED only when the
        journal still cannot be opened at that moment. LISTS: the station's lists by table
        (adjudicator/station/lists.py: lists_for(config), or single(lexicon) for every table)."""
        self.config = config
        self.lists = lists
        self._journal = journal
        self._opener = journal_opener if journal is None else None
        self._when_open: list = []  # on_journal_open's callbacks, for a deferred journal
        self.session = session
        self.journal_problem = journal_problem if journal is None else ""
        self._clock = clock or (lambda: dt.datetime.now().astimezone())
        self._rule_known = rule_known  # False: no event rule given (a bare terminal judge)
        self._reopener = journal_reopener
        self.table_counts = table_counts or TableCounts()
        self.printer_state = ""  # as the print desk last heard it, for the hub's heartbeat
        self._following = None  # the hub's event: the version run, a change waiting

    @property
    def lexicon(self) -> Lexicon:
        """The list screens name first: the only one, or the first served division's."""
        return self.lists.first

    @property
    def secondary(self) -> Lexicon | None:
        return self.lists.secondary

    @property
    def journal(self):
        """The open journal (opened now if that was deferred), or None with journal_problem."""
        if self._opener is not None:
            opener, self._opener = self._opener, None
            self._journal, problem = opener()
            self.journal_problem = problem if self._journal is None else ""
            when_open, self._when_open = self._when_open, []
            for callback in when_open:
                callback()
        return self._journal

    @journal.setter
    def journal(self, value) -> None:
        self._opener = None
        self._journal = value

    @property
    def journal_pending(self) -> bool:
        """True until a deferred journal has been opened."""
        return self._opener is not None

    def open_now(self) -> None:
        """The deferred journal opened now (if it is not open: journal_problem says why)."""
        _ = self.journal

    def on_journal_open(self, callback) -> None:
        """CALLBACK() once this station's journal has been opened (or tried): now, or just
        after a deferred one opens (the kiosk's, after its first paint: link/attach.py)."""
        if self.journal_pending:
            self._when_open.append(callback)
        else:
            callback()

    @property
    def station_name(self) -> str:
        """The configured name, with the session's label (a phone, `kiosk --session`) if any."""
        return joined(self.config.station, self.session)

    @property
    def rule(self) -> str | None:
        """The event's challenge rule as recorded, or None when none was configured."""
        return self.config.challenge_rule.value if self._rule_known else None

    @property
    def journal_mode(self) -> str:
        return JOURNAL_MODES.get(self.config.mode, self.config.mode)

    def judged_count(self) -> int | None:
        """How many challenges the journal holds, or None when it cannot say."""
        if self.journal is None:
            return None
        try:
            return self.journal.count()
        except AdjudicatorError:
            return None

    def table_count(self, table: str) -> int | None:
        """How many challenges the journal holds for game TABLE, or None when it cannot say."""
        return self.table_counts.count(table, self.journal)

    def choose(self, table: str = ""):
        """(lexicon, rule) that judge a challenge at TABLE (adjudicator/station/lists.py): its division's
        at an event (DivisionError, nothing judged, when TABLE says none), else the station's
        own list and rule (None when no rule was configured: a bare terminal judge)."""
        choice = self.lists.choose(table)
        if not (self.lists.by_division or self._rule_known):
            return choice.lexicon, None
        return choice.lexicon, choice.rule.value

    def submit(self, text: str, *, table: str = "", round: str = "") -> Outcome:
        """Validate typed TEXT (EntryError: never judged, nothing recorded), then judge() it."""
        check_entry_length(text)  # what no entry box holds is never parsed (MAX_ENTRY_CHARS)
        return self.judge(parse_entry(text), table=table, round=round)

    def judge(self, words: tuple[str, ...], *, table: str = "", round: str = "",
              recheck_of: int | None = None, is_recheck: bool = False) -> Outcome:
        """Adjudicate and record BEFORE the caller shows anything; a failed record hides nothing.

        Every word is looked up, always (adjudicator.judging.verdict): neither the result nor its timing
        says which word failed (WESPA 3.11.2(a)(viii)). A TABLE or ROUND that is not one
        (tables.py: "²", "0") is a TableError before anything is judged or recorded.
        """
        table, round = check_table(table), check_table(round, "round")
        lexicon, rule = self.choose(table)  # a table no served division plays at: refused here
        verdict = adjudicate(lexicon, words)
        agrees = self._agrees(words, verdict, is_recheck)
        seq, problem, locked = self._record(verdict, recheck_of, agrees, table, round, rule)
        return self._outcome(verdict, seq, problem, table=table, round=round, rule=rule,
                             recheck_of=recheck_of, is_recheck=is_recheck, agrees=agrees,
                             locked=locked)

    def recheck(self, previous: Outcome) -> Outcome:
        """Judge the same words again (WESPA 3.10.9; 003 4.6.7), pointing at the first challenge.

        The same table and round; the secondary lexicon, when configured, is asked too.
        """
        return self.judge(previous.verdict.words, table=previous.table, round=previous.round,
                          recheck_of=previous.first_seq, is_recheck=True)

    def judge_group(self, entries: list[tuple[str, ...]], *, table: str = "", round: str = "",
                    recheck_of: int | None = None) -> list[Outcome]:
        """Judge several entries and record them in ONE transaction (a batch), all before any is
        shown; when that transaction fails, every outcome carries the problem, none a number.
        RECHECK_OF: each entry a recheck of that challenge (WESPA 3.10.9: `judge --recheck-of`,
        a group of one), the secondary list asked too."""
        table, round = check_table(table), check_table(round, "round")
        lexicon, rule = self.choose(table)
        verdicts = [adjudicate(lexicon, words) for words in entries]
        is_recheck = recheck_of is not None
        agrees = [self._agrees(w, v, is_recheck) for w, v in zip(entries, verdicts)]
        seqs: list[int | None] = [None] * len(verdicts)
        problem = ""
        if verdicts and self._journal_to_record() is None:
            problem = self.journal_problem or "no journal is open"
        elif verdicts:
            fields = self._fields(recheck_of, None, table, round, rule)
            rows = [(v, fields if a is None else dict(fields, secondary_agrees=a))
                    for v, a in zip(verdicts, agrees)]
            try:
                seqs = list(self.journal.record_many(rows))
            except Exception as e:  # noqa: BLE001 - a failing disk must never hide a verdict
                problem = _reason(e)
            else:
                for _ in seqs:
                    self.table_counts.add(table)
        return [self._outcome(v, seq, problem, table=table, round=round, rule=rule,
                              recheck_of=recheck_of, is_recheck=is_recheck, agrees=a)
                for v, seq, a in zip(verdicts, seqs, agrees)]

    def _agrees(self, words, verdict: Verdict, is_recheck: bool) -> bool | None:
        # WESPA 3.10.9: a recheck during a lexicon transition also asks the secondary list,
        # collectively: whether it agrees, never which word differs (None: not asked)
        if not (is_recheck and self.secondary is not None):
            return None
        return adjudicate(self.secondary, words).acceptable == verdict.acceptable

    def _outcome(self, verdict: Verdict, seq: int | None, problem: str, *, table: str,
                 round: str, rule: str | None, recheck_of: int | None = None,
                 is_recheck: bool = False, agrees: bool | None = None,
                 locked: bool = False) -> Outcome:
        return Outcome(
            verdict=verdict,
            seq=None if seq is None else int(seq),
            row_hash=getattr(seq, "short", ""),
            consequence=consequence_under(rule, verdict.acceptable, len(verdict.words)),
            time=self._clock(),
            recheck_of=recheck_of,
            is_recheck=is_recheck,
            secondary_name=self.secondary.name if (is_recheck and self.secondary) else "",
            secondary_agrees=agrees,
            problem=problem,
            table=table,
            round=round,
            locked=locked,
        )

    def _fields(self, recheck_of, agrees, table: str, round: str, rule: str | None) -> dict:
        # the event version judged under: its following's, else its config's (a phone's: the
        # version its lists came with at its last Ready, whatever its server took since)
        following = self._following if self.leader is None else None
        return dict(station=self.station_name, mode=self.journal_mode,
                    rule=rule, table=table or None,
                    round=round or None, recheck_of=recheck_of, secondary_agrees=agrees,
                    event_version=following.version if following is not None
                    else self.config.event_version)

    def _record(self, verdict: Verdict, recheck_of, agrees, table: str,
                round: str, rule: str | None) -> tuple[int | None, str, bool]:
        """(seq, problem, locked): LOCKED when another program held the journal's lock."""
        if self._journal_to_record() is None:
            return None, self.journal_problem or "no journal is open", False
        journal = self.journal
        try:
            seq = journal.record(verdict, **self._fields(recheck_of, agrees, table, round, rule))
        except JournalLostError as e:  # never a number from a file that is not the journal
            self._lose(journal, str(e))
            return None, _reason(e), False
        except Exception as e:  # noqa: BLE001 - a failing disk must never hide a verdict
            locked = isinstance(e, JournalLockedError)
            if not locked:
                self.journal_alarm = _reason(e)
                self._alarm_clears = isinstance(e, JournalUnwritableError)
            return None, _reason(e), locked
        self.journal_alarm, self._alarm_clears = "", False
        self.table_counts.add(table)
        if self.hub_link is not None:
            self.hub_link.wake()  # sent now, not at the next poll; a sender that ended starts again
        return seq, "", False

    def reconfigure(self, new: Config) -> None:
        """The director's changes: the lists loaded (lists.py), then saved; on any error nothing
        changes. At an event the divisions' lists are the event's: a list set here would show
        on Ready and judge nothing, so it is refused (set it on the hub's Event panel)."""
        if new.event_divisions and new.lexicon != self.config.lexicon:
            raise ConfigError(
                f"this station judges with the event's lists ({self.lists.describe()}): change "
                "a division's list on the director's page (adjudicator hub), not here")
        lists = lists_for(new)  # each file read once per process: an unchanged list costs nothing
        from adjudicator.config.save import save_config  # tomlkit: not on a kiosk's way to paint

        save_config(new)
        self.config, self.lists = new, lists
        if self.journal is not None:
            self.journal.split_window = new.split_window

    # -- the hub's event (issue 27): prepared by the sender, taken at Ready (follow.py) ------

    @property
    def following(self):
        with _MAKING:  # made on first use (no cost to a kiosk's first paint), once
            if self._following is None:
                from adjudicator.station.follow import Following

                self._following = Following(version=self.config.event_version)
        return self._following

    def follow(self, event) -> None:
        """The hub's EVENT (on the sender's thread): prepared now, taken at the next Ready."""
        from adjudicator.station.follow import offer, take

        offer(self, event)
        if self.takes_at_once:
            take(self)

    def renamed(self, name: str) -> None:
        """The name the director gave this station on the hub's page (on the sender's thread):
        taken at the next Ready, as an event's change is."""
        from adjudicator.station.follow import offer_name, take

        offer_name(self, name)
        if self.takes_at_once:
            take(self)

    def at_ready(self) -> str:
        """A surface at Ready (never during a challenge) takes the hub's change waiting, if
        any; what changed in words ("" when nothing did)."""
        if self.leader is not None:  # a phone's station: the server's sender's change
            said = self.leader.at_ready()
            self.config, self.lists = self.leader.config, self.leader.lists
            return said
        if self._following is None or not self._following.waiting():
            return ""
        from adjudicator.station.follow import take

        return take(self)

    def recent(self, n: int = 20) -> list:
        """The journal's last rows for the director (newest first); [] without a journal."""
        if self.journal is None:
            return []
        return self.journal.recent(n)

    def close(self) -> None:
        self._opener = None  # never opened: nothing to close
        if self._journal is not None:
            try:
                self._journal.close()
            except Exception:  # noqa: BLE001 - closing at exit must not raise over the screen
                pass


def _reason(e: Exception) -> str:
    """Why a record failed, in one line for the director."""
    return str(e) if isinstance(e, AdjudicatorError) else f"{type(e).__name__}: {e}"


def open_station(config: Config, lexicon: Lexicon | None = None, journal=None, *,
                 secondary: Lexicon | None = None, session: str = "", clock=None,
                 defer_journal: bool = False, rule_known: bool = True,
                 table_counts: TableCounts | None = None, link: str = "live",
                 lists: TableLists | None = None, check_words: bool = True,
                 records: bool = True, timeout: float | None = None,
                 follow: bool = True) -> Station:
    """A station and its hub link, for every surface: everything loaded before any screen.

    Its lists are the config's (lists.lists_for: one per served division at an event, each
    checked against its pinned fingerprint; LexiconError if one is not it) unless LISTS, or a
    LEXICON for every table, is given. CHECK_WORDS False: each list's words are checked before
    its first verdict rather than now (the kiosk checks them just after its first paint).
    Its journal: JOURNAL, else the config's, opened now (DEFER_JOURNAL: on first use, the
    kiosk's after its first paint) and again before a record while it cannot be; RECORDS
    False: none (a plain `judge` that only asks its hub). LINK, with a `hub` in the config
    (link/attach.py): "live", a sender thread forwarding the journal's rows and a heartbeat
    (never delaying a verdict) and following the hub's event; "once", a sender not started
    (its requests TIMEOUT seconds at most) for a terminal command's one pass; "none".
    FOLLOW False: the hub's event is not taken (`judge --config --lexicon`: that list judges)."""
    if lists is None:
        lists = lists_for(config, lexicon=lexicon, secondary=secondary, check_words=check_words)
    # one way to open its journal, now or after the first paint, and again while it cannot be
    opener = partial(open_journal, config) if journal is None and records else None
    station = Station(config, lists, journal, session=session, journal_opener=opener,
                      clock=clock, rule_known=rule_known, journal_reopener=opener,
                      table_counts=table_counts)
    if not defer_journal:
        station.open_now()
    from adjudicator.link.attach import attach  # light: no network until the journal opens

    attach(station, link, timeout=timeout, follow=follow)
    return station
