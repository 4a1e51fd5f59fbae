"""Export and merge stream: memory stays small however many rows the journal holds (issue 13)."""

from __future__ import annotations

import csv
import io
import json
import tracemalloc

from journal_helpers import Clock, verdict

from adjudicator.journal import Journal, export_journal, verify
from adjudicator.journal.merge import merge

ROWS = 20_000
# Python memory allowed at the peak of an export or merge of ROWS rows. Loading them all (the
# old code) takes well over 30 MB; streaming needs a few chunks of rows whatever the size.
BOUND = 4 * 1024 * 1024


def big_journal(path, station: str, n: int = ROWS, start_minute: int = 0) -> str:
    clock = Clock()
    clock.advance(start_minute * 60)
    with Journal.open(path, clock=clock) as j:
        for first in range(0, n, 5000):
            items = []
            for i in range(first, min(n, first + 5000)):
                items.append((verdict("CAT", "XU", acceptable=i % 3 > 0),
                              dict(station=station, mode="station", table=str(i % 40))))
            j.record_many(items)
            clock.advance(60)
    return str(path)


class Sink(io.TextIOBase):
    """A text output that keeps only what a check needs: size, line count, first/last text."""

    def __init__(self):
        self.chars, self.lines, self.head, self.tail = 0, 0, "", ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.chars += len(text)
        self.lines += text.count("\n")
        if len(self.head) < 4000:
            self.head += text[:4000]
        self.tail = (self.tail + text)[-4000:]
        return len(text)


def peak_of(action) -> int:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_csv_export_streams_in_bounded_memory(tmp_path):
    path = big_journal(tmp_path / "big.db", "S1")
    sink = Sink()
    peak = peak_of(lambda: export_journal(path, "csv", None, sink))
    assert sink.lines == ROWS + 1
    first = list(csv.reader(io.StringIO(sink.head)))[1]
    assert first[0] == "1" and first[7] == "CAT XU"
    assert peak < BOUND, f"export held {peak / 1e6:.1f} MB of Python objects"


def test_json_export_streams_in_bounded_memory_and_is_one_json_array(tmp_path):
    path = big_journal(tmp_path / "big.db", "S1", n=3000)
    text = export_journal(path, "json")
    data = json.loads(text)
    assert [r["seq"] for r in data] == list(range(1, 3001))
    path = big_journal(tmp_path / "big2.db", "S1")
    sink = Sink()
    peak = peak_of(lambda: export_journal(path, "json", None, sink))
    assert sink.tail.endswith("\n]\n") and f'"seq": {ROWS},' in sink.tail
    assert peak < BOUND, f"export held {peak / 1e6:.1f} MB of Python objects"


def test_merge_streams_in_bounded_memory(tmp_path):
    a = big_journal(tmp_path / "a.db", "S1")
    b = big_journal(tmp_path / "b.db", "S2", start_minute=1)
    out = str(tmp_path / "event.db")
    peak = peak_of(lambda: merge([a, b, a], out))
    report = verify(out)
    assert report.intact and report.rows == 2 * ROWS
    assert peak < BOUND, f"merge held {peak / 1e6:.1f} MB of Python objects"
