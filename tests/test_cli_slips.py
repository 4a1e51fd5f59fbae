"""`journal verify --slips` (issue 21.8): the slip's own line is taken as it prints it, and as a
person types it from the slip; a malformed line is named (file:line, what is wrong), exit 2."""

import pytest

from adjudicator.docket.encoder import encode_slip
from adjudicator.errors import EXIT_ENTRY, EXIT_NOT_RECORDED
from adjudicator.journal import Journal
from adjudicator.station.printdesk import slip_from_row


@pytest.fixture
def journal(run, tmp_path):
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("QI\nZA\nCAT\n")
    path = str(tmp_path / "j.db")
    for words in (["qi"], ["za", "cat"], ["qz"]):
        assert run("judge", "-l", str(tiny), "--journal", path, *words).exit_code in (0, 1)
    return path


def printed_line(path: str, seq: int) -> str:
    """The `Journal check:` line exactly as the printer's bytes carry it."""
    with Journal.open(path) as j:
        slip = slip_from_row(j.get(seq), "Open")
    data = encode_slip(slip, 42)
    start = data.index(b"Journal check:")
    return data[start:data.index(b"\n", start)].decode("ascii").rstrip()


def test_the_line_as_the_slip_prints_it_is_taken(run, journal, tmp_path):
    """It was refused: only `1 b0718577` was taken."""
    lines = [printed_line(journal, 1), printed_line(journal, 3), printed_line(journal, 2)]
    assert lines[0].startswith("Journal check: 1 ")
    _, number, digits = lines[1].split()[1:]
    typed = tmp_path / "slips.txt"
    typed.write_text("\n".join([
        lines[0],                                        # as printed
        f"  JOURNAL   CHECK {number}   {digits.upper()}  ",  # typed: any case, extra spaces
        f"Challenge #2 \u00b7 check {lines[2].split()[-1]}",  # as the verdict screen shows it
        "# the slips of round 2",
        "",
    ]) + "\n")
    result = run("journal", "verify", journal, "--slips", str(typed))
    assert result.exit_code == 0, result.stderr
    assert "intact" in result.stdout


def test_a_slip_that_does_not_match_is_a_broken_chain(run, journal, tmp_path):
    line = printed_line(journal, 2)
    wrong = line[:-1] + ("0" if line[-1] != "0" else "1")
    typed = tmp_path / "slips.txt"
    typed.write_text(wrong + "\n")
    result = run("journal", "verify", journal, "--slips", str(typed))
    assert result.exit_code == EXIT_NOT_RECORDED and "slip of challenge 2" in result.stderr


@pytest.mark.parametrize("line, says", [
    ("12", "no hash after challenge 12"),
    ("twelve 3fa9c01d", "no challenge number"),
    ("Journal check: twelve 3fa9c01d", "no challenge number"),
    ("12 xyz", "the hash 'xyz' holds 'x'"),
    ("12 3fa", "has 3 digits: the slip prints 8"),
    ("123fa9c01d", "no space between the challenge number and its hash"),
    ("0 3fa9c01d", "no challenge 0"),
])
def test_a_malformed_line_is_named_with_exit_2(run, journal, tmp_path, line, says):
    """It exited 5, the code of a broken chain, as if the journal were forged."""
    typed = tmp_path / "slips.txt"
    typed.write_text("# typed at the desk\n\n" + line + "\n")
    result = run("journal", "verify", journal, "--slips", str(typed))
    assert result.exit_code == EXIT_ENTRY, result.stderr
    (err,) = result.stderr.splitlines()
    assert err.startswith(f"adjudicator: {typed}:3: {line!r}: ") and says in err, err


def test_one_challenge_given_twice_with_two_hashes_names_both_lines(run, journal, tmp_path):
    typed = tmp_path / "slips.txt"
    typed.write_text("4 0123abcd\n5 4567cdef\n4 89abcdef\n")
    result = run("journal", "verify", journal, "--slips", str(typed))
    assert result.exit_code == EXIT_ENTRY
    assert "slips.txt:3: challenge 4 is given twice with different hashes (line 1 and line 3)" \
        in result.stderr
