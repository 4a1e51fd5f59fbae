"""What travels on the phone's websocket: the state shown (JSON) and the frames a phone sends."""

from __future__ import annotations

import json

from adjudicator.text.entry import MAX_ENTRY_CHARS, too_long_message
from adjudicator.station.protocol import TOUCH, State
from adjudicator.station.service import NOT_RECORDED, Outcome
from adjudicator.event.tables import TableError
from adjudicator.phone.seats import Device, TableState

MARK = {True: "✔", False: "✘"}
PLAIN = {True: "YES: the play is ACCEPTABLE", False: "NO: the play is UNACCEPTABLE"}
# The kiosk's words for an insertion refused whole, with {n} where the page puts its length.
TOO_LONG = too_long_message(MAX_ENTRY_CHARS + 1).replace(f"{MAX_ENTRY_CHARS + 1:,} characters",
                                                         "{n}")
KINDS = {"table", "leave", "typed", "judge", "next", "recheck", "expire"}


class BadFrame(ValueError):
    """A frame no page of ours would send (logged in one line, never a traceback)."""


def parse_frame(data: object) -> dict:
    """A phone's frame as a dict with a known "t", or BadFrame saying why."""
    if not isinstance(data, str):
        raise BadFrame("not a text frame")
    try:
        frame = json.loads(data)
    except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested too deep
        raise BadFrame("not JSON") from None
    if not isinstance(frame, dict) or frame.get("t") not in KINDS:
        raise BadFrame("unknown frame")
    for key in ("text", "table", "round"):
        if key in frame and not isinstance(frame[key], str):
            raise BadFrame(f"{key} is not text")
    return frame


def lexicon_lines(identity) -> tuple[str, str]:
    """(the lexicon described, its warning: ENABLE is not a tournament list, an unknown list)."""
    if identity.known is None:
        return identity.describe(), "⚠ UNRECOGNISED LIST: not a known official word list"
    known = identity.known
    described = f"{known.id} — {known.title} — {identity.word_count:,} words"
    if known.tournament:
        return described + " — verified", ""
    return described, f"⚠ {known.id} is not a tournament word list"


def hello(device: Device) -> dict:
    """Sent once per page: the words of the protocol and who judges."""
    station = device.station
    described, warning = lexicon_lines(station.lexicon.identity)
    divisions = ""
    if station.lists.needs_table:
        divisions = "Divisions: " + station.lists.describe()  # the table decides the list
        described, warning = "The list depends on the table", ""
    return {"t": "hello", "event": station.config.event, "device": device.label,
            "divisions": divisions,
            "steps": [TOUCH.step_1, TOUCH.step_2], "hint": TOUCH.hint,
            "next_hint": TOUCH.next_hint, "lexicon": described, "warning": warning,
            "entry_idle": station.config.timers.entry_idle, "max_entry": MAX_ENTRY_CHARS,
            "too_long": TOO_LONG}


def table_list(station, table: str) -> dict:
    """The list that judges at TABLE, shown before the first challenge: {"division", "judges",
    "lexicon", "warning"}; with no divisions served, division and judges are ''."""
    if not station.lists.by_division:
        return {"division": "", "judges": ""}
    try:
        choice = station.lists.choose(table)
    except TableError as e:  # a table chosen before the event changed: said, never guessed
        return {"division": "", "judges": str(e), "lexicon": "", "warning": ""}
    described, warning = lexicon_lines(choice.lexicon.identity)
    judges = f"Judged with {described}"
    if choice.division:
        judges = f"Division {choice.division} · {judges}"
        served = station.lists.find(choice.division)
        if served is not None and served.kept:  # the hub alarms meanwhile (lists.py)
            judges += f" · not the event's list: {served.kept}"
    return {"division": choice.division, "judges": judges, "lexicon": described,
            "warning": warning}


def outcome_payload(outcome: Outcome) -> dict:
    """The verdict for the play as a whole: nothing in it names a single word's validity."""
    v = outcome.verdict
    number = f"Challenge #{outcome.seq}" if outcome.recorded else "Challenge not numbered"
    described, warning = lexicon_lines(v.lexicon)
    secondary = ""
    if outcome.secondary_agrees is not None:
        word = "agrees" if outcome.secondary_agrees else "DISAGREES"
        secondary = f"Secondary lexicon {outcome.secondary_name} {word}"
    recheck = ""
    if outcome.is_recheck:
        recheck = "RECHECK" + (f" OF #{outcome.recheck_of}" if outcome.recheck_of else "")
    return {"acceptable": v.acceptable, "mark": MARK[v.acceptable], "word": v.word,
            "plain": PLAIN[v.acceptable], "words": "Words: " + " ".join(v.words),
            "consequence": outcome.consequence,
            "record": f"{number} · {v.lexicon.name} · {outcome.time:%H:%M:%S}",
            "lexicon": described, "warning": warning, "secondary": secondary,
            "recheck": recheck, "problem": "" if outcome.recorded else NOT_RECORDED}


def state_payload(device: Device, here: TableState | None) -> dict:
    """What the page shows now: the table chooser, the entry, or the verdict."""
    if here is None:
        return {"t": "state", "view": "table", "error": device.refused}
    protocol = here.protocol
    protocol.expire()
    if protocol.state is State.READY:
        here.outcome, here.text = None, ""  # an unfinished entry cleared by its idle timer
    payload = {"t": "state", "view": protocol.state.value, "table": here.table,
               "round": here.round, "count": device.station.table_count(here.table),
               "text": here.text, "error": here.error, "remaining": protocol.remaining(),
               **table_list(device.station, here.table)}
    if protocol.state in (State.VERDICT, State.VERDICT_HELD) and here.outcome is not None:
        payload["verdict"] = outcome_payload(here.outcome)
        # the table on the verdict itself: a phone held up across the hall says which one
        payload["verdict"]["table"] = f"Table {here.table}" + (
            f" · Round {here.round}" if here.round else "")
        if payload["division"]:  # the division named with every verdict, beside its list
            verdict = payload["verdict"]
            verdict["lexicon"] = f"Division {payload['division']} · {verdict['lexicon']}"
    elif protocol.state in (State.VERDICT, State.VERDICT_HELD):
        protocol.next_challenge()
        payload.update(view="ready", remaining=None)
    return payload
