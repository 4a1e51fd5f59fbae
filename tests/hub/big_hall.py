"""A hall of sixty stations and thirty alarms (issue 43 item 1), on a hub served in this process:
python tests/hub/big_hall.py OUT.png [WIDTHxHEIGHT] photographs the director's page (docs/hub.png).

Sixty accepted stations beat (their last heartbeat kept fresh while the hall is up); two more wait
for the director. The alarms, thirty in all: five stations silent, four not locked, three on an
older event version, four out of paper, two with a backlog, one on another list whose rows were
judged with it at three tables, split look-ups at three tables, two clocks wrong, a verdict the hub
judges otherwise, and the two waiting. The hub holds the event's two lists (made up, tiny, labelled
CSW24 and NWL2023), so it checks every verdict itself.
"""

from __future__ import annotations

import sys
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from odd_station import OddStation  # noqa: E402
from running_hub import RunningHub  # noqa: E402

from adjudicator.event.setup import Division, Event  # noqa: E402
from adjudicator.journal.flags import SPLIT_LOOKUP  # noqa: E402
from adjudicator.judging.rules import ChallengeRule  # noqa: E402
from adjudicator.wire import list_entry  # noqa: E402

WORDS = ["CAT", "JO", "QI", "XU", "ZA"]
OLD = "0d" * 32  # NWL2020's fingerprint: a list the event does not use

STATIONS = 60
SILENT = ("Desk 05", "Desk 17", "Desk 29", "Desk 41", "Desk 53")
UNLOCKED = ("Desk 08", "Desk 22", "Desk 36", "Desk 50")
BEHIND = ("Desk 11", "Desk 25", "Desk 39")
NO_PAPER = ("Desk 14", "Desk 28", "Desk 44", "Desk 47")
BACKLOG = ("Desk 19", "Desk 33")
CLOCK = ("Desk 46", "Desk 58")
OTHER_LIST = "Desk 31"
SPLITS = ("Desk 02", "Desk 03")  # split look-ups at tables 1-3 each
DISAGREES = "Desk 09"  # said ACCEPTABLE for a word the hub's own list does not hold
WAITING = ("Spare laptop", "Desk 61")
ALARMS = 30


def name(i: int) -> str:
    return f"Desk {i:02d}"


