"""What each frame from a phone does at its table, through the station service (which records
every adjudication, with table and device, BEFORE the verdict goes back to the phone)."""

from __future__ import annotations

import asyncio

from adjudicator.errors import EntryError
from adjudicator.station.protocol import Action, State
from adjudicator.station.service import NO_VERDICT
from adjudicator.event.tables import TableError
from adjudicator.phone.seats import MAX_TEXT, Device, clean_table


async def act(frame: dict, device: Device, *, timers, clock, judge_in) -> str:
    """Apply FRAME for DEVICE; returns '' or a one-line complaint for the log. JUDGE_IN runs a
    blocking call (the journal's commit) off the event loop: judge_in(fn, *args)."""
    kind = frame["t"]
    if kind == "table":
        try:
            table, round_ = clean_table(frame.get("table")), clean_table(frame.get("round"),
                                                                           "round")
        except TableError as e:
            device.current, device.refused = None, str(e)  # said on the page's table chooser
            return "bad table or round"
        if not table:
            device.current, device.refused = None, "Type the table number."
            return "no table"
        try:
            device.station.choose(table)  # a table no division served here plays at: refused
        except TableError as e:
            device.current, device.refused = None, str(e)
            return "table in no division served here"
        device.refused = ""
        device.choose(table, round_, timers, clock)
        return ""
    if kind == "leave":
        device.current = None
        return ""
    here = device.here
    if here is None:
        return f"{kind} before a table was chosen"
    protocol = here.protocol
    protocol.expire()
    if kind == "typed":
        if protocol.state is State.READY:
            device.station.at_ready()  # the hub's change, if any: before the challenge starts
        if protocol.state in (State.READY, State.ENTRY):
            here.text, here.error = frame.get("text", "")[:MAX_TEXT], ""
            protocol.typed(here.text)
        return ""
    if kind == "expire":
        return ""
    if kind == "judge":
        if not protocol.take_judgement():
            return ""  # a second tap on the same play, or a tap on the verdict: ignored
        # Judged whole (the frame's size is capped): a text too long is refused with its real
        # length, never cut first and then counted.
        text = frame.get("text", "")
        here.text = text[:MAX_TEXT]
        try:
            outcome = await judge_in(device.station.submit, text, table=here.table,
                                     round=here.round)
        except EntryError as e:
            protocol.refused()
            here.error = str(e)
            protocol.typed(here.text)
            return ""
        except BaseException:
            protocol.refused()
            raise
        if outcome.locked:  # another program held the journal past the wait: as at the station
            protocol.refused()
            here.error = NO_VERDICT.format(problem=outcome.problem.rstrip("."), again="ADJUDICATE")
            protocol.typed(here.text)  # the words kept: ADJUDICATE tries again
            return ""
        here.outcome, here.text, here.error = outcome, "", ""
        protocol.judged()
        return ""
    action = protocol.key_on_verdict("r" if kind == "recheck" else "enter")
    if action is Action.RECHECK and here.outcome is not None and protocol.take_recheck():
        try:
            here.outcome = await judge_in(device.station.recheck, here.outcome)
        except BaseException:
            protocol.refused()
            raise
        protocol.judged()
    elif action is Action.NEXT:
        protocol.next_challenge()
        here.outcome = None
    return ""


def runner(executor):
    """judge_in for act(): the call in EXECUTOR (one thread: the journal's writes in order)."""

    async def judge_in(fn, *args, **kwargs):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(executor, lambda: fn(*args, **kwargs))

    return judge_in
