"""The link nobody in the hall can read (issue 41 items 1 and 2): TLS with the hub's own
certificate, pinned at join; a machine in the middle refused before a byte is sent to it; the
director's page on the hub's machine only unless the director chooses otherwise."""

from __future__ import annotations

import http.client
import os
import socket
import ssl
import stat
import subprocess
import sys

import pytest
from hub_process import HubProcess, cli_env
from relay import Impostor, Relay
from test_event_join import get, lists, post, started, station_home  # noqa: F401 (fixture)

from adjudicator.config.station import load_config
from adjudicator.hub import certificate
from adjudicator.journal import Journal
from adjudicator.link import pins
from adjudicator.link.forward import Forwarder
from adjudicator.link.hubclient import HubUnreachable
from adjudicator.link.key import of_journal
from adjudicator.judging.verdict import adjudicate


def desk(path, lex, rows: int = 1) -> str:
    """A station journal at PATH with ROWS rows waiting for the hub."""
    with Journal.open(path) as journal:
        journal.forward()
        for _ in range(rows):
            journal.record(adjudicate(lex, ("ZA", "QI")), station="Desk 4", mode="station",
                           table="7")
    return str(path)


def adjudicator(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True,
                          text=True, env=cli_env(), timeout=60)


def test_a_listener_on_the_halls_network_reads_no_secret(start_hub, tmp_path, lists,  # noqa: F811
                                                         monkeypatch, run, make_lexicon):
    hub = started(start_hub, tmp_path)
    hall = Relay(hub.port)  # every byte between the station and the hub, as the hall sees it
    home = station_home(tmp_path, monkeypatch)
    through = f"https://127.0.0.1:{hall.port}"
    done = run("join", f"{through}/join?code={hub.hub.join_code}&sha256={hub.pin}",
               "--name", "Desk 4")
    assert done.exit_code == 0, done.stderr
    cfg = load_config(str(home / "config.toml"))
    assert (cfg.hub, cfg.hub_fingerprint) == (through, hub.pin)  # what join was given
    events = []
    fwd = Forwarder(desk(cfg.journal, make_lexicon(["QI", "ZA"])), cfg.hub, cfg.hub_token,
                    pin=cfg.hub_fingerprint)
    fwd.on_event = events.append
    assert fwd.push().acked == 1  # its key sent at first contact, its row taken
    panel = f"{hub.local_url}/api/event?key={hub.hub.director_token}"  # the director's machine
    import json

    state = json.loads(get(panel)[1])
    change = {"name": state["event"]["event"]["name"],
              "version": state["event"]["event"]["version"],
              "divisions": [{k: d[k] for k in ("name", "lexicon", "challenge_rule", "tables")}
                            for d in state["event"]["division"]], "pin": "739184"}
    status, body = post(panel, change)
    assert status == 200, body
    fwd.push()
    pin_hash = hub.hub.event.pin_hash
    assert pin_hash and events[-1].pin_hash == pin_hash  # the hash reached the station...
    fwd.stop()
    heard = bytes(hall.recorded)
    hall.close()
    assert heard[:1] == b"\x16" and hall.connections >= 4  # TLS records, every request
    key = of_journal(cfg.journal)
    secrets = [hub.hub.join_code, hub.hub.station_token, hub.hub.director_token, key.hex(),
               "739184", pin_hash, *[part for part in pin_hash.split("$") if len(part) >= 8]]
    for secret in secrets:  # ...and none of them crossed the hall readable
        assert secret.encode() not in heard, secret
    assert key not in heard
    for _, path in lists.values():  # nor any 24 bytes of a list the station fetched (the
        data = open(path, "rb").read()  # telling ones: runs of zeros are in any recording)
        telling = [data[i:i + 24] for i in range(0, len(data) - 24, 4)
                   if len(set(data[i:i + 24])) >= 10]
        assert len(telling) > 20 and not [w for w in telling if w in heard]


