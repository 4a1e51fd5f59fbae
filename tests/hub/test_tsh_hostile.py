"""Any file at the tsh path, on a real `adjudicator hub`: the names, or the "tsh file
unreadable" warning, in bounded time; the watcher never dies; a stop signal is heard whatever
it reads. Issue 26: a 5,000-digit number ended the hub at start (a traceback) and the watcher
while running (names frozen, no warning); a FIFO froze the watcher and SIGTERM; a big file took
a minute and gigabytes. The figures (seconds, memory, the time SIGTERM takes) are
bench/test_hub_tsh_bench.py's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.request

import pytest
from hub_process import HubProcess, accept_waiting, cli_env, wait_for
from test_tsh import tourney

from adjudicator.hub import jsliteral
from adjudicator.hub.tsh import MAX_BYTES, read_tourney

NAMES = "B: Ola, Fe - Po, Gu"  # at table 21 in round 2 (tourney() with its tables)


def text(data=None, extra: str = "") -> bytes:
    """tsh's file for DATA (tourney() with tables) with EXTRA raw text inside its config."""
    data = data or tourney({"a": [11, 12], "b": [21, 22]})
    body = json.dumps(data)
    if extra:
        body = body.replace('"config": {', '"config": {' + extra + ", ", 1)
    return ("newt = " + body + ";\n").encode()


def put(path, raw: bytes) -> None:
    """Replace the file as tsh does (a new file moved into place)."""
    if os.path.lexists(path) and not os.path.isfile(path):
        os.remove(path)  # a FIFO there before
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        f.write(raw)
    os.replace(tmp, path)


class Hall:
    """A real hub reading TMP_PATH/tourney.js, and a station that sent one row at table 21."""

    def __init__(self, tmp_path, make_lexicon):
        from adjudicator.journal import Journal
        from adjudicator.link.forward import Forwarder
        from adjudicator.judging.verdict import adjudicate

        (tmp_path / "hub.toml").write_text('journal = "hub.db"\ntsh = "tourney.js"\n')
        self.path = tmp_path / "tourney.js"
        self.hub = HubProcess(tmp_path / "hub.toml")
        self.url = self.hub.director_url.replace("/?key=", "/state?key=")
        with Journal.open(tmp_path / "s.db") as journal:
            journal.forward()
            journal.record(adjudicate(make_lexicon(["QI"]), ("QI",)), station="Desk 1",
                           mode="station", table="21")
        fwd = Forwarder(str(tmp_path / "s.db"), self.hub.url, self.hub.token)
        fwd.push()
        fwd.stop()
        assert accept_waiting(self.hub.director_url) == 1  # the director's nod: it counts

    def state(self) -> dict:
        with urllib.request.urlopen(self.url, timeout=10) as r:
            return json.loads(r.read())

    def players(self) -> str:
        return self.state()["tables"][0]["players"]

    def warned(self, words: str) -> dict:
        """The warning, once it says WORDS (the watcher read the file and said why not)."""
        return wait_for(lambda: (w := self.state()["tsh"]) and words in w["problem"] and w,
                        timeout=30)

    def names_become(self, names: str) -> None:
        wait_for(lambda: self.state()["tsh"] is None and self.players() == names, timeout=30)

    def no_traceback(self) -> None:
        log = "\n".join(self.hub.errors)
        assert "Traceback" not in log and 'File "' not in log, log


def test_a_5000_digit_number_at_start_is_read_and_the_names_shown(tmp_path, make_lexicon):
    put(tmp_path / "tourney.js", text(extra='"prize": ' + "7" * 5000))
    hall = Hall(tmp_path, make_lexicon)
    try:
        assert hall.state()["tsh"] is None and hall.players() == NAMES
    finally:
        hall.hub.stop()
    hall.no_traceback()


