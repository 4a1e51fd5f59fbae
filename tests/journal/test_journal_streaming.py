"""Export and merge stream: memory stays small however many rows the journal holds (issue 13)."""

from __future__ import annotations

import csv
import io
import json
import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from journal_helpers import Clock, verdict

from adjudicator.journal import Journal, export_journal, export_verified, verify
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


def _damage(kind: str, path: str) -> None:
    from journal_helpers import raw

    if kind == "edited":
        raw(path, "UPDATE challenges SET words = 'ZZZ' WHERE seq = 4")
    elif kind == "tail lost":  # rows gone, the head file beside it still says 10
        raw(path, "DELETE FROM challenges WHERE seq > 7")
        raw(path, "UPDATE meta SET value = '7' WHERE key = 'head_seq'")
        raw(path, "UPDATE meta SET value = (SELECT hash FROM challenges WHERE seq = 7) "
                  "WHERE key = 'head_hash'")
    elif kind == "id":
        raw(path, "UPDATE meta SET value = 'x' WHERE key = 'journal_id'")


@pytest.mark.parametrize("kind", ["intact", "edited", "tail lost", "id"])
@pytest.mark.parametrize("since", [None, "3"])
def test_export_checks_the_chain_as_verify_does(tmp_path, kind, since):
    path = big_journal(tmp_path / "j.db", "S1", n=10)
    with Journal.open(path) as j:
        j.set_print_status(2, "failed", "paper out")
        j.set_print_status(2, "reprinted")
    _damage(kind, path)
    out = io.StringIO()
    count, report = export_verified(path, "csv", since, out)
    assert report == verify(path)
    assert report.intact == (kind == "intact")
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert count == len(rows) == (7 if kind == "tail lost" else 10) - (3 if since else 0)
    if not since:
        assert (rows[1]["print_status"], rows[1]["print_reason"]) == ("reprinted", "")


_CELL = st.one_of(st.none(), st.integers(min_value=-2**40, max_value=2**40), st.text(),
                  st.booleans(), st.sampled_from(["", ",", '"', "\n", "\r", " a ", "a,b", "x\"y",
                                                  "=1+2", "+a", "-b", "@c", "\tx", "\ry",
                                                  "a,=b", "=a,b"]))


@given(st.lists(st.tuples(*[_CELL] * 21), max_size=5))
def test_fast_export_lines_are_exactly_csv_writer_and_json_encoder_output(rows):
    """The export builds lines itself; they must equal what csv.writer and json wrote before."""
    from adjudicator.journal.export import (FIELDS, _csv_cells, _csv_lines, _json_lines,
                                            _records, safe_cells)

    rows = [(r[0], *r[1:7], "" if r[7] is None else str(r[7]), *r[8:14],
             "[]" if r[14] is None else json.dumps([r[14], "x"]), *r[15:]) for r in rows]
    expected = io.StringIO()  # CSV: each formula's start made plain text (OWASP)
    csv.writer(expected, lineterminator="\n").writerows(map(safe_cells, _csv_cells(rows)))
    assert "".join(line + "\n" for line in _csv_lines(rows)) == expected.getvalue()
    dumps = json.JSONEncoder(ensure_ascii=False).encode
    assert list(_json_lines(rows)) == [dumps(r) for r in _records(rows)]
    assert len(FIELDS) == 20