class BigHall:
    """The hall on HUB (RunningHub): build() once, then it keeps its stations heard until stop()."""

    def __init__(self, hub: RunningHub):
        self.hub = hub
        self.stations: dict[str, OddStation] = {}
        self._stop = threading.Event()
        self._keeper: threading.Thread | None = None

    def lists(self, folder: Path) -> tuple[str, str]:
        """The event's two lists, tiny and labelled CSW24 and NWL2023, held by the hub (in its
        audit's memory: no path of the program writes a made-up list under an official name,
        issue 29): their fingerprints."""
        import marisa_trie

        from adjudicator.lexicon.compiled import FORMAT_VERSION, Lexicon, fingerprint_words

        prints = []
        for label, words in (("CSW24", WORDS), ("NWL2023", WORDS + ["ZAX"])):
            fp = fingerprint_words(words)
            path = str(folder / f"{label}.lex")
            lexicon = Lexicon(path, {"format": FORMAT_VERSION, "name": label,
                                     "word_count": len(words), "fingerprint": fp,
                                     "sources": []}, marisa_trie.Trie(words))
            self.hub.hub.event_lists[fp] = path
            self.hub.hub.audit._lists[(fp, path)] = lexicon
            prints.append(fp)
        return prints[0], prints[1]

    def build(self) -> None:
        hub, board = self.hub, self.hub.hub.board
        CSW, NWL = self.lists(Path(hub.journal_path).parent)
        hub.call(setattr, hub.hub, "event", Event("Club Open 2026", (
            Division("A", "CSW24", ChallengeRule.WORD5, ((1, 20),), CSW),
            Division("B", "NWL2023", ChallengeRule.DOUBLE, ((21, 40),), NWL)), version=3))
        a = [list_entry("A", "CSW24", CSW, "5-per-word")]
        b_old = [list_entry("B", "NWL2020", OLD, "double")]
        now = datetime.now(timezone.utc) - timedelta(minutes=20)
        for i in range(1, STATIONS + 1):
            who = name(i)
            st = self.stations[who] = OddStation(hub.url, hub.hub.station_token, who)
            lists = b_old if who == OTHER_LIST else a
            fields = {"locked": "no" if who in UNLOCKED else "yes",
                      "event_version": "2" if who in BEHIND else "3",
                      "divisions": "B" if who == OTHER_LIST else "A", "lists": lists,
                      "lexicon": lists[0]["lexicon"], "fingerprint": lists[0]["fingerprint"],
                      "printer": "paper out" if who in NO_PAPER else "ready", "mode": "station"}
            if who in CLOCK:
                fields["clock"] = (datetime.now(timezone.utc)
                                      + timedelta(hours=2)).isoformat()
            st.fields = fields
            status, answer = st.beat(**fields)
            assert status == 200, answer
            tables = ["1", "2", "3"] if who in SPLITS else [str(i % 17 + 4)] * 2
            if who == OTHER_LIST:
                tables = ["25", "26", "27"]
            for n, table in enumerate(tables):
                when = (now + timedelta(seconds=10 * i + n)).isoformat()
                row = {"game_table": table, "time_utc": when, "time_local": when,
                       "lexicon_name": "CSW24", "fingerprint": CSW, "rule": "5-per-word"}
                if who == OTHER_LIST:
                    row.update(lexicon_name="NWL2020", fingerprint=OLD, rule="double")
                if who == DISAGREES and n == 1:
                    row["words"] = "QZQZ"
                if who in SPLITS and who == SPLITS[1]:
                    row["flags"] = f'["{SPLIT_LOOKUP}"]'
                status, answer = st.send(**row)
                assert status == 200, answer
            if who in BACKLOG:
                st.beat(**fields, last_seq=st.seq + 4)
        hub.hub.identities.accept_new = False
        for who in WAITING:
            st = self.stations[who] = OddStation(hub.url, hub.hub.station_token, who)
            st.fields = {"lists": a, "locked": "yes", "event_version": "3"}
            status, answer = st.beat(**st.fields)
            assert status == 200, answer

        def silence() -> None:  # silent for an hour: nothing the test waits for changes that
            board.silent_after = 60.0
            for view in board.stations.values():
                if view.name in SILENT:
                    view.last_beat = board.clock() - 3600
            board.version += 1
        hub.call(silence)
        self._keeper = threading.Thread(target=self._keep, daemon=True)
        self._keeper.start()

    def _keep(self) -> None:
        """Every station but the silent ones heard again every few seconds, as in a hall."""
        def beat() -> None:
            board = self.hub.hub.board
            for view in board.stations.values():
                if view.name not in SILENT and view.last_beat is not None:
                    view.last_beat, view.heard = board.clock(), board.wall()
            board.version += 1
        while not self._stop.wait(5.0):
            self.hub.call(beat)

    def stop(self) -> None:
        self._stop.set()
        if self._keeper is not None:
            self._keeper.join(10)


def photograph(out: str, width: int = 1280, height: int = 800) -> None:
    import tempfile

    from playwright.sync_api import sync_playwright
    from web_helpers import BROWSER_ARGS, browser_executable

    from adjudicator.hub import eventalarms

    eventalarms.BEHIND_AFTER = 0.0  # this process only: a picture, not a test
    with tempfile.TemporaryDirectory() as tmp:
        hub = RunningHub(str(Path(tmp) / "hub.db"))
        hall = BigHall(hub)
        try:
            hall.build()
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=browser_executable(),
                                            args=BROWSER_ARGS)
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"{hub.local_url}/?key={hub.hub.director_token}")
                page.locator("#waiting button.accept").first.wait_for(timeout=20_000)
                page.get_by_text("Desk 05: silent").first.wait_for(timeout=20_000)
                time.sleep(1.0)
                page.screenshot(path=out)
                browser.close()
        finally:
            hall.stop()
            hub.stop()


if __name__ == "__main__":
    import ssl
    import urllib.request

    urllib.request.install_opener(urllib.request.build_opener(
        urllib.request.HTTPSHandler(context=ssl._create_unverified_context())))
    size = next((a for a in sys.argv[2:] if "x" in a), "1280x800")
    w, h = (int(x) for x in size.split("x"))
    photograph(sys.argv[1] if len(sys.argv) > 1 else "docs/hub.png", w, h)