def test_whatever_is_put_at_the_tsh_path_the_watcher_says_so_and_reads_on(tmp_path,
                                                                         make_lexicon):
    put(tmp_path / "tourney.js", text())
    hall = Hall(tmp_path, make_lexicon)
    renamed = tourney({"a": [11, 12], "b": [21, 22]})
    try:
        assert hall.players() == NAMES
        renamed["divisions"][1]["players"][2]["name"] = "Ola, Fey"
        put(hall.path, text(renamed, extra='"prize": ' + "7" * 5000))
        hall.names_become("B: Ola, Fey - Po, Gu")  # not frozen by the number
        os.remove(hall.path)
        os.mkfifo(hall.path)  # nobody writes it: opening it to read would wait for ever
        warning = hall.warned("not a plain file")
        assert warning["names_kept"] and hall.players() == "B: Ola, Fey - Po, Gu"
        put(hall.path, text())
        hall.names_become(NAMES)  # a later good file is read
        put(hall.path, b"newt=" + b"[" * 100_000 + b"]" * 100_000 + b";")
        hall.warned("nested more than 200 deep")
        accented = tourney({"a": [11, 12], "b": [21, 22]})
        accented["divisions"][1]["players"][2]["name"] = "Ol\u00e1, F\u00e9"
        accented["divisions"][1]["players"][3]["name"] = "Po, G\u00fc"
        accented["divisions"][1]["players"][1]["name"] = "Ng, \x00BAD\x00"
        raw = text(accented).replace(b"\\u0000BAD\\u0000", b"Ren\xe9")  # one Latin-1 byte
        raw = raw.replace(b"\\u00e1", "\u00e1".encode()).replace(
            b"\\u00e9", "\u00e9".encode()).replace(b"\\u00fc", "\u00fc".encode())
        put(hall.path, raw)
        hall.names_become("B: Ol\u00e1, F\u00e9 - Po, G\u00fc")  # UTF-8 kept where it is
        players = read_tourney(str(hall.path))["divisions"][1]["players"]
        assert players[1]["name"] == "Ng, Ren\u00e9"  # the one string that is not UTF-8
        assert hall.hub.proc.poll() is None
    finally:
        hall.hub.stop()
    hall.no_traceback()


def test_a_file_too_big_or_with_too_many_values_is_said_and_the_hub_answers(tmp_path,
                                                                           make_lexicon):
    put(tmp_path / "tourney.js", text())
    hall = Hall(tmp_path, make_lexicon)
    try:
        with open(f"{hall.path}.tmp", "wb") as f:
            f.truncate(MAX_BYTES + 1)  # sparse: as big as the cap allows, and one byte more
        os.replace(f"{hall.path}.tmp", hall.path)
        hall.warned(f"larger than {MAX_BYTES >> 20} MB")
        n = jsliteral.MAX_TOKENS // 2 + 10  # {} and a comma each: more values than allowed
        put(hall.path, b"newt={divisions:[" + b"{}," * n + b"]};")
        hall.warned(f"more than {jsliteral.MAX_TOKENS:,} values")
        assert hall.players() == NAMES  # the last good names stay
        put(hall.path, text(extra='"pad": "' + "x" * (MAX_BYTES - 4096) + '"'))
        hall.names_become(NAMES)  # a file just under the cap, read
    finally:
        hall.hub.stop()
    hall.no_traceback()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_is_heard_while_the_watcher_reads_a_hostile_file(tmp_path, make_lexicon,
                                                                       sig):
    put(tmp_path / "tourney.js", text())
    hall = Hall(tmp_path, make_lexicon)
    try:
        n = jsliteral.MAX_TOKENS // 3  # `{},` with a trailing comma: the reader's slow path
        put(hall.path, b"newt={divisions:[" + b"{}," * n + b"]};")
        time.sleep(1.2)  # the watcher (every second) is reading it, or about to
        hall.hub.proc.send_signal(sig)
        code = hall.hub.proc.wait(timeout=15)  # a bound, not a timing: it stops at all
        assert code == (130 if sig == signal.SIGINT else 0)
    finally:
        hall.hub.stop()
    hall.no_traceback()


def test_a_fifo_at_the_tsh_path_at_start_is_one_line_not_a_hang(tmp_path):
    os.mkfifo(tmp_path / "tourney.js")
    (tmp_path / "hub.toml").write_text('journal = "hub.db"\ntsh = "tourney.js"\n')
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "adjudicator", "hub", "--port", "0",
                             "--host", "127.0.0.1", "--config", str(tmp_path / "hub.toml")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=cli_env())
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 6, err
    assert err.count("\n") == 1 and "not a plain file" in err and "Traceback" not in err
