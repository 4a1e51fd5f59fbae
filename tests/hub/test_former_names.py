"""A name means one station in exports (issue 41 item 7): a station renamed from 'Desk 1' to
'Desk 9' that still sends under 'Desk 1' after another station took that name has its rows
exported under 'Desk 9' (hub_station), but for those judged before the rename (its journal held
them then) and those within the grace after it; a restart keeps what each row is held under."""

from __future__ import annotations

import csv
import io
import json
import urllib.request

from odd_station import OddStation
from test_hall_crowding import _accepted

from adjudicator import wire
from adjudicator.hub import identity
from adjudicator.journal import export_journal


def _rename(hub, station: OddStation, name: str) -> None:
    url = f"{hub.url}/api/rename?key={hub.hub.director_token}"
    with urllib.request.urlopen(urllib.request.Request(url, json.dumps(
            {"station": wire.key_id(station.key), "name": name}).encode(), method="POST"),
            timeout=20) as r:
        assert r.status == 200


def test_a_former_name_taken_by_another_keeps_their_rows_apart(start_hub, tmp_path,
                                                               monkeypatch):
    monkeypatch.setattr(identity, "FORMER_GRACE", 0.0)  # the grace over at once
    hub = start_hub(accept_new=False)
    a = _accepted(hub, "Desk 1")
    for words in ("QI", "ZA"):
        assert a.send(words=words)[0] == 200
    assert a.beat(last_seq=3)[0] == 200  # its journal holds a third row, not sent yet
    _rename(hub, a, "Desk 9")
    assert a.send(words="XU")[0] == 200  # judged before the rename: 'Desk 1' it was
    b = _accepted(hub, "Desk 1")  # the former name is free: another station takes it
    assert b.send(words="OX")[0] == 200
    assert a.send(words="JO")[0] == 200  # A still sends under 'Desk 1': it is Desk 9 now
    assert a.send(words="AX", station="Desk 1 / phone 2")[0] == 200  # a device label kept
    hub.stop()

    def held(rows) -> list[tuple]:
        return [(r["words"] if isinstance(r["words"], str) else " ".join(r["words"]),
                 r["station"], r["hub_station"]) for r in rows]
    expected = [("QI", "Desk 1", "Desk 1"), ("ZA", "Desk 1", "Desk 1"),
                ("XU", "Desk 1", "Desk 1"), ("OX", "Desk 1", "Desk 1"),
                ("JO", "Desk 1", "Desk 9"), ("AX", "Desk 1 / phone 2", "Desk 9 / phone 2")]
    assert held(csv.DictReader(io.StringIO(export_journal(hub.journal_path, "csv")))) \
        == expected
    assert held(json.loads(export_journal(hub.journal_path, "json"))) == expected
    again = start_hub(hub.journal_path, accept_new=False)  # a restart: the same names
    assert again.hub.identities.keys[wire.key_id(a.key)].renamed_seq == 3
    a.url, a.stamp = again.url, ""
    assert a.send(words="EX")[0] == 200  # after the restart too
    again.stop()
    rows = json.loads(export_journal(hub.journal_path, "json"))
    assert (rows[-1]["station"], rows[-1]["hub_station"]) == ("Desk 1", "Desk 9")


def test_within_the_grace_a_former_name_stays_the_rows_name(start_hub, tmp_path):
    hub = start_hub(accept_new=False)
    a = _accepted(hub, "Desk 1")
    assert a.send()[0] == 200
    _rename(hub, a, "Desk 9")
    assert a.send()[0] == 200  # the station has not reached its next Ready yet
    hub.stop()
    rows = json.loads(export_journal(hub.journal_path, "json"))
    assert [r["hub_station"] for r in rows] == ["Desk 1", "Desk 1"]