def test_a_machine_in_the_middle_is_refused_and_sent_nothing(start_hub, tmp_path,
                                                             make_lexicon):
    hub = start_hub()
    other = certificate.ensure(str(tmp_path / "impostor.db"))  # its own certificate
    middle = Impostor(other.server_context())
    path = desk(tmp_path / "desk4.db", make_lexicon(["QI", "ZA"]))
    fwd = Forwarder(path, middle.url, hub.hub.station_token, pin=hub.pin)  # the hub's pin
    with pytest.raises(HubUnreachable) as e:
        fwd.push()
    said = str(e.value)
    assert said.startswith(f"the hub https://127.0.0.1:{middle.port} is refused")
    assert other.fingerprint in said and hub.pin in said and "\n" not in said
    fwd.stop()
    assert middle.ended.acquire(timeout=10) and middle.handshakes >= 1
    assert bytes(middle.received) == b""  # not the token, not the key, not a row

    # a one-shot: `journal push` and `join` as real processes, one line, exit 4
    config = tmp_path / "desk4.toml"
    config.write_text(f'station = "Desk 4"\njournal = "desk4.db"\nhub = "{middle.url}"\n'
                      f'hub_fingerprint = "{hub.pin}"\n'
                      f'hub_token = "{hub.hub.station_token}"\n')
    pushed = adjudicator("journal", "push", "--config", str(config))
    joined = adjudicator("join", f"{middle.url}/join?code={hub.hub.join_code}&sha256="
                         f"{hub.pin}", "--config", str(tmp_path / "joined.toml"))
    for done in (pushed, joined):
        assert done.returncode == 4, done.stderr
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("adjudicator: the hub")
        assert other.fingerprint in done.stderr and hub.pin in done.stderr
        assert "machine in the middle" in done.stderr
    for _ in range(2):
        assert middle.ended.acquire(timeout=10)
    assert bytes(middle.received) == b""  # the join code neither
    assert not (tmp_path / "joined.toml").exists()
    middle.close()


def test_a_hub_made_anew_with_another_certificate_is_refused(start_hub, tmp_path,
                                                             make_lexicon):
    journal = str(tmp_path / "hub.db")
    hub = start_hub(journal)
    pin, port = hub.pin, hub.port
    lex = make_lexicon(["QI", "ZA"])
    path = desk(tmp_path / "desk4.db", lex)
    fwd = Forwarder(path, hub.url, hub.hub.station_token, pin=pin)
    assert fwd.push().acked == 1
    hub.stop()
    again = start_hub(journal, port=port)  # its certificate kept beside its journal
    assert again.pin == pin
    cert, key = certificate.paths(journal)
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    again.stop()
    for made in (cert, key):
        os.remove(made)
    anew = start_hub(journal, port=port)  # the same address, another certificate
    assert anew.pin != pin
    pins.trust(anew.url, pin)  # what the station's config still pins
    desk(path, lex)
    with pytest.raises(HubUnreachable) as e:
        fwd.push()
    assert anew.pin in str(e.value) and pin in str(e.value)
    import json

    status, body = get(f"{anew.local_url}/state?key={anew.hub.director_token}")
    assert [s["challenges"] for s in json.loads(body)["stations"]] == [1]  # the new row: kept
    fwd.stop()


def _tls_status(port: int, path: str, source: str) -> tuple[int, bytes]:
    """GET PATH over TLS from the SOURCE address (127.0.0.2: as another machine would)."""
    conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=10,
                                       source_address=(source, 0),
                                       context=ssl._create_unverified_context())
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_the_directors_page_answers_another_machine_only_when_the_director_chose_it(
        start_hub, tmp_path):
    hub = start_hub(tmp_path / "a.db")
    key = hub.hub.director_token
    for path in ("/", "/state", "/api/event"):
        assert _tls_status(hub.port, f"{path}?key={key}", "127.0.0.1")[0] == 200  # its machine
        status, body = _tls_status(hub.port, f"{path}?key={key}", "127.0.0.2")
        assert status == 403 and b"the hub's own machine only" in body, path
    assert _tls_status(hub.port, "/favicon.ico", "127.0.0.2")[0] == 204  # stations' side open
    status, _ = get(f"{hub.local_url}/state?key={key}")  # the page in clear, on loopback...
    assert status == 200
    with pytest.raises(OSError):  # ...bound to 127.0.0.1 alone: no other address reaches it
        socket.create_connection(("127.0.0.2", hub.local_port), timeout=5).close()
    chosen = start_hub(tmp_path / "b.db", director_from_anywhere=True)
    status, body = _tls_status(chosen.port, f"/state?key={chosen.hub.director_token}",
                               "127.0.0.2")
    assert status == 200 and b'"stations"' in body  # over TLS, with the director's key
    assert _tls_status(chosen.port, "/state?key=wrong", "127.0.0.2")[0] == 403


