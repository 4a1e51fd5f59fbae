"""Stations forward: the station service's sender, its heartbeat, judge --config, the print desk."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading

import pytest
from hub_process import HubProcess, cli_env, wait_for

from adjudicator.config.station import Config, parse_config
from adjudicator.docket.queue import job_message
from adjudicator.docket.status import PAPER_OUT
from adjudicator.docket.transport import JobResult
from adjudicator.errors import ConfigError
from adjudicator.link import forward
from adjudicator.hub.board import Board
from adjudicator.station.printdesk import PrintDesk
from adjudicator.station.service import open_station


def station_config(tmp_path, hub_url: str, token: str, name: str = "Desk 1") -> Config:
    return Config(station=name, mode="station", journal=str(tmp_path / f"{name}.db"),
                  hub=hub_url, hub_token=token)


def test_config_takes_hub_and_token_and_refuses_half_of_them():
    cfg = parse_config({"hub": "http://10.0.0.2:8080/", "hub_token": "abc"})
    assert (cfg.hub, cfg.hub_token) == ("http://10.0.0.2:8080", "abc")
    with pytest.raises(ConfigError, match="hub_token: missing"):
        parse_config({"hub": "http://10.0.0.2:8080"})
    with pytest.raises(ConfigError, match="key hub: '10.0.0.2' is not an address"):
        parse_config({"hub": "10.0.0.2", "hub_token": "abc"})


def test_a_station_with_a_hub_forwards_rows_and_heartbeats(tmp_path, make_lexicon, start_hub):
    hub = start_hub()
    lex = make_lexicon(["QI", "ZA"], name="TWL-TINY")
    station = open_station(station_config(tmp_path, hub.url, hub.hub.station_token), lex)
    try:
        station.submit("qi za", table="12")
        station.submit("qi qq", table="12")
        snap = wait_for(lambda: (s := hub.call(hub.hub.board.snapshot))["tables"] and
                        s["tables"][0]["challenges"] == 2 and s)
    finally:
        station.close()
    [desk] = snap["stations"]
    assert desk["name"] == "Desk 1" and desk["lexicon"] == "TWL-TINY"
    assert desk["fingerprint"] == lex.fingerprint[:12] and desk["printer"] == "none"
    assert desk["acked"] == 2 and desk["address"] == "127.0.0.1"
    assert desk["alarms"] == []
    table = dict(snap["tables"][0])
    assert [e["words"] for e in table.pop("recent")] == ["QI QQ", "QI ZA"]
    assert table == {"key": "12", "table": "12", "whole": "12", "challenges": 2,
                     "acceptable": 1, "unacceptable": 1, "last": table["last"], "players": "",
                     "devices": [{"name": "Desk 1", "whole": "Desk 1", "challenges": 2,
                                  "new": False}], "more_devices": 0}
    assert [e["verdict"] for e in snap["latest"]] == ["UNACCEPTABLE", "ACCEPTABLE"]


def test_a_hub_that_hangs_never_holds_a_verdict(tmp_path, make_lexicon):
    """The sender is on its own thread: with its request stuck in a hub that accepts and never
    answers, the station still judges and records (the journal has every row)."""
    hang = socket.socket()
    hang.bind(("127.0.0.1", 0))
    hang.listen(8)
    accepted = threading.Event()
    held = []

    def accept():
        try:
            conn, _ = hang.accept()
            held.append(conn)
            accepted.set()
        except OSError:
            pass
    threading.Thread(target=accept, daemon=True).start()
    url = f"http://127.0.0.1:{hang.getsockname()[1]}"
    station = open_station(station_config(tmp_path, url, "t"), make_lexicon(["QI"]))
    try:
        assert accepted.wait(20)  # the sender is now stuck in its request
        outcomes = [station.submit("qi") for _ in range(5)]
        assert all(o.recorded for o in outcomes) and station.journal.count() == 5
    finally:
        station.close()
        forward.stop_all(wait=0)
        for c in held:
            c.close()
        hang.close()


def test_rows_recorded_while_the_hub_was_down_arrive_when_it_comes_up(tmp_path, make_lexicon,
                                                                      start_hub):
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    station = open_station(station_config(tmp_path, f"http://127.0.0.1:{port}", "later"),
                           make_lexicon(["QI"]))
    try:
        for _ in range(3):
            station.submit("qi")
        hub = start_hub(port=port)
        forward.forward_journal(station.config.journal, hub.url, hub.hub.station_token)
        wait_for(lambda: hub.hub.ledger.journal.count() == 3)
    finally:
        station.close()


def test_the_print_desk_tells_the_heartbeat_what_the_printer_said(tmp_path, make_lexicon):
    station = open_station(Config(journal=str(tmp_path / "s.db")), make_lexicon(["QI"]))
    desk = PrintDesk(station)
    seen = []
    noted = desk._noting_state(lambda seq, ok, message: seen.append(ok))
    noted(3, False, job_message(3, JobResult(ok=False, problems=(PAPER_OUT,))))
    assert station.printer_state == "paper out" and seen == [False]
    board = Board()
    board.heartbeat("j1", {"station": "Desk 1", "printer": station.printer_state})
    assert "printer: out of paper" in board.snapshot()["stations"][0]["alarms"]
    noted(4, True, job_message(4, JobResult(ok=True)))
    assert station.printer_state == "ready"
    station.close()


def run_judge(*args):
    return subprocess.run([sys.executable, "-m", "adjudicator", "judge", *args],
                          capture_output=True, text=True, env=cli_env(), timeout=60)


def test_judge_with_a_config_records_as_the_station_and_forwards(tmp_path, make_lexicon):
    lex = make_lexicon(["QI", "ZA"])
    hub = HubProcess(tmp_path / "hub.toml")
    try:
        config = tmp_path / "runner.toml"
        config.write_text(f'station = "Runner desk"\nmode = "runner"\nlexicon = "{lex.path}"\n'
                          'journal = "runner.db"\n' + "\n".join(hub.station_lines) + "\n")
        done = run_judge("--config", str(config), "--table", "5", "qi", "za")
        assert (done.returncode, done.stdout) == (0, "ACCEPTABLE\n")
        assert done.stderr.startswith("adjudicator: warning: UNRECOGNISED WORD LIST")  # issue 29
        assert done.stderr.count("\n") == 1
        hub.stop()
        from adjudicator.journal import export_journal
        import json
        rows = json.loads(export_journal(str(tmp_path / "hub.db"), "json"))
        assert [(r["station"], r["mode"], r["table"], r["words"]) for r in rows] == [
            ("Runner desk", "runner", "5", ["QI", "ZA"])]
    finally:
        hub.stop()


def test_judge_with_a_config_whose_hub_is_down_still_judges(tmp_path, make_lexicon):
    lex = make_lexicon(["QI"])
    config = tmp_path / "runner.toml"
    config.write_text(f'lexicon = "{lex.path}"\njournal = "r.db"\n'
                      'hub = "http://127.0.0.1:9"\nhub_token = "x"\n')
    done = run_judge("--config", str(config), "qi", "qq")
    assert done.returncode == 1 and done.stdout == "UNACCEPTABLE\n"
    assert "not reachable" in done.stderr and "journal push --config" in done.stderr


def test_the_kiosk_and_runners_desk_forward_through_the_station_service(tmp_path, make_lexicon,
                                                                       start_hub):
    from kiosk.app import build_app

    hub = start_hub()
    for mode in ("station", "runner"):
        cfg = Config(station=f"K-{mode}", mode=mode, journal=str(tmp_path / f"{mode}.db"),
                     hub=hub.url, hub_token=hub.hub.station_token)
        app = build_app(cfg, make_lexicon(["QI"]))
        app.station.submit("qi")
        app.station.close()
    names = wait_for(lambda: len(s := hub.call(hub.hub.board.snapshot)["stations"]) == 2 and
                     {x["name"] for x in s})
    assert names == {"K-station", "K-runner"}
    wait_for(lambda: hub.hub.ledger.journal.count() == 2)


def test_a_deferred_journal_starts_forwarding_when_it_opens(tmp_path, make_lexicon, start_hub):
    """The kiosk's first paint imports no network code: the sender starts with the journal."""
    hub = start_hub()
    cfg = station_config(tmp_path, hub.url, hub.hub.station_token, "Deferred")
    station = open_station(cfg, make_lexicon(["QI"]), defer_journal=True)
    key = str(tmp_path / "Deferred.db")
    assert key not in forward._running
    station.submit("qi")  # opens the journal first, then judges
    assert key in forward._running
    wait_for(lambda: hub.hub.ledger.journal.count() == 1)
    station.close()


