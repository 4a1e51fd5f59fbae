"""An alarm group marked handled (issue 43 item 1): kept in the hub journal through a restart,
greyed while its cause holds, un-greyed when a new alarm of its kind comes from its station or
its cause ends and returns; only the director's key marks one."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from odd_station import OddStation

from adjudicator.hub.alarmlist import alarm_kind, group_of
from adjudicator.hub.handled import CARRY, Handled


def test_an_alarms_kind_leaves_its_details_out():
    assert alarm_kind("printer: out of paper") == "printer"
    assert alarm_kind("backlog 12") == alarm_kind("backlog 3") == "backlog"
    assert alarm_kind("clock ahead by 2 h") == "clock ahead"
    assert alarm_kind("possible split look-up (table 9 at 10:01 and 10:02)") == \
        alarm_kind("possible split look-up: 3 challenges (A and B)") == "possible split look-up"
    assert alarm_kind("runs event version 2, the hub's is 3") == "runs event version"
    assert alarm_kind("2 new stations wait for you: accept") == \
        alarm_kind("3 new stations wait for you: accept") == "new stations wait"
    assert group_of({"station": "Desk 4", "text": "silent"}) == "silent\tDesk 4"


def _alarms(*pairs) -> list[dict]:
    return [{"station": s, "text": t, **({"count": n} if n else {})} for s, t, n in pairs]


def test_a_mark_holds_until_a_new_alarm_of_its_kind_or_its_cause_ends():
    now = [0.0]
    forgotten: list[str] = []
    marks = Handled({}, lambda: now[0], forgotten.append)
    split = ("Desk 3", "possible split look-up (table 1)", 1)
    board = _alarms(("Desk 4", "silent", 0), split, split)
    assert marks.mark("possible split look-up\tDesk 3", board) == 2
    assert marks.mark("printer\tDesk 9", board) is None  # not on the board: nothing marked
    said = marks.annotate(_alarms(("Desk 4", "silent", 0), split, split))
    assert [a["handled"] for a in said] == [False, True, True]
    said = marks.annotate(_alarms(split, split, split))  # a third: a new alarm of its kind
    assert [a["handled"] for a in said] == [False, False, False]
    assert forgotten == ["possible split look-up\tDesk 3"]
    assert marks.mark("silent\tDesk 4", _alarms(("Desk 4", "silent", 0))) == 1
    assert marks.annotate(_alarms(("Desk 4", "silent", 0)))[0]["handled"]
    marks.annotate([])  # heard again: its cause ended, the mark goes
    assert not marks.annotate(_alarms(("Desk 4", "silent", 0)))[0]["handled"]  # silent again
    assert forgotten[-1] == "silent\tDesk 4"
    assert marks.mark("silent\tDesk 4", _alarms(("Desk 4", "silent", 0))) == 1
    assert marks.unmark("silent\tDesk 4") and not marks.unmark("silent\tDesk 4")


def test_a_mark_read_at_a_start_waits_a_while_for_its_group_to_show_again():
    now = [100.0]
    marks = Handled({"printer\tDesk 9": 1}, lambda: now[0])
    assert marks.annotate([]) == []  # the station not heard yet since the start: kept
    now[0] += CARRY / 2
    assert marks.annotate(_alarms(("Desk 9", "printer: out of paper", 0)))[0]["handled"]
    marks.annotate([])  # seen, then gone: its cause ended
    assert not marks.annotate(_alarms(("Desk 9", "printer: out of paper", 0)))[0]["handled"]
    late = Handled({"printer\tDesk 9": 1}, lambda: now[0])
    now[0] += CARRY + 1
    late.annotate([])
    assert not late.annotate(_alarms(("Desk 9", "printer: out of paper", 0)))[0]["handled"]


def _post(hub, body, key: str | None = None) -> tuple[int, dict]:
    key = hub.hub.director_token if key is None else key
    request = urllib.request.Request(f"{hub.local_url}/api/handled?key={key}",
                                     json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=20) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}") if "json" in (
            e.headers.get("Content-Type") or "") else {}


def _printer(hub) -> list[dict]:
    return [a for a in hub.call(hub.hub.board.snapshot)["alarms"]
            if a["text"] == "printer: out of paper"]


def test_the_director_marks_a_group_handled_and_the_hub_keeps_it(start_hub, tmp_path):
    path = tmp_path / "hub.db"
    hub = start_hub(path)
    desk = OddStation(hub.url, hub.hub.station_token, "Desk 14")
    assert desk.beat(printer="paper out")[0] == 200
    [alarm] = _printer(hub)
    group = alarm["group"]
    assert group == "printer\tDesk 14" and alarm["handled"] is False
    assert _post(hub, {"group": group}, key="wrong")[0] == 403
    assert _post(hub, {"group": 4})[0] == 400
    assert _post(hub, {"group": group, "handled": "yes"})[0] == 400
    assert _post(hub, {"group": "printer\tDesk 99"})[0] == 404
    assert _post(hub, {"group": group}) == (200, {"handled": True})
    assert _printer(hub)[0]["handled"] is True
    hub.hub.identities.accept_new = False  # a station waiting: Accept or Reject, never marked
    assert OddStation(hub.url, hub.hub.station_token, "Spare").beat()[0] == 200
    waiting = [a for a in hub.call(hub.hub.board.snapshot)["alarms"] if a.get("waiting")]
    assert _post(hub, {"group": waiting[0]["group"]})[0] == 409
    hub.stop()

    hub = start_hub(path)  # the same journal: the mark is kept
    assert hub.hub.ledger.handled() == {group: 1}
    desk.url, desk.stamp = hub.url, ""
    assert desk.beat(printer="paper out")[0] == 200
    assert _printer(hub)[0]["handled"] is True
    assert desk.beat(printer="ready")[0] == 200  # its cause ended...
    assert _printer(hub) == []
    assert desk.beat(printer="paper out")[0] == 200  # ...and returned: not handled any more
    assert _printer(hub)[0]["handled"] is False
    hub.call(lambda: None)  # the journal's writer has run the forgetting
    hub.hub._writer.submit(lambda: None).result(10)
    assert hub.hub.ledger.handled() == {}
    assert _post(hub, {"group": group}) == (200, {"handled": True})
    assert _post(hub, {"group": group, "handled": False}) == (200, {"handled": False})
    assert _printer(hub)[0]["handled"] is False and hub.hub.ledger.handled() == {}