def test_a_pin_typed_on_a_panel_across_the_hall_crosses_only_inside_tls(start_hub, tmp_path,
                                                                         lists):  # noqa: F811
    import json

    hub = started(start_hub, tmp_path)
    hall = Relay(hub.port)  # the director's laptop and a second machine, the hall between
    panel = f"https://127.0.0.1:{hall.port}/api/event?key={hub.hub.director_token}"
    state = json.loads(get(panel)[1])
    change = {"name": state["event"]["event"]["name"],
              "version": state["event"]["event"]["version"],
              "divisions": [{k: d[k] for k in ("name", "lexicon", "challenge_rule", "tables")}
                            for d in state["event"]["division"]], "pin": "582046"}
    status, body = post(panel, change)
    assert status == 200, body
    heard = bytes(hall.recorded)
    hall.close()
    assert heard[:1] == b"\x16" and hub.hub.event.pin_hash
    for secret in ("582046", hub.hub.event.pin_hash, hub.hub.director_token, "api/event"):
        assert secret.encode() not in heard, secret


def test_the_hub_says_where_the_directors_page_answers(tmp_path):
    default = HubProcess(tmp_path / "hub.toml")
    try:
        assert "Director's page, on this machine only (yours: anyone with it sees every " \
               "challenge):" in default.lines
        assert default.director_url.startswith("http://127.0.0.1:")
        assert default.url.startswith("https://") and len(default.pin) == 64
        assert default.join_url.startswith(f"{default.url}/join?code=")
        assert default.join_url.endswith(f"#sha256={default.pin}")  # no & for a shell
    finally:
        default.stop()
    chosen = HubProcess(tmp_path / "hub.toml", args=("--director-from-anywhere",))
    try:
        more = [chosen.proc.stdout.readline().rstrip("\n") for _ in range(2)]
        assert more[0].startswith("--director-from-anywhere: the director's page and API also "
                                  "answer other machines, over TLS")
        assert more[1] == f"  {chosen.url}/?key={chosen.director_url.split('key=')[1]}"
        assert chosen.pin == default.pin  # the same certificate, kept beside the journal
    finally:
        chosen.stop()


def test_an_old_plain_http_config_says_to_join_again(start_hub, tmp_path, run, make_lexicon):
    lex = make_lexicon(["QI", "ZA"])
    desk(tmp_path / "desk4.db", lex)
    config = tmp_path / "desk4.toml"
    config.write_text('station = "Desk 4"\njournal = "desk4.db"\n'
                      'hub = "http://192.0.2.7:8080"\nhub_token = "abcdefgh12345678"\n')
    done = run("journal", "push", "--config", str(config))
    assert done.exit_code == 4 and done.stderr.count("\n") == 1
    assert "is set as plain http, which everyone on the hall's network can read" in done.stderr
    assert "run `adjudicator join URL` again" in done.stderr
    config.write_text(config.read_text().replace("http://", "https://"))  # no fingerprint
    done = run("journal", "push", "--config", str(config))
    assert done.exit_code != 0 and "key hub_fingerprint: missing" in done.stderr
    # plain http stays for the hub's own machine (its 127.0.0.1 listener): nothing crosses
    hub = start_hub()
    fwd = Forwarder(desk(tmp_path / "local.db", lex), hub.local_url, hub.hub.station_token)
    assert fwd.push().acked == 1
    fwd.stop()


def test_a_connection_that_never_does_its_tls_handshake_is_closed(start_hub):
    """The connection guard counts a TLS connection once its handshake is done: one that
    connects and says nothing is closed by the handshake's own limit (first_request)."""
    hub = start_hub(first_request=1.0)
    silent = socket.create_connection(("127.0.0.1", hub.port), timeout=30)
    try:
        assert silent.recv(1024) == b""  # closed by the hub, not by this test's timeout
    finally:
        silent.close()
    plain = socket.create_connection(("127.0.0.1", hub.port), timeout=30)
    try:  # plain HTTP to the stations' port: no answer in clear, the connection closed
        plain.sendall(b"GET /favicon.ico HTTP/1.1\r\nHost: hub\r\n\r\n")
        got = b""
        while chunk := plain.recv(4096):
            got += chunk
        assert b"HTTP/1.1" not in got
    except ConnectionResetError:
        pass
    finally:
        plain.close()
