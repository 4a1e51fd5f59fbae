"""docs/hub.md's commands and shown outputs are what a real `adjudicator hub` takes and prints
(issue 44 item 6): its start commands' options, its start-up lines without an event, and the one
line a station says of a hub made anew. The event's lines are compared by test_event_walk.py,
which starts a hub with one; a shown output no test makes fails here."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from doc_blocks import argv, as_the_doc_says, differences, steps
from machines import REPO, Machine

DOC = REPO / "docs" / "hub.md"


def shown(starting: str) -> list[str]:
    """The one output block of hub.md whose first line starts with STARTING."""
    blocks = [s.lines for s in steps(DOC.read_text(encoding="utf-8"))
              if s.kind == "out" and s.lines[0].startswith(starting)]
    assert len(blocks) == 1, (starting, blocks)
    return blocks[0]


def test_every_output_hub_md_shows_is_checked_by_a_test():
    outs = [s.lines[0] for s in steps(DOC.read_text(encoding="utf-8")) if s.kind == "out"]
    assert [re.sub(r" .*", "", first) for first in outs] == ["No", "Event:", "adjudicator:"]


def test_hub_md_start_commands_take_their_options(tmp_path):
    machine = Machine("the director's laptop", tmp_path / "director")
    [block] = [s for s in steps(DOC.read_text(encoding="utf-8"))
               if s.kind == "sh" and s.section == "Starting it"]
    for command in block.commands:
        code, said = machine.run(argv(command)[1:] + ["--help"])
        assert code == 0, (command, said)


def test_a_hub_without_an_event_prints_what_hub_md_shows_and_a_hub_made_anew_is_refused(
        tmp_path):
    director = Machine("the director's laptop", tmp_path / "director")
    (director.folder / "hub.toml").write_text('journal = "hub.db"\n')
    hub = director.start(["hub", "--config", "hub.toml", "--port", "0"], "/?key=")
    try:
        text = "\n".join(hub.lines)
        url = re.search(r'hub = "(https://[^"]+)"', text).group(1)
        director_url = re.search(r"http://(127\.0\.0\.1:\d+)/", text).group(1)
        said = {str(director.folder): "/srv/event", urlsplit(url).netloc: "192.168.1.20:8080",
                director_url: "127.0.0.1:8081"}
        problems = differences(shown("No event set"), as_the_doc_says(hub.lines, said))
        assert not problems, "\n".join(problems)
        # a station set up with the three lines it printed records a challenge and sends it
        station = Machine("Desk 1", tmp_path / "desk-1")
        lines = [line.strip() for line in hub.lines if line.strip().startswith(
            ("hub =", "hub_fingerprint =", "hub_token ="))]
        (station.folder / "desk1.toml").write_text('station = "Desk 1"\njournal = "desk1.db"\n'
                                                   + "\n".join(lines) + "\n")
        code, out = station.run(["judge", "--config", "desk1.toml", "cat"])
        assert code == 0, out
    finally:
        assert hub.interrupt()[0] == 130
    # a hub made anew (its certificate not the one the station pinned) at the same address
    anew = Machine("another laptop", tmp_path / "anew")
    (anew.folder / "hub.toml").write_text('journal = "hub.db"\n')
    other = anew.start(["hub", "--config", "hub.toml", "--port", str(urlsplit(url).port)],
                       "/?key=")
    try:
        code, out = station.run(["journal", "push", "--config", "desk1.toml"])
    finally:
        other.interrupt()
    assert code == 4
    problems = differences(shown("adjudicator: the hub"), as_the_doc_says(out, said))
    assert not problems, "\n".join(problems)
