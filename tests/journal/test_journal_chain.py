"""Tampering shows: edited word, deleted row, swapped rows, forged row, each by row number."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from click.testing import CliRunner
from journal_helpers import fill, raw

from adjudicator.cli import main
from adjudicator.errors import EXIT_NOT_RECORDED
from adjudicator.journal import ChainBroken, verify
from adjudicator.journal.chain import GENESIS, HASHED_COLUMNS, canonical


@pytest.fixture
def five(journal, jpath, clock):
    fill(journal, 5, clock=clock)
    journal.close()
    assert verify(jpath).intact
    return jpath


def broken(path):
    report = verify(path)
    assert not report.intact
    return report.broken_row, report.reason


def test_intact_journal_verifies(five):
    report = verify(five)
    assert (report.intact, report.rows, report.broken_row) == (True, 5, None)


def test_an_edited_word_is_reported_at_its_row(five):
    raw(five, "UPDATE challenges SET words='CAT XI' WHERE seq=3")
    assert broken(five) == (3, "its content was changed after it was recorded")


def test_an_edited_verdict_is_reported_at_its_row(five):
    raw(five, "UPDATE challenges SET acceptable=1 WHERE seq=4")
    assert broken(five)[0] == 4


def test_an_edit_with_a_recomputed_hash_still_breaks_the_next_row(five):
    raw(five, "UPDATE challenges SET words='CAT XI' WHERE seq=3")
    cols = ", ".join(HASHED_COLUMNS)
    row = dict(zip(HASHED_COLUMNS + ("prev_hash",),
                   raw(five, f"SELECT {cols}, prev_hash FROM challenges WHERE seq=3")[0]))
    content = json.dumps({c: row[c] for c in HASHED_COLUMNS}, sort_keys=True,
                         separators=(",", ":"), ensure_ascii=True)
    forged = hashlib.sha256((row["prev_hash"] + content).encode()).hexdigest()
    raw(five, "UPDATE challenges SET hash=? WHERE seq=3", (forged,))
    assert broken(five)[0] == 4


def test_a_deleted_row_is_reported_at_its_number(five):
    raw(five, "DELETE FROM challenges WHERE seq=2")
    row, reason = broken(five)
    assert row == 2 and "missing" in reason


def test_a_deleted_and_renumbered_row_is_still_found(five):
    raw(five, "DELETE FROM challenges WHERE seq=2")
    raw(five, "UPDATE challenges SET seq=seq-1 WHERE seq>2")
    assert broken(five)[0] == 2


def test_the_deleted_last_row_is_found_through_the_head(five):
    raw(five, "DELETE FROM challenges WHERE seq=5")
    row, reason = broken(five)
    assert row == 5 and "missing" in reason


def test_two_swapped_rows_are_reported_at_the_first(five):
    raw(five, "UPDATE challenges SET seq=-2 WHERE seq=2")
    raw(five, "UPDATE challenges SET seq=2 WHERE seq=3")
    raw(five, "UPDATE challenges SET seq=3 WHERE seq=-2")
    assert broken(five)[0] == 2


def test_two_rows_with_swapped_contents_are_reported_at_the_first(five):
    cols = [c for c in HASHED_COLUMNS + ("prev_hash", "hash") if c != "seq"]
    a = raw(five, f"SELECT {', '.join(cols)} FROM challenges WHERE seq=2")[0]
    b = raw(five, f"SELECT {', '.join(cols)} FROM challenges WHERE seq=3")[0]
    sets = ", ".join(f"{c}=?" for c in cols)
    raw(five, f"UPDATE challenges SET {sets} WHERE seq=2", b)
    raw(five, f"UPDATE challenges SET {sets} WHERE seq=3", a)
    assert broken(five)[0] == 2


def test_a_forged_row_appended_without_the_chain_is_reported(five):
    cols = [c for c in HASHED_COLUMNS + ("prev_hash", "hash") if c != "seq"]
    row = list(raw(five, f"SELECT {', '.join(cols)} FROM challenges WHERE seq=5")[0])
    row[cols.index("words")] = "ZZZ"
    row[cols.index("hash")] = "f" * 64
    raw(five, f"INSERT INTO challenges (seq, {', '.join(cols)}) VALUES "
              f"(6, {', '.join('?' * len(cols))})", row)
    assert broken(five)[0] == 6


def test_a_forged_row_with_a_correct_link_is_caught_by_the_head(five):
    cols = ", ".join(HASHED_COLUMNS)
    row = dict(zip(HASHED_COLUMNS + ("hash",),
                   raw(five, f"SELECT {cols}, hash FROM challenges WHERE seq=5")[0]))
    prev = row.pop("hash")
    row.update(seq=6, words="QI", acceptable=1)
    content = json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    digest = hashlib.sha256((prev + content).encode()).hexdigest()
    raw(five, f"INSERT INTO challenges ({cols}, prev_hash, hash) VALUES "
              f"({', '.join('?' * (len(HASHED_COLUMNS) + 2))})",
        [row[c] for c in HASHED_COLUMNS] + [prev, digest])
    row_no, reason = broken(five)
    assert row_no == 6 and "added afterwards" in reason


def test_a_row_inserted_between_two_rows_is_reported_at_its_number(five):
    for seq in (5, 4, 3):  # make room at 3
        raw(five, "UPDATE challenges SET seq=? WHERE seq=?", (seq + 1, seq))
    cols = [c for c in HASHED_COLUMNS + ("prev_hash", "hash") if c != "seq"]
    row = list(raw(five, f"SELECT {', '.join(cols)} FROM challenges WHERE seq=2")[0])
    row[cols.index("words")] = "QI"
    raw(five, f"INSERT INTO challenges (seq, {', '.join(cols)}) VALUES "
              f"(3, {', '.join('?' * len(cols))})", row)
    assert broken(five)[0] == 3


def test_the_documented_canonical_content_and_link(journal, jpath, clock):
    fill(journal, 2, clock=clock)
    cols = ", ".join(HASHED_COLUMNS)
    meta = dict(raw(jpath, "SELECT key, value FROM meta"))
    start = (f"adjudicator-journal genesis\njournal {meta['journal_id']}\n"
             f"station {meta['station']}\n")
    prev = hashlib.sha256(start.encode("utf-8")).hexdigest()  # chain.py's genesis
    assert meta["station"] == "Station 1" and prev != GENESIS
    for values in raw(jpath, f"SELECT {cols}, prev_hash, hash FROM challenges ORDER BY seq"):
        row = dict(zip(HASHED_COLUMNS, values))
        assert values[-2] == prev
        content = json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        prev = hashlib.sha256((prev + content).encode("utf-8")).hexdigest()
        assert values[-1] == prev
    assert raw(jpath, "SELECT value FROM meta WHERE key='head_hash'")[0][0] == prev


def test_cli_verify_exit_codes_and_messages(five):
    runner = CliRunner()
    ok = runner.invoke(main, ["journal", "verify", five])
    assert ok.exit_code == 0 and "intact, 5 challenges" in ok.stdout
    raw(five, "UPDATE challenges SET words='CAT XI' WHERE seq=3")
    bad = runner.invoke(main, ["journal", "verify", five])
    assert bad.exit_code == EXIT_NOT_RECORDED
    assert "chain broken at row 3" in bad.stderr and five in bad.stderr


def test_raise_if_broken_names_file_and_row(five):
    raw(five, "DELETE FROM challenges WHERE seq=4")
    with pytest.raises(ChainBroken) as caught:
        verify(five).raise_if_broken()
    assert (caught.value.path, caught.value.row) == (five, 4)


_VALUES = st.one_of(st.none(), st.integers(min_value=-2**70, max_value=2**70), st.text(),
                    st.booleans(), st.floats(allow_nan=False),
                    st.lists(st.text(), max_size=3))


@given(st.fixed_dictionaries({c: _VALUES for c in HASHED_COLUMNS}))
def test_canonical_is_exactly_the_documented_json(row):
    """chain.canonical builds the text without a dict; it must equal json.dumps byte for byte."""
    documented = json.dumps({c: row[c] for c in HASHED_COLUMNS}, sort_keys=True,
                            separators=(",", ":"), ensure_ascii=True)
    assert canonical(row) == documented
