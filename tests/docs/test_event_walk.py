"""docs/event.md walked as a director follows it (issue 44 item 6): its commands read out of its
code blocks and run against a real `adjudicator hub`, each machine an empty folder of its own,
and what they print compared with what the page shows (doc_blocks.py says how). A command that
fails, or prints otherwise than shown, fails the walk: the page and the program cannot drift.

An event takes only official lists. With $ADJUDICATOR_TEST_LEXICONS the walk adds the real
CSW19 and NWL2020; without, small lists stand in for them (walk_program.py: the same names and
editions, the program told their fingerprints are the official ones), and their fingerprints
are read as the real ones where the page shows them."""

from __future__ import annotations

import asyncio
import csv
import json
import re
import shutil
import sys
import tomllib
import warnings
from pathlib import Path
from urllib.parse import urlsplit

from doc_blocks import argv, as_the_doc_says, differences, run_of, steps
from machines import REPO, Machine, director_get, director_post, wait_for
from realdata import real_lexicons_dir

DOC = REPO / "docs" / "event.md"
HUB_DOC = REPO / "docs" / "hub.md"
PIN = "975310"
JOIN_SHOWN = "https://192.168.1.20:8080/join?code=...#sha256=..."
STAND_INS = {"CSW19": "CAT QI ZA ZO", "NWL2020": "CAT QI ZA"}  # ZO: CSW19's only, as for real


PROGRAM = [sys.executable, str(Path(__file__).with_name("walk_program.py"))]
ASK_WAIT = "10"  # seconds a one-shot judge gives its hub here (walk_program.py says why)


