"""The phone server follows the hub's event (issue 27 item 3): its sender's station takes a change
as it comes (it has no screen), each phone at its table's next Ready, never on a verdict."""

from __future__ import annotations

import asyncio

from adjudicator.config.station import Config, Timers
from adjudicator.event.setup import Division, Event
from adjudicator.journal import Journal, outbox
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.station.lists import single
from adjudicator.phone.build import stations_for
from adjudicator.phone.play import act
from adjudicator.phone.seats import Device
from adjudicator.judging.rules import ChallengeRule
from adjudicator.station.service import Station


def lexicon(tmp_path, name, words) -> Lexicon:
    (tmp_path / f"{name}.txt").write_text("\n".join(words) + "\n")
    compile_sources([str(tmp_path / f"{name}.txt")], str(tmp_path / "shelf" / f"{name}.lex"),
                    name=name)
    return Lexicon.load(str(tmp_path / "shelf" / f"{name}.lex"))


def phone_server(tmp_path, old: Lexicon):
    """The phone server's sender's station (as build_phone_app makes it), two phones, and
    SAY(phone, **frame): what a phone sends."""
    config = Config(mode="smart-device", lexicon=old.name, journal=str(tmp_path / "j.db"),
                    path=str(tmp_path / "phones.toml"), timers=Timers(verdict_hold=0))
    journal = Journal.open(config.journal)
    journal.forward()  # its rows queued for a hub, each with the event version judged under
    leader = Station(config, single(old), journal)
    leader.takes_at_once = True  # as build_phone_app makes it
    station_for = stations_for(config, leader.lists, journal, leader=leader)
    phones = [Device("a", "phone a", station_for("phone a")),
              Device("b", "phone b", station_for("phone b"))]

    async def judge_in(fn, *args, **kwargs):
        return fn(*args, **kwargs)

    async def say(device, **frame):
        return await act(frame, device, timers=config.timers, clock=lambda: 0.0,
                         judge_in=judge_in)

    return leader, phones, say


def test_each_phone_takes_the_change_at_its_next_ready(tmp_path):
    (tmp_path / "shelf").mkdir()
    old, new = lexicon(tmp_path, "OLDLIST", ["QI"]), lexicon(tmp_path, "NEWLIST", ["QI", "ZO"])
    leader, phones, say = phone_server(tmp_path, old)
    journal = leader.journal

    async def play():
        for phone, table in zip(phones, ("3", "4")):
            await say(phone, t="table", table=table)
            await say(phone, t="typed", text="ZO")
            await say(phone, t="judge", text="ZO")
        # the director changes the list: the sender hands it on (its thread)
        leader.follow(Event("Open", (Division("A", "NEWLIST", ChallengeRule.WORD5, (),
                                              new.fingerprint),), version=1))
        assert leader.lexicon.name == "NEWLIST" and leader.following.version == 1
        # phone a shows its verdict still: a recheck judges with the list it had
        await say(phones[0], t="recheck")
        assert not phones[0].here.outcome.verdict.acceptable
        assert phones[0].station.lexicon.name == "OLDLIST"
        await say(phones[0], t="next")
        await say(phones[0], t="typed", text="ZO")  # its next challenge starts at Ready
        await say(phones[0], t="judge", text="ZO")
        assert phones[0].here.outcome.verdict.acceptable
        assert phones[1].station.lexicon.name == "OLDLIST"  # still on its verdict

    try:
        asyncio.run(play())
        assert [r.lexicon_name for r in journal.rows()] == ["OLDLIST"] * 3 + ["NEWLIST"]
        # each row names the event version its phone's lists came with (issue 40), not the one
        # its server took meanwhile: the hub judges the recheck with the old list's version
        assert [r.get("event_version") for r in outbox.pending(journal.conn, 0)] == [
            None, None, None, 1]
        assert 'lexicon = "NEWLIST"' in (tmp_path / "phones.toml").read_text()
    finally:
        journal.close()


def test_each_phone_takes_the_name_the_director_gives_at_its_next_ready(tmp_path):
    """Renamed on the hub's page: the sender's station takes it at once (its config written),
    each phone at its next Ready; a phone's rows say "<station> / <phone>" as before."""
    (tmp_path / "shelf").mkdir()
    leader, phones, say = phone_server(tmp_path, lexicon(tmp_path, "ONELIST", ["QI"]))

    async def judge(phone, words):
        await say(phone, t="typed", text=words)  # a challenge starts at Ready
        await say(phone, t="judge", text=words)

    async def play():
        await say(phones[0], t="table", table="3")
        await judge(phones[0], "QI")
        leader.renamed("Hall phones")  # the sender hands on the hub's answer (its thread)
        assert leader.config.station == "Hall phones"
        await say(phones[0], t="recheck")  # on its verdict: nothing changes
        await say(phones[0], t="next")
        await judge(phones[0], "QI")
        await say(phones[1], t="table", table="4")
        await judge(phones[1], "QI")

    try:
        asyncio.run(play())
        assert [r.station for r in leader.journal.rows()] == [
            "Station 1 / phone a", "Station 1 / phone a", "Hall phones / phone a",
            "Hall phones / phone b"]
        assert 'station = "Hall phones"' in (tmp_path / "phones.toml").read_text()
    finally:
        leader.journal.close()
