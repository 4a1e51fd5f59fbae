"""The outbox: queued in the journal row's own transaction; sent from the hub's gap-free ack."""

from __future__ import annotations

import sqlite3

import pytest

from adjudicator.errors import JournalError
from adjudicator.link.forward import Forwarder
from adjudicator.link.hubclient import HubUnreachable
from adjudicator.journal import Journal, outbox
from adjudicator.judging.verdict import adjudicate


def record(journal, lex, words, **kw):
    return journal.record(adjudicate(lex, tuple(words)), station="Desk 1", mode="station", **kw)


def test_a_forwarding_journal_queues_each_row_in_the_same_transaction(tmp_path, make_lexicon):
    lex = make_lexicon(["QI", "ZA"])
    with Journal.open(tmp_path / "s.db") as journal:
        record(journal, lex, ["QI"])  # before forwarding was switched on
        assert journal.forward() == 1  # the row already there is queued too
        record(journal, lex, ["ZA", "QI"])
        conn = journal.conn
        rows = outbox.pending(conn, 0)
        assert [r["seq"] for r in rows] == [1, 2]
        assert rows[1]["words"] == "ZA QI" and rows[1]["hash"] == journal.get(2).hash

        # a failing row insert rolls back its outbox row too (one transaction)
        conn.execute("CREATE TRIGGER no_more BEFORE INSERT ON outbox BEGIN "
                     "SELECT RAISE(ABORT, 'disk full'); END")
        with pytest.raises(JournalError):
            record(journal, lex, ["QI"])
        assert journal.count() == 2 and outbox.last_queued(conn) == 2


def test_a_journal_without_a_hub_has_no_outbox(tmp_path, make_lexicon):
    with Journal.open(tmp_path / "s.db") as journal:
        record(journal, make_lexicon(["QI"]), ["QI"])
        assert not outbox.present(journal.conn)


def test_enabled_by_another_connection_the_open_journal_queues_from_then_on(tmp_path,
                                                                            make_lexicon):
    lex = make_lexicon(["QI"])
    with Journal.open(tmp_path / "s.db") as journal:
        record(journal, lex, ["QI"])
        other = sqlite3.connect(tmp_path / "s.db", isolation_level=None)
        outbox.enable(other)
        other.close()
        record(journal, lex, ["QI"])
        assert [r["seq"] for r in outbox.pending(journal.conn, 0)] == [1, 2]


def test_push_sends_pending_rows_and_resends_from_the_hubs_ack(tmp_path, make_lexicon,
                                                               start_hub):
    lex = make_lexicon(["QI", "ZA"])
    path = tmp_path / "s.db"
    with Journal.open(path) as journal:
        journal.forward()
        for _ in range(5):
            record(journal, lex, ["QI"])
    hub = start_hub()
    fwd = Forwarder(str(path), hub.url, hub.hub.station_token, batch=2)
    report = fwd.push()
    assert (report.sent, report.acked, report.head, report.pending) == (5, 5, 5, 0)
    fwd.stop()

    # a forwarder that forgot everything (a station killed and restarted) resends nothing twice
    again = Forwarder(str(path), hub.url, hub.hub.station_token)
    assert again.push().sent == 0
    again.stop()
    assert hub.hub.ledger.journal.count() == 5


def test_a_hub_that_is_down_is_said_plainly(tmp_path, make_lexicon):
    with Journal.open(tmp_path / "s.db") as journal:
        journal.forward()
        record(journal, make_lexicon(["QI"]), ["QI"])
    fwd = Forwarder(str(tmp_path / "s.db"), "http://127.0.0.1:9", "t", timeout=1)
    with pytest.raises(HubUnreachable, match="not reachable"):
        fwd.push()
    fwd.stop()


def test_a_wrong_token_is_refused(tmp_path, make_lexicon, start_hub):
    with Journal.open(tmp_path / "s.db") as journal:
        journal.forward()
        record(journal, make_lexicon(["QI"]), ["QI"])
    hub = start_hub()
    fwd = Forwarder(str(tmp_path / "s.db"), hub.url, hub.hub.director_token,
                    status=lambda: {"station": "Desk 3"})
    with pytest.raises(HubUnreachable, match="wrong hub_token"):
        fwd.push()
    fwd.stop()
    [alarm] = hub.call(hub.hub.board.snapshot)["alarms"]
    assert (alarm["station"], alarm["text"]) == ("Desk 3", "wrong hub_token (from 127.0.0.1)")
    assert hub.hub.ledger.journal.count() == 0
