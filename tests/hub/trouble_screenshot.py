"""The director's page in trouble, photographed: python tests/hub/trouble_screenshot.py OUT_DIR
[--engines chromium,webkitgtk,firefox]. A hall at an event of two divisions with eight alarms
(rows judged with the wrong list, a station on another list, one behind the event's version, a
silent one, one not locked, a station waiting, split look-ups at one table), hostile tsh names and
challenge words; one PNG per engine and width (390, 768, 1280, 1920), the first screen only (and
the whole page in chromium). The page's own checks live in test_director_trouble.py."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from running_hub import RunningHub  # noqa: E402
from odd_station import OddStation  # noqa: E402

from adjudicator.event.setup import Division, Event  # noqa: E402
from adjudicator.hub import eventalarms  # noqa: E402
from adjudicator.judging.rules import ChallengeRule  # noqa: E402
from adjudicator.wire import list_entry  # noqa: E402

SIZES = ((390, 844), (768, 1024), (1280, 800), (1920, 1080))
CSW, NWL, OLD = "c5" * 32, "a3" * 32, "0d" * 32
EVENT = Event("Club Open 2026", (
    Division("A", "CSW24", ChallengeRule.WORD5, ((1, 20),), CSW),
    Division("B", "NWL2023", ChallengeRule.DOUBLE, ((21, 40),), NWL)), version=3)
HOSTILE = ["Adams\u202eetaK", "Baker\u200b Tom", "Chen\x00Wei", "Diaz\x1b[2JAna"]


def tsh_file(folder: Path) -> Path:
    """A tsh event whose board 1 players hold a bidi override, a zero-width space, NUL, ESC."""
    def division(name, names):
        players = [None]
        for b in range(len(names) // 2):
            i, j = 2 * b + 1, 2 * b + 2
            players.append({"id": i, "name": names[2 * b], "pairings": [j], "scores": [],
                            "etc": {"board": [b + 1]}})
            players.append({"id": j, "name": names[2 * b + 1], "pairings": [i], "scores": [],
                            "etc": {"board": [b + 1]}})
        return {"name": name, "players": players}
    data = {"config": {"tables": {"a": [9, 3], "b": [25, 26]}},
            "divisions": [division("a", HOSTILE), division("b", ["Evans, Rob", "Fox, Lily",
                                                                 "Gray, Sam", "Hill, Jo"])]}
    path = folder / "tourney.js"
    path.write_text("newt = " + json.dumps(data) + ";\n")
    return path


def hall(hub: RunningHub) -> None:
    """Stations in every kind of trouble, and rows to match (in-process: the hub's waits are
    shortened so silent and behind show at once)."""
    board = hub.hub.board
    board.silent_after = 3.0  # (and eventalarms.BEHIND_AFTER 0, set by the caller)
    hub.call(setattr, hub.hub, "event", EVENT)
    now = datetime.now(timezone.utc)

    def at(seconds: float) -> dict:
        when = now + timedelta(seconds=seconds)
        return {"time_utc": when.isoformat(), "time_local": when.isoformat()}

    a = [list_entry("A", "CSW24", CSW, "5-per-word")]
    b_ok, b_old = list_entry("B", "NWL2023", NWL, "double"), list_entry("B", "NWL2020", OLD,
                                                                         "double")
    beat = {"locked": "yes", "event_version": "3", "divisions": "A"}
    desks = {
        "Desk 1": (beat, a), "Desk 2": ({**beat, "locked": "no"}, a),
        "Desk 5": ({**beat, "event_version": "2"}, a),
        "Desk 7": ({**beat, "divisions": "B"}, [b_old]),
        "Phones": ({**beat, "divisions": "A,B"}, a + [b_ok]),
        "Desk 4": (beat, a)}
    stations = {}
    for name, (said, lists) in desks.items():
        st = stations[name] = OddStation(hub.url, hub.hub.station_token, name)
        st.beat(**said, lists=lists, lexicon=lists[0]["lexicon"],
                fingerprint=lists[0]["fingerprint"], printer="ready", mode="station")
    sends = [
        ("Desk 1", dict(game_table="9", **at(0))),
        ("Desk 2", dict(game_table="9", **at(20))),
        ("Desk 1", dict(game_table="9", **at(40))),
        ("Desk 2", dict(game_table="9", **at(60))),
        ("Desk 1", dict(game_table="3", words="QI" + "\u0301" * 40 + " ZA", **at(70))),
        ("Desk 7", dict(game_table="25", lexicon_name="NWL2020", fingerprint=OLD,
                        rule="double", **at(80))),
        ("Desk 7", dict(game_table="26", lexicon_name="NWL2020", fingerprint=OLD,
                        rule="double", acceptable=0, **at(90))),
        ("Phones", dict(game_table="21", station="Phones / phone-22d9d1",
                        lexicon_name="NWL2023", fingerprint=NWL, rule="double", **at(100))),
    ]
    for name, fields in sends:
        fields.setdefault("lexicon_name", "CSW24")
        fields.setdefault("fingerprint", CSW)
        fields.setdefault("rule", "5-per-word")
        status, answer = stations[name].send(**fields)
        assert status == 200, answer
    hub.hub.identities.accept_new = False
    waiting = OddStation(hub.url, hub.hub.station_token, "Spare laptop")
    waiting.beat(lists=a, locked="yes", event_version="3")
    time.sleep(3.5)  # Desk 4 falls silent; the others beat again
    for name, (said, lists) in desks.items():
        if name != "Desk 4":
            stations[name].beat(**said, lists=lists, lexicon=lists[0]["lexicon"],
                                fingerprint=lists[0]["fingerprint"], printer="ready",
                                mode="station")


def shoot(out: Path, engines: list[str]) -> list[Path]:
    taken = []
    with tempfile.TemporaryDirectory() as tmp:
        hub = RunningHub(str(Path(tmp) / "hub.db"), tsh=str(tsh_file(Path(tmp))))
        eventalarms.BEHIND_AFTER = 0.0  # this process only: a picture, not a test
        try:
            hall(hub)
            url = f"{hub.local_url}/?key={hub.hub.director_token}"
            for name in engines:
                taken += _engine(name, url, out, hub)
        finally:
            hub.stop()
    return taken


def _engine(name: str, url: str, out: Path, hub: RunningHub) -> list[Path]:
    taken = []
    if name == "chromium":
        from playwright.sync_api import sync_playwright
        from web_helpers import BROWSER_ARGS, browser_executable

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=browser_executable(),
                                        args=BROWSER_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(url)
            page.get_by_text("judged with NWL2020").first.wait_for(timeout=20_000)
            for width, height in SIZES:
                keep_alive(hub)
                page.set_viewport_size({"width": width, "height": height})
                page.evaluate("window.scrollTo(0, 0)")
                page.wait_for_timeout(400)
                for full in (False, True):
                    path = out / f"chromium-{width}{'-full' if full else ''}.png"
                    page.screenshot(path=str(path), full_page=full)
                    taken.append(path)
                if width < 1000:  # each part whole, to look at closely
                    for i in range(page.locator("main > section").count()):
                        part = page.locator("main > section").nth(i)
                        if part.is_visible():
                            path = out / f"chromium-{width}-part{i}.png"
                            part.screenshot(path=str(path))
                            taken.append(path)
            browser.close()
        return taken
    from engines import start_firefox, start_webkit

    page, stop = (start_webkit if name == "webkitgtk" else start_firefox)()
    try:
        page.goto(url)
        for width, height in SIZES:
            keep_alive(hub)
            page.set_size(width, height)
            time.sleep(1.5)
            path = out / f"{name}-{width}.png"
            page.screenshot(path)
            taken.append(path)
    finally:
        stop()
    return taken


def keep_alive(hub: RunningHub) -> None:
    """The hall's stations beat again (all but the silent one): the picture stays as set."""
    def beat() -> None:
        board = hub.hub.board
        for view in board.stations.values():
            if view.name != "Desk 4" and view.last_beat is not None:
                view.last_beat, view.heard = board.clock(), board.wall()
        board.version += 1
    hub.call(beat)


if __name__ == "__main__":
    import ssl
    import urllib.request

    # the hall's stations (OddStation) reach the hub over its TLS port: as in the tests
    # (tests/conftest.py), this script's own probes take its self-made certificate unchecked
    urllib.request.install_opener(urllib.request.build_opener(
        urllib.request.HTTPSHandler(context=ssl._create_unverified_context())))
    args = [a for a in sys.argv[1:] if not a.startswith("--engines")]
    chosen = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--engines=")),
                  "chromium,webkitgtk,firefox")
    target = Path(args[0] if args else "/tmp/director-trouble")
    target.mkdir(parents=True, exist_ok=True)
    for shot in shoot(target, chosen.split(",")):
        print(shot)
