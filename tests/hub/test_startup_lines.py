"""What `adjudicator hub` says at start is what docs/event.md shows (issue 33 item 8), and on a
24-line terminal the director's page is still on screen after the QR code of the join line."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.event.setup import parse_event
from adjudicator.lexicon.known import by_id

DOCS = Path(__file__).resolve().parents[2] / "docs" / "event.md"
QR = "(the join line as a QR code)"  # what the docs show in place of the code's blocks


def docs_sample() -> list[str]:
    """The start-up lines docs/event.md shows: its code block that starts with "Event:"."""
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", text, re.S | re.M)
    return next(b for b in blocks if b.startswith("Event: ")).splitlines()


def started(tmp_path, monkeypatch) -> list[str]:
    from adjudicator.event.pin import hash_event_pin

    pin_hash = hash_event_pin("975310")  # set under the 6-digit rule: no warning line
    event = parse_event({"name": "Club Open 2026", "pin_hash": pin_hash, "version": 1}, [
        {"name": "A", "lexicon": "CSW19", "fingerprint": by_id("CSW19").fingerprint,
         "tables": "1-20"},
        {"name": "B", "lexicon": "NWL2020", "fingerprint": by_id("NWL2020").fingerprint,
         "challenge_rule": "double", "tables": "21-40"}])

    class Hub:
        station_token, director_token, join_code = "S" * 22, "D" * 22, "J" * 16
        director_port = 8081

        class certificate:  # noqa: N801 - as the hub's Certificate reads
            fingerprint = "C" * 64

    Hub.event = event

    async def serve(journal, host, port, ready, tsh="", **kwargs):
        ready(Hub, port)

    monkeypatch.setattr("adjudicator.hub.run.serve", serve)
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\n')
    done = CliRunner().invoke(main, ["hub", "--config", str(tmp_path / "hub.toml"),
                                     "--host", "192.168.1.20", "--port", "8080"])
    assert done.exit_code == 0, done.output
    return done.output.splitlines()


def test_the_start_up_lines_are_the_docs_sample(tmp_path, monkeypatch):
    lines = started(tmp_path, monkeypatch)
    qr = [i for i, line in enumerate(lines) if set(line) <= set("█▀▄ ") and line.strip()]
    assert qr == list(range(qr[0], qr[-1] + 1))  # one block of the code
    said = lines[:qr[0]] + [QR] + lines[qr[-1] + 1:]
    said = [line.replace(str(tmp_path), "/srv/event") for line in said]
    said = [re.sub(r"(S{22}|D{22}|J{16}|C{64})", "...", line) for line in said]
    assert said == docs_sample()


def test_the_directors_page_stays_on_a_24_line_terminal_after_the_qr_code(tmp_path,
                                                                         monkeypatch):
    lines = started(tmp_path, monkeypatch)
    qr = [i for i, line in enumerate(lines) if set(line) <= set("█▀▄ ") and line.strip()]
    shown = lines[-24:]  # what a 24-line terminal shows once the hub has started
    assert lines[qr[-1] + 1:] == [
        "Director's page, on this machine only (yours: anyone with it sees every challenge):",
        f"  http://127.0.0.1:8081/?key={'D' * 22}"]
    assert lines[-1] in shown and lines[-2] in shown


def test_hub_help_names_the_event():
    said = CliRunner().invoke(main, ["hub", "--help"]).output
    assert "[event]" in said and "[[division]]" in said