def test_before_the_journal_opens_nothing_of_the_network_is_imported(tmp_path, make_lexicon):
    lex = make_lexicon(["QI"])
    code = ("import sys\nfrom adjudicator.config.station import Config\n"
            "from adjudicator.lexicon.compiled import Lexicon\nfrom adjudicator.station.service import open_station\n"
            f"cfg = Config(journal={str(tmp_path / 'k.db')!r}, hub='http://127.0.0.1:9', "
            "hub_token='t')\n"
            f"station = open_station(cfg, Lexicon.load({lex.path!r}), defer_journal=True)\n"
            "print(sorted(m for m in ('adjudicator.link.forward', 'urllib.request', 'sqlite3')"
            " if m in sys.modules))\n"
            "station.journal\nprint('adjudicator.link.forward' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=cli_env(), timeout=60)
    assert done.stdout.splitlines() == ["[]", "True"], done.stderr


def test_the_phone_server_forwards_every_phones_row(tmp_path, make_lexicon, start_hub):
    import asyncio
    import io
    import json as json_

    from aiohttp.test_utils import TestClient, TestServer

    from adjudicator.net.token import TokenStore
    from adjudicator.phone.build import build_phone_app

    hub = start_hub()
    lex = make_lexicon(["QI", "ZA"], name="PHONE-TINY")
    cfg = Config(station="Phones", lexicon=str(lex.path), journal=str(tmp_path / "phones.db"),
                 hub=hub.url, hub_token=hub.hub.station_token)
    tokens = TokenStore(str(tmp_path / "event.token"))
    token = tokens.ensure()
    phone = build_phone_app(cfg, tokens=tokens, out=io.StringIO())

    async def judge(text: str) -> None:
        async with TestClient(TestServer(phone.make_app())) as client:
            client.session.cookie_jar.update_cookies({"adjudicator_token": token})
            assert (await client.get("/")).status == 200
            ws = await client.ws_connect("/ws")
            await ws.receive()
            await ws.send_str(json_.dumps({"t": "table", "table": "9", "round": "1"}))
            await ws.send_str(json_.dumps({"t": "judge", "text": text}))
            while "verdict" not in json_.loads((await ws.receive()).data):
                pass
            await ws.close()

    try:
        asyncio.run(judge("qi za"))
        snap = wait_for(lambda: (s := hub.call(hub.hub.board.snapshot))["latest"] and s)
    finally:
        phone.close()
    [entry] = snap["latest"]
    assert entry["station"].startswith("Phones / ") and entry["table"] == "9"
    [station] = snap["stations"]
    assert (station["name"], station["mode"], station["lexicon"]) == (
        "Phones", "smart-device", "PHONE-TINY")


def test_the_directors_save_keeps_the_hub_lines(tmp_path):
    from adjudicator.config.station import load_config
    from adjudicator.config.save import save_config

    path = tmp_path / "station.toml"
    path.write_text('station = "Desk 1"\n# from the hub\nhub = "http://10.0.0.2:8080"\n'
                    'hub_token = "abc"\n')
    save_config(load_config(str(path)).with_changes(station="Desk 9"))
    again = load_config(str(path))
    assert (again.station, again.hub, again.hub_token) == ("Desk 9", "http://10.0.0.2:8080",
                                                            "abc")
    assert "# from the hub" in path.read_text()