def the_lists(folder: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The event's lists put in FOLDER as CSW19.txt and NWL2020.txt ("from your licensed
    copy"): (the environment walk_program.py is run with, {a stand-in's short fingerprint: the
    real list's}); the real lists when at hand, else the stand-ins."""
    real = real_lexicons_dir()
    if real is not None and all((Path(real) / f"{n}.txt").is_file() for n in STAND_INS):
        for name in STAND_INS:
            shutil.copy(Path(real) / f"{name}.txt", folder / f"{name}.txt")
        return {"WALK_ASK_WAIT": ASK_WAIT}, {}
    from adjudicator.lexicon.compiled import fingerprint_words
    from adjudicator.lexicon.known import by_id

    entries, said = [], {}
    for name, words in STAND_INS.items():
        (folder / f"{name}.txt").write_text("\n".join(words.split()) + "\n")
        official = by_id(name)
        fingerprint = fingerprint_words(words.split())
        entries.append({**official._asdict(), "words": len(words.split()),
                        "fingerprint": fingerprint})
        said[fingerprint[:12]] = official.fingerprint[:12]
    return {"WALK_ASK_WAIT": ASK_WAIT, "WALK_STAND_INS": json.dumps(entries)}, said


class Walk:
    """The director, the stations and the phones of docs/event.md, step by step."""

    def __init__(self, tmp_path: Path):
        self.tmp = tmp_path
        (tmp_path / "director").mkdir()
        self.env, lists_said = the_lists(tmp_path / "director")
        self.director = self.machine("the director's laptop", tmp_path / "director")
        self.machines: dict[str, Machine] = {}
        self.section, self.current = "", None
        self.said = {str(self.director.folder): "/srv/event",  # the test's value -> the doc's
                     **lists_said}
        self.printed: list[str] | None = None
        self.hub = self.serve = None
        self.hub_toml = False
        self.judged, self.accepted, self.done = 0, [], []

    # -- the page's steps ------------------------------------------------------------------

    def take(self, step) -> None:
        if step.section != self.section:
            self.section, self.current = step.section, None
        if step.kind == "toml" and not self.hub_toml:  # the first: the event's hub.toml
            (self.director.folder / "hub.toml").write_text("\n".join(step.lines) + "\n")
            self.hub_toml = True
        elif step.kind == "sh" and step.not_run:
            for command in step.commands:  # not run here: its options at least are the program's
                if command.startswith("adjudicator "):
                    code, out = self.director.run(argv(command)[1:] + ["--help"])
                    assert code == 0, f"{command}: {out}"
        elif step.kind == "sh":
            self.printed = []
            for command in step.commands:
                self.printed += self.command(command)
        elif step.kind == "out":
            assert self.printed is not None, f"output shown before any command: {step.lines}"
            problems = differences(step.lines, as_the_doc_says(self.printed, self.said))
            assert not problems, f"{self.section}: " + "\n".join(problems)
        elif step.kind == "walk":
            getattr(self, "do_" + re.sub(r"\W+", "_", step.action).strip("_").lower())()
            self.done.append(step.action)

    def command(self, command: str) -> list[str]:
        assert command.startswith("adjudicator "), command
        if self.hub is not None:
            command = command.replace(JOIN_SHOWN, self.join_url)
            command = command.replace("https://192.168.1.20:8080", self.hub_url)
        assert "..." not in command, f"the walk cannot fill in {command!r}"
        args = argv(command)[1:]
        machine = self.where(args)
        if args[0] == "hub":
            return self.start_hub(machine, args)
        if args[0] == "serve":
            self.serve = machine.start(args + ["--port", "0"], "Press Ctrl+C to stop.")
            self.serve_url = re.search(r"(http://\S+/\?token=\S+)", "\n".join(
                self.serve.lines)).group(1)
            self.said[urlsplit(self.serve_url).netloc] = "192.168.1.21:8000"
            return self.serve.lines
        code, out = machine.run(args, f"{PIN}\n{PIN}\n" if args[0] == "set-pin" else "")
        verdict = args[0] == "judge" and code == 1 and "UNACCEPTABLE" in out
        assert code == 0 or verdict, f"{command} (on {machine.name}): exit {code}\n" + \
            "\n".join(out)
        self.judged += args[0] == "judge" and "--config" in args
        return out

    def where(self, args: list[str]) -> Machine:
        """The machine a command runs on: a new one for `join --name N`, else the one holding
        a file it names, else the section's last joined, else the director's laptop."""
        if args[0] == "join":
            name = args[args.index("--name") + 1]
            folder = self.tmp / re.sub(r"\W+", "-", name.lower())
            self.current = self.machines[name] = self.machine(name, folder)
            return self.current
        for machine in [self.director, *self.machines.values()]:
            if machine.holds(args[1:]):
                return machine
        return self.current or self.director

    def machine(self, name: str, folder: Path) -> Machine:
        return Machine(name, folder, PROGRAM, self.env)

    def start_hub(self, machine: Machine, args: list[str]) -> list[str]:
        self.hub = machine.start(args + ["--port", "0"], "/?key=")
        text = "\n".join(self.hub.lines)
        self.join_url = re.search(r"adjudicator join (\S+)", text).group(1)
        self.hub_url = re.search(r'hub = "(https://[^"]+)"', text).group(1)
        self.director_url = re.search(r"(http://127\.0\.0\.1:\d+/\?key=\S+)", text).group(1)
        self.said[urlsplit(self.hub_url).netloc] = "192.168.1.20:8080"
        self.said[urlsplit(self.director_url).netloc] = "127.0.0.1:8081"
        return self.hub.lines

    # -- the director's other steps (`<!-- walk: ... -->`) ---------------------------------

    def do_accept(self) -> None:
        """Accept on the page, as its button does, for the station the section set up (and any
        other of the walk's waiting): each shows with its name and the address it came from."""
        expected = self.current.name
        waiting = wait_for(lambda: (w := director_get(self.director_url, "/state")["waiting"])
                           and expected in [s["name"] for s in w] and w,
                           what=f"{expected} waiting for the director")
        for station in waiting:
            assert station["name"] in self.machines, station  # only the walk's own stations
            assert station["address"], station
            said = director_post(self.director_url, "/api/accept", {"station": station["key"]})
            assert said.get("accepted") == station["key"], said
            self.accepted.append(station["name"])

    def do_a_phone_judges(self) -> None:
        """A phone on the hall's network opens the address `serve` printed, chooses table 25
        (division B: NWL2020) and judges ZO."""
        from adjudicator.net.announce import lan_address

        host = urlsplit(self.serve_url).hostname
        if lan_address() != "127.0.0.1":
            assert not host.startswith("127."), self.serve_url  # phones reach it, not only this
        else:
            warnings.warn("this machine has no address but loopback: the phone server was "
                          "reached on 127.0.0.1 only")
        verdict = asyncio.run(phone_judges(self.serve_url, "25", "zo"))
        assert verdict["acceptable"] is False and "NWL2020" in verdict["lexicon"], verdict
        self.judged += 1

    def do_ctrl_c(self) -> None:
        """Once the hub holds every row (the page: no backlog), Ctrl-C the phone server, then
        the hub: each closes and says so in one line, exit 130."""
        wait_for(lambda: sum(s["challenges"] for s in director_get(
            self.director_url, "/state")["stations"]) == self.judged,
                 what=f"the hub holding all {self.judged} challenges")
        for running in (self.serve, self.hub):
            assert running.interrupt() == (130, "adjudicator: interrupted")

    def stop_all(self) -> None:
        for running in (self.serve, self.hub):
            if running is not None:
                running.kill()


async def phone_judges(url: str, table: str, words: str) -> dict:
    """A phone: the token's address opened (it moves into a cookie), its table chosen, WORDS
    typed and ADJUDICATE tapped; the verdict it is shown."""
    import aiohttp

    base = url.split("/?token=")[0]
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        async with session.get(url) as page:
            assert page.status == 200, page.status
        async with session.ws_connect(base + "/ws") as ws:
            await ws.send_str(json.dumps({"t": "table", "table": table}))
            await ws.send_str(json.dumps({"t": "judge", "text": words}))
            while True:
                frame = json.loads((await ws.receive(timeout=30)).data)
                if frame.get("t") == "state" and "verdict" in frame:
                    return frame["verdict"]


def test_a_director_follows_docs_event_md_from_an_empty_laptop_to_the_events_end(tmp_path):
    walk = Walk(tmp_path)
    try:
        for step in steps(DOC.read_text(encoding="utf-8")):
            walk.take(step)
    finally:
        walk.stop_all()
    # every step the page names was taken: the stations and the phones accepted, a phone
    # judged, the hub stopped
    assert walk.done == ["accept", "accept", "a phone judges", "Ctrl-C"]
    assert sorted(walk.accepted) == ["Desk 9", "Phones"]
    folder = walk.director.folder
    with open(folder / "club-open-2026.csv", newline="", encoding="utf-8") as f:
        rows = [(r["station"].split(" / ")[0], r["table"], r["words"], r["verdict"],
                 r["accepted"], r["hub_check"]) for r in csv.DictReader(f)]
    assert rows == [("Desk 9", "7", "QI ZA", "ACCEPTABLE", "yes", "agrees"),
                    ("Desk 9", "25", "ZO", "UNACCEPTABLE", "yes", "agrees"),
                    ("Phones", "25", "ZO", "UNACCEPTABLE", "yes", "agrees")]
    assert (folder / "club-open-2026.db").is_file()  # the copy to take away
    with open(folder / "hub.toml", "rb") as f:
        pin_hash = tomllib.load(f)["event"]["pin_hash"]
    desk9 = walk.machines["Desk 9"]
    with open(desk9.folder / "desk9.toml", "rb") as f:
        assert tomllib.load(f)["pin_hash"] == pin_hash  # accepted: the director's PIN came
    code, said = desk9.run(["journal", "verify", "desk9.db"])  # each station's own record
    assert code == 0 and said[0].startswith("desk9.db: intact, 2 challenges"), said
    phones = walk.machines["Phones"]
    code, said = phones.run(["journal", "verify", "phones.db"])
    assert code == 0 and said[0].startswith("phones.db: intact, 1 challenge"), said
    # docs/hub.md's event lines are what this hub printed
    shown = [s.lines for s in steps(HUB_DOC.read_text(encoding="utf-8"))
             if s.kind == "out" and s.lines[0].startswith("Event:")]
    assert len(shown) == 1
    assert run_of(shown[0], as_the_doc_says(walk.hub.lines, walk.said)), shown[0]
