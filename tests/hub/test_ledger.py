"""The hub's journal: each station's rows once, in order, chained; verify and export read it."""

from __future__ import annotations

import json

import pytest

from adjudicator.hub.hub_journal import HubJournal
from adjudicator.hub.refusals import RowsRefused
from adjudicator.journal import Journal, export_journal, outbox, verify
from adjudicator.judging.verdict import adjudicate


def station_rows(tmp_path, make_lexicon, name: str, n: int, recheck: bool = False):
    lex = make_lexicon(["QI", "ZA"])
    with Journal.open(tmp_path / f"{name}.db") as journal:
        journal.forward()
        for i in range(n):
            journal.record(adjudicate(lex, ("QI",) if i % 2 else ("QI", "XX")), station=name,
                           mode="station", table=str(i % 3 + 1))
        if recheck:
            journal.record(adjudicate(lex, ("QI",)), station=name, mode="station",
                           recheck_of=1, table="1")
        return journal.journal_id(), outbox.pending(journal.conn, 0, 10_000)


def test_rows_sent_twice_are_held_once_and_acked_without_gaps(tmp_path, make_lexicon):
    jid, rows = station_rows(tmp_path, make_lexicon, "S1", 6)
    hub = HubJournal(str(tmp_path / "hub.db"))
    assert hub.accept(jid, rows[:3])[0] == 3
    acked, added = hub.accept(jid, rows[1:4])  # 2 and 3 again, 4 new
    assert acked == 4 and [r["origin_seq"] for r in added] == [4]
    acked, added = hub.accept(jid, rows[5:])  # 6 after a gap (5 lost): waits for the resend
    assert acked == 4 and added == []
    assert hub.accept(jid, rows)[0] == 6
    assert hub.journal.count() == 6 and hub.acked() == {jid: 6}
    hub.close()


def test_a_row_not_matching_its_hash_or_not_following_is_refused(tmp_path, make_lexicon):
    jid, rows = station_rows(tmp_path, make_lexicon, "S1", 3)
    hub = HubJournal(str(tmp_path / "hub.db"))
    forged = dict(rows[0], acceptable=1 - rows[0]["acceptable"])
    with pytest.raises(RowsRefused, match="does not match its hash"):
        hub.accept(jid, [forged])
    hub.accept(jid, rows[:1])
    _, others = station_rows(tmp_path, make_lexicon, "S2", 2)
    with pytest.raises(RowsRefused, match="does not follow"):
        hub.accept(jid, [dict(others[1])])
    assert hub.journal.count() == 1
    hub.close()


def test_verify_and_export_show_every_station_once(tmp_path, make_lexicon):
    hub = HubJournal(str(tmp_path / "hub.db"))
    sent = {}
    for name in ("S1", "S2", "S3"):
        jid, rows = station_rows(tmp_path, make_lexicon, name, 4, recheck=(name == "S2"))
        sent[jid] = len(rows)
        for chunk in (rows[:2], rows, rows[1:]):  # resends, out of order
            hub.accept(jid, chunk)
    hub.close()
    assert verify(str(tmp_path / "hub.db")).intact
    exported = json.loads(export_journal(str(tmp_path / "hub.db"), "json"))
    keys = [(r["origin_journal"], r["origin_seq"]) for r in exported]
    assert len(keys) == len(set(keys)) == sum(sent.values())
    assert {r["station"] for r in exported} == {"S1", "S2", "S3"}
    recheck = next(r for r in exported if r["recheck_of"] is not None)
    original = next(r for r in exported if r["seq"] == recheck["recheck_of"])
    assert (original["station"], original["origin_seq"]) == ("S2", 1)  # renumbered to the hub's


def test_tokens_are_made_once_and_kept(tmp_path):
    hub = HubJournal(str(tmp_path / "hub.db"))
    tokens = hub.tokens()
    hub.close()
    again = HubJournal(str(tmp_path / "hub.db"))
    assert again.tokens() == tokens and tokens[0] != tokens[1]
    again.close()


