"""`adjudicator hub` and `adjudicator journal push`, as a director and a station use them."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from hub_process import HubProcess, cli_env, wait_for

from adjudicator.journal import Journal
from adjudicator.judging.verdict import adjudicate


def run(*args, **kw):
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True,
                          text=True, env=cli_env(), timeout=60, **kw)


@pytest.fixture
def hub(tmp_path):
    proc = HubProcess(tmp_path / "hub.toml")
    yield proc
    proc.stop()


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def test_hub_prints_the_directors_url_and_the_two_station_lines(hub, tmp_path):
    assert (tmp_path / "hub.toml").read_text().startswith('journal = "hub.db"')
    assert hub.station_lines == [f'hub = "{hub.url}"', f'hub_fingerprint = "{hub.pin}"',
                                 f'hub_token = "{hub.token}"']
    assert status(hub.director_url) == 200
    assert status(f"{hub.local_url}/events?key={hub.token}") == 403  # the station token: no page
    assert status(f"{hub.local_url}/?key={hub.token}") == 403
    assert status(f"{hub.url}/") == 403
    assert status(f"{hub.local_url}/state?key=wrong") == 403


def test_push_sends_a_stations_rows_and_the_hub_journal_verifies(hub, tmp_path, make_lexicon):
    lex = make_lexicon(["QI", "ZA"])
    config = tmp_path / "station.toml"
    config.write_text('station = "Desk 4"\njournal = "desk4.db"\n' + "\n".join(hub.station_lines))
    with Journal.open(tmp_path / "desk4.db") as journal:
        journal.forward()
        for words in (("QI",), ("ZA", "QI"), ("QI", "QQ")):
            journal.record(adjudicate(lex, words), station="Desk 4", mode="station", table="7")
    done = run("journal", "push", "--config", str(config))
    assert done.returncode == 0, done.stderr
    assert "3 rows sent; the hub holds 3 of 3" in done.stdout
    again = run("journal", "push", "--config", str(config))
    assert "0 rows sent; the hub holds 3 of 3" in again.stdout
    hub.stop()  # the hub journal is read as any journal
    checked = run("journal", "verify", str(tmp_path / "hub.db"))
    assert checked.returncode == 0 and "intact, 3 challenges" in checked.stdout
    exported = json.loads(run("journal", "export", str(tmp_path / "hub.db"), "--format",
                              "json").stdout)
    assert [(r["station"], r["origin_seq"], r["verdict"]) for r in exported] == [
        ("Desk 4", 1, "ACCEPTABLE"), ("Desk 4", 2, "ACCEPTABLE"), ("Desk 4", 3, "UNACCEPTABLE")]


def test_push_to_a_hub_that_is_down_says_nothing_is_lost(tmp_path, make_lexicon):
    config = tmp_path / "station.toml"
    config.write_text('journal = "s.db"\nhub = "http://127.0.0.1:9"\nhub_token = "x"\n')
    with Journal.open(tmp_path / "s.db") as journal:
        journal.record(adjudicate(make_lexicon(["QI"]), ("QI",)), station="S", mode="station")
    done = run("journal", "push", "--config", str(config))
    assert done.returncode == 4
    assert "not reachable" in done.stderr and "nothing is lost" in done.stderr
    assert done.stderr.count("\n") == 1


def test_push_the_hub_refuses_exits_4_with_its_reason(hub, tmp_path, make_lexicon):
    """The hub's refusal (errors.HubRefusal at the hub: nothing failed, nothing recorded there)
    reaches the station's command as exit 4 and the hub's reason in one line, as docs/cli.md's
    table says; the rows wait in the station's journal."""
    lex = make_lexicon(["QI"])
    for desk in ("first", "second"):  # two stations, two keys, one name
        config = tmp_path / f"{desk}.toml"
        config.write_text(f'station = "Desk 4"\njournal = "{desk}.db"\n'
                          + "\n".join(hub.station_lines))
        with Journal.open(tmp_path / f"{desk}.db") as journal:
            journal.forward()
            journal.record(adjudicate(lex, ("QI",)), station="Desk 4", mode="station")
        done = run("journal", "push", "--config", str(config))
    assert done.returncode == 4, done.stderr
    assert "the station name 'Desk 4' belongs to another station's key" in done.stderr
    assert "nothing is lost" in done.stderr and done.stderr.count("\n") == 1
    with Journal.open(tmp_path / "second.db") as journal:
        assert journal.count() == 1


def test_push_without_a_hub_in_the_config_says_what_to_paste(tmp_path):
    config = tmp_path / "station.toml"
    config.write_text('journal = "s.db"\n')
    done = run("journal", "push", "--config", str(config))
    assert done.returncode == 6 and "no hub set" in done.stderr


def test_a_station_config_with_a_hub_but_no_token_is_refused(tmp_path):
    config = tmp_path / "station.toml"
    config.write_text('hub = "http://127.0.0.1:8080"\n')
    done = run("journal", "push", "--config", str(config))
    assert done.returncode == 6 and "hub_token: missing" in done.stderr


def test_a_port_in_use_is_said_in_one_line(hub, tmp_path):
    port = hub.url.rsplit(":", 1)[1]
    done = run("hub", "--host", "127.0.0.1", "--port", port, "--config",
               str(tmp_path / "other.toml"))
    assert done.returncode == 4 and done.stderr.count("\n") == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr


def test_the_hub_stops_on_ctrl_c_with_one_line(tmp_path):
    proc = HubProcess(tmp_path / "hub.toml")
    proc.proc.send_signal(2)
    assert proc.proc.wait(20) == 130
    proc.stop()
    wait_for(lambda: proc.errors)
    assert proc.errors == ["adjudicator: interrupted"]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_shutdown_or_hang_up_stops_the_hub_cleanly_with_one_line(tmp_path, sig):
    """A shutdown (SIGTERM) or a closed terminal (SIGHUP) stops the hub as Ctrl-C does, with
    exit 0 as `serve`: the journal closed (its WAL folded back in), one line said. Before, the
    process died where it stood, silently."""
    proc = HubProcess(tmp_path / "hub.toml")
    proc.proc.send_signal(sig)
    assert proc.proc.wait(20) == 0
    proc.stop()
    wait_for(lambda: proc.errors)
    assert proc.errors == [f"adjudicator: stopped ({sig.name}): every connection closed, "
                           "the hub's journal closed"]
    assert not (tmp_path / "hub.db-wal").exists()
