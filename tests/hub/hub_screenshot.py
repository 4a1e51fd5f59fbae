"""A hall of four stations (with tsh names) photographed whole: python tests/hub/hub_screenshot.py
OUT.png; --tsh-cut: with tsh's file cut mid-write, to see the page's warning. docs/hub.png, sixty
stations at 1280x800, is made by big_hall.py."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hub_process import HubProcess  # noqa: E402
from web_helpers import BROWSER_ARGS, browser_executable  # noqa: E402

from adjudicator.link.forward import Forwarder
from adjudicator.link.hubclient import post  # noqa: E402
from adjudicator.journal import Journal  # noqa: E402
from adjudicator.lexicon.compiled import FORMAT_VERSION, Lexicon, fingerprint_words  # noqa: E402
from adjudicator.judging.verdict import adjudicate  # noqa: E402

PLAYS = [("QI", "ZA"), ("CAT",), ("QI", "QQ"), ("JO", "XU"), ("ZAX",), ("CAT", "XU")]


def lexicon(tmp: Path, name: str, words) -> Lexicon:
    """A tiny list labelled like an official one (CSW24) for the picture: built by hand, as no
    path of the program makes one any more (issue 29)."""
    import marisa_trie

    header = {"format": FORMAT_VERSION, "name": name, "word_count": len(set(words)),
              "fingerprint": fingerprint_words(set(words)), "sources": []}
    return Lexicon(str(tmp / f"{name}.lex"), header, marisa_trie.Trie(words))


def hall(tmp: Path, hub: HubProcess) -> list:
    """Four stations: one with another lexicon, one out of paper, one gone silent with rows
    still waiting, and a table consulting two stations within the split window."""
    main = lexicon(tmp, "CSW24", ["QI", "ZA", "CAT", "JO", "XU"])
    other = lexicon(tmp, "NWL2023", ["QI", "ZA", "CAT", "JO"])
    beats = []
    stations = [("Station 1", main, "ready", ["3", "7", "7", "12"]),
                ("Station 2", main, "paper out", ["4", "9", "12"]),
                ("Runner desk", other, "none", ["15", "16"]),
                ("Station 3", main, "ready", ["21", "22", "23"])]
    for i, (name, lex, printer, tables) in enumerate(stations):
        path = tmp / f"s{i}.db"
        with Journal.open(path) as journal:
            journal.forward()
            for n, table in enumerate(tables):
                journal.record(adjudicate(lex, PLAYS[(i + n) % len(PLAYS)]), station=name,
                               mode="runner" if "Runner" in name else "station", table=table)
        status = {"station": name, "lexicon": lex.name, "fingerprint": lex.fingerprint,
                  "printer": printer}
        forwarder = Forwarder(str(path), hub.url, hub.token, status=lambda s=status: s)
        if name == "Station 3":
            forwarder.beat()  # heard once, then its link drops with rows unsent
            with Journal.open(path) as journal:
                for table in ("23", "24"):
                    journal.record(adjudicate(lex, ("QI",)), station=name, mode="station",
                                   table=table)
            post(hub.url, "/api/heartbeat", hub.token, {
                "journal_id": journal_id(path), "station": name, "last_seq": 5,
                "lexicon": lex.name, "fingerprint": lex.fingerprint, "printer": printer},
                key=forwarder.key)
            forwarder.stop()
        else:
            forwarder.push()
            beats.append(forwarder)
    return beats


def ghost(tmp: Path, hub: HubProcess) -> None:
    """A made-up station from another address, its name with a zero-width space (a look-alike
    of an accepted name would be refused):
    it waits in the panel (never accepted here), counted nowhere."""
    from ghosts import Ghost

    Ghost(hub.url, hub.token, bytes([7]) * 32, "127.0.0.7").beat(
        "ghost", "Station 9\u200b", lexicon="NWL2023", fingerprint="e" * 64)


def accept_all_but_one(hub: HubProcess) -> None:
    """The director accepts every station but Station 3 (shown waiting, with Accept)."""
    import json
    import urllib.request

    with urllib.request.urlopen(hub.director_url.replace("/?key=", "/state?key=")) as r:
        stations = json.loads(r.read())["waiting"]
    for station in [s for s in stations if s["name"] != "Station 3"]:
        urllib.request.urlopen(urllib.request.Request(
            hub.director_url.replace("/?key=", "/api/accept?key="), method="POST",
            data=json.dumps({"station": station["key"]}).encode()))


def journal_id(path: Path) -> str:
    with Journal.open(path) as journal:
        return journal.journal_id()


NAMES = ["Adams, Kate", "Baker, Tom", "Chen, Wei", "Diaz, Ana", "Evans, Rob", "Fox, Lily",
         "Gray, Sam", "Hill, Jo", "Ito, Ken", "Jones, Mia", "Khan, Ali", "Lopez, Eva",
         "Moore, Ian", "Ng, Sue", "Owen, Dai", "Patel, Raj", "Quinn, Amy", "Roy, Ben",
         "Shah, Nia", "Tait, Leo", "Usman, Ola", "Vance, Zoe"]


def tsh_file(tmp: Path) -> None:
    """A tsh event of two divisions in round 1, its boards placed at the hall's tables."""
    def division(name, first, boards):
        players = [None]
        for b in range(boards):
            i, j = 2 * b + 1, 2 * b + 2
            players.append({"id": i, "name": NAMES[first + 2 * b], "pairings": [j],
                            "scores": [], "etc": {"board": [b + 1]}})
            players.append({"id": j, "name": NAMES[first + 2 * b + 1], "pairings": [i],
                            "scores": [], "etc": {"board": [b + 1]}})
        return {"name": name, "players": players}
    data = {"config": {"tables": {"a": [3, 4, 7, 9, 12], "b": [15, 16, 21, 22, 23, 24]}},
            "divisions": [division("a", 0, 5), division("b", 10, 6)]}
    import json

    (tmp / "tourney.js").write_text("newt = " + json.dumps(data) + ";\n")
    (tmp / "hub.toml").write_text('journal = "hub.db"\ntsh = "tourney.js"\n')


def main(out: str, cut_tsh: bool = False) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tsh_file(Path(tmp))
        hub = HubProcess(Path(tmp) / "hub.toml")
        try:
            beats = hall(Path(tmp), hub)
            accept_all_but_one(hub)
            ghost(Path(tmp), hub)
            deadline = time.monotonic() + 16  # Station 3 heard once: silent after 15 s
            while time.monotonic() < deadline:
                for forwarder in beats:
                    forwarder.beat()
                time.sleep(2)
            if cut_tsh:
                text = (Path(tmp) / "tourney.js").read_text()
                (Path(tmp) / "tourney.js").write_text(text[:len(text) // 2])
                time.sleep(2)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=browser_executable(),
                                            args=BROWSER_ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 820})
                page.goto(hub.director_url)
                page.on("console", lambda m: print("console:", m.text))
                try:
                    page.get_by_text("printer: out of paper").first.wait_for(timeout=20_000)
                except Exception as e:  # noqa: BLE001
                    print(e)
                time.sleep(0.5)
                page.screenshot(path=out, full_page=True)
                browser.close()
        finally:
            hub.stop()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--tsh-cut"]
    main(args[0] if args else "/tmp/hub-small.png", cut_tsh="--tsh-cut" in sys.argv)