def test_a_station_whose_rows_are_refused_is_an_alarm_on_the_page(tmp_path, make_lexicon,
                                                                   start_hub):
    from adjudicator.link.hubclient import HubUnreachable, post

    jid, rows = station_rows(tmp_path, make_lexicon, "S1", 2)
    hub = start_hub()
    key = bytes(range(32))
    forged = dict(rows[0], words="ZA")
    with pytest.raises(HubUnreachable, match="does not match its hash"):
        post(hub.url, "/api/rows", hub.hub.station_token,
             {"journal_id": jid, "station": "S1", "rows": [forged], "key": key.hex()}, key=key)
    [station] = hub.call(hub.hub.board.snapshot)["stations"]
    assert station["name"] == "S1" and any(a.startswith(
        "rows refused: row 1 of station journal") for a in station["alarms"])
    post(hub.url, "/api/rows", hub.hub.station_token,
         {"journal_id": jid, "station": "S1", "rows": rows}, key=key)
    [station] = hub.call(hub.hub.board.snapshot)["stations"]
    assert not any(a.startswith("rows refused") for a in station["alarms"])


def test_the_hub_journal_merges_with_the_station_journals_keeping_each_row_once(
        tmp_path, make_lexicon):
    from adjudicator.journal.merge import merge

    hub = HubJournal(str(tmp_path / "hub.db"))
    jid, rows = station_rows(tmp_path, make_lexicon, "S1", 5)
    hub.accept(jid, rows[:3])
    hub.close()
    report = merge([str(tmp_path / "hub.db"), str(tmp_path / "S1.db")],
                   str(tmp_path / "event.db"))
    assert report.rows == 5 and report.duplicates == 3


def test_rows_sent_under_another_journal_id_are_refused(tmp_path, make_lexicon):
    """Row 1 chains from a genesis hashing its journal's id and station (journal/chain.py): a
    station's rows replayed as another station journal's are not taken."""
    jid, rows = station_rows(tmp_path, make_lexicon, "S1", 2)
    hub = HubJournal(str(tmp_path / "hub.db"))
    with pytest.raises(RowsRefused, match="does not start that journal's chain"):
        hub.accept("f" * 32, rows)
    assert hub.accept(jid, rows)[0] == 2
    hub.close()


def test_messages_no_station_sends_get_a_plain_answer(tmp_path, start_hub):
    from adjudicator.link.hubclient import HubRefused, post

    hub = start_hub()
    token = hub.hub.station_token
    for path, body, why in (
            ("/api/heartbeat", {"journal_id": "j", "last_seq": "many"}, "last_seq must be a "
             "whole number"),
            ("/api/rows", {"journal_id": "j", "rows": "x"}, "rows must be a list"),
            ("/api/rows", {"rows": []}, "journal_id must be"),
            ("/api/rows", {"journal_id": "j", "rows": [{"seq": 1}]}, "row 1 has no time_utc")):
        with pytest.raises(HubRefused, match=why) as refused:
            post(hub.url, path, token, body)
        assert refused.value.status == 400
    assert hub.hub.ledger.journal.count() == 0


def test_the_hubs_refusals_are_not_the_journals_errors():
    """Rows or a request the hub refuses fail no journal (nothing was written, nothing is
    broken): their own branch of the error tree, exit 4 where a command meets one (journal push,
    docs/cli.md), never the journal's 5 ("NOT RECORDED", a broken chain)."""
    from adjudicator.errors import EXIT_IO, HubRefusal, JournalError
    from adjudicator.hub.refusals import Claimed, Full, RequestRefused

    for refusal in (RowsRefused("a row out of its chain"), Claimed("another key's"),
                    Full("most rows"), RequestRefused(409, "another station's name")):
        assert isinstance(refusal, HubRefusal) and not isinstance(refusal, JournalError)
        assert refusal.exit_code == EXIT_IO
