"""Any table text costs linear time (issue 33 item 2): `tables.division_table` once backtracked
(a lazy letters group beside a separators group tried every split of a long run of spaces), so
1,000 rows at distinct 500-character tables made the board's snapshot take seconds and stalled
honest heartbeats. Times are compared as ratios with wide margins, never against a clock."""

from __future__ import annotations

import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.event import tables
from adjudicator.hub.board import Board

# the pattern as it was: the reference for what a division's table is, on short text
BACKTRACKING = re.compile(r"([A-Za-z][A-Za-z .\-]*?)[ .\-]*0*([1-9][0-9]{0,3})\Z")


def _reference(text):
    found = BACKTRACKING.match(str(text).strip())
    return (found.group(1), int(found.group(2))) if found else None


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="Aab .-\t0129x²", max_size=14))
def test_a_division_table_is_what_it_was(text):
    assert tables.division_table(text) == _reference(text)


def test_named_tables_read_as_before():
    assert tables.division_table("A3") == ("A", 3)
    assert tables.division_table(" Top - table .007 ") == ("Top - table", 7)
    assert [tables.division_table(t) for t in ("A10000", "A0", "3", "A 3x", "Ä3")] == [None] * 5


def _odd(n: int, i: int = 0) -> str:
    """The shape that backtracked: a letter, a long run of separators, letters, no number."""
    return "A" + " " * n + "".join(chr(97 + int(d)) for d in f"{i:04d}") + "."


def _best(call, times: int = 5) -> float:
    best = float("inf")
    for _ in range(times):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def test_a_table_costs_time_linear_in_its_length():
    short, long_ = _odd(500), _odd(4000)  # 8 times longer: linear ~8x a call, quadratic ~64x
    t_short = _best(lambda: [tables.division_table(short) for _ in range(400)]) / 400
    t_long = _best(lambda: [tables.division_table(long_) for _ in range(10)], 3) / 10
    assert t_long / t_short < 32, (t_short, t_long)


def _board(table_texts) -> Board:
    board = Board(names=lambda table, round_: "")
    board.heartbeat("j", {"station": "Desk 1"})
    board.add_rows("j", [{"station": "Desk 1", "game_table": t, "round": None,
                          "words": "QI ZA", "acceptable": 1, "flags": "[]",
                          "time_utc": "2026-11-22T14:00:00+00:00", "recheck_of": None,
                          "origin_seq": i + 1, "fingerprint": "ab" * 32}
                         for i, t in enumerate(table_texts)])
    return board


def test_odd_tables_cost_the_board_what_plain_ones_do():
    odd = _board([_odd(490, i) for i in range(300)])
    plain = _board([str(i + 1) for i in range(300)])
    assert len(odd.snapshot()["tables"]) == 300  # every odd table is its own row
    ratio = _best(odd.snapshot, 3) / _best(plain.snapshot, 3)
    assert ratio < 10, ratio  # it was about 400 (4.3 s against 0.01 s at 1,000 rows)
