"""The command line as a director uses it: exit codes, batch streaming, lexicon resolution, help."""

import os
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from plain_entry import reference_parse

from adjudicator.cli import main
from adjudicator.text.entry import parse_entry

TINY = frozenset(["QI", "ZA", "CAT", "XU"])


@pytest.fixture(scope="module")
def tiny_batch(tmp_path_factory):
    """A tiny list and a runner shared by a property test's examples."""
    path = tmp_path_factory.mktemp("batch") / "tiny.txt"
    path.write_text("\n".join(sorted(TINY)) + "\n")
    runner = CliRunner()
    return str(path), lambda *a, input=None: runner.invoke(main, list(a), input=input,
                                                         catch_exceptions=False)


@pytest.fixture
def tiny_source(tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text("QI\nZA\nCAT\nXU\n")
    return str(path)


def test_judge_on_the_default_lexicon(run):
    result = run("judge", "cat", "xu")
    assert (result.exit_code, result.stdout) == (0, "ACCEPTABLE\n")
    result = run("judge", "qi", "qzx")
    assert (result.exit_code, result.stdout) == (1, "UNACCEPTABLE\n")


def test_judge_accepts_commas_in_one_argument(run, tiny_source):
    assert run("judge", "--lexicon", tiny_source, "qi,za").exit_code == 0


def test_malformed_entry_is_never_judged(run):
    result = run("judge", "cat5")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "'5' is not a letter" in result.stderr


@pytest.mark.parametrize(
    "args, code",
    [
        (["judge", "--lexicon", "no-such-list", "cat"], 3),
        (["judge", "--no-such-option"], 2),
        (["judge", "--batch", "/no/such/file"], 4),
        (["info", "no-such-list"], 3),
        (["compile", "/no/such.txt", "-o", "x.lex"], 4),
    ],
)
def test_errors_never_exit_1(run, args, code):
    result = run(*args)
    assert result.exit_code == code
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_corrupt_lexicon_is_refused_not_used(run, tmp_path, tiny_source):
    out = tmp_path / "t.lex"
    assert run("compile", tiny_source, "-o", str(out)).exit_code == 0
    data = bytearray(out.read_bytes())
    data[5] ^= 0xFF
    out.write_bytes(bytes(data))
    result = run("judge", "--lexicon", str(out), "qi")
    assert result.exit_code == 3 and result.stdout == ""
    assert "refused" in result.stderr


def test_compile_refuses_a_bad_list_with_the_line(run, tmp_path):
    src = tmp_path / "bad.txt"
    src.write_text("QI\nZA\nCAT5\n")
    result = run("compile", str(src), "-o", str(tmp_path / "bad.lex"))
    assert result.exit_code == 3
    assert "bad.txt, line 3" in result.stderr
    assert not (tmp_path / "bad.lex").exists()
    result = run("compile", str(src), "-o", str(tmp_path / "bad.lex"), "--skip-invalid")
    assert result.exit_code == 0
    assert "skipped 1 invalid line (first: line 3: 'CAT5')" in result.stdout


def test_compile_and_info_count_lines_in_english(run, tmp_path):
    """'1 blank line', '2 blank lines': never '1 comment lines' (a director reads these)."""
    src = tmp_path / "club.txt"
    src.write_text("# club list\nQI\n\nZA\nCAT5\n")
    out = str(tmp_path / "club.lex")
    result = run("compile", str(src), "-o", out, "--skip-invalid")
    assert result.exit_code == 0
    assert "1 comment line, 1 blank line" in result.stdout
    assert "skipped 1 invalid line (first" in result.stdout
    assert "1 invalid line skipped" in run("info", out).stdout
    src.write_text("# club list\n# two\nQI\n\n\nZA\nCAT5\nDOG5\n")
    result = run("compile", str(src), "-o", out, "--skip-invalid")
    assert "2 comment lines, 2 blank lines" in result.stdout
    assert "skipped 2 invalid lines (first" in result.stdout
    assert "2 invalid lines skipped" in run("info", out).stdout


def test_compile_and_info_say_unrecognised_loudly(run, tmp_path, tiny_source):
    out = str(tmp_path / "t.lex")
    result = run("compile", tiny_source, "-o", out, "--name", "CLUB")
    assert "CLUB — UNRECOGNISED LIST — 4 words" in result.stdout
    info = run("info", out)
    assert info.exit_code == 0
    assert "UNRECOGNISED LIST" in info.stdout
    assert "Words:       4" in info.stdout
    assert "tiny.txt" in info.stdout


def test_info_on_the_default_says_not_a_tournament_list(run):
    info = run("info")
    assert "ENABLE" in info.stdout
    assert "not a tournament word list" in info.stdout
    assert "168,548" in info.stdout


def test_lexicon_by_name_from_the_lexicon_folders(run, tmp_path, tiny_source, monkeypatch):
    folder = tmp_path / "lexicons"
    folder.mkdir()
    (folder / "CLUB.txt").write_text("QI\nZA\n")
    monkeypatch.setenv("ADJUDICATOR_LEXICONS", f"/nonexistent{os.pathsep}{folder}")
    assert run("judge", "--lexicon", "club", "qi", "za").exit_code == 0
    assert run("judge", "--lexicon", "CLUB", "cat").exit_code == 1
    cached = [e for e in os.listdir(os.environ["ADJUDICATOR_CACHE"]) if e != "verified-v1"]
    assert len(cached) == 1 and cached[0].endswith(".lex")  # compiled once, then reused
    assert run("judge", "--lexicon", "club", "qi").exit_code == 0
    assert [e for e in os.listdir(os.environ["ADJUDICATOR_CACHE"]) if e != "verified-v1"] == cached


def test_lexicon_by_name_from_the_config_files_folders_as_the_kiosk_finds_it(run, tmp_path):
    folder = tmp_path / "hall-lexicons"
    folder.mkdir()
    (folder / "CLUB.txt").write_text("QI\nZA\n")
    with open(os.environ["ADJUDICATOR_CONFIG"], "w") as f:
        f.write(f'lexicon_dirs = ["{folder}"]\n')
    assert run("judge", "--lexicon", "club", "qi", "za").exit_code == 0
    assert run("judge", "--lexicon", "club", "cat").exit_code == 1
    assert "CLUB" in run("info", "club").stdout


def test_a_broken_config_names_its_key_when_the_station_list_or_a_name_is_read(run, tiny_source):
    with open(os.environ["ADJUDICATOR_CONFIG"], "w") as f:
        f.write('lexicon_dirs = [3]\n')
    assert run("judge", "--lexicon", tiny_source, "qi").exit_code == 0  # a file: no lookup
    # no --lexicon: the station's list, from the station's config (issue 27), which the kiosk
    # would refuse too: one line naming the key, never another list silently
    for args in (["judge", "--lexicon", "club", "qi"], ["judge", "cat"], ["info"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 6 and "lexicon_dirs" in result.stderr, args


def test_damaged_cache_is_rebuilt_not_used(run, tiny_source):
    assert run("judge", "--lexicon", tiny_source, "qi").exit_code == 0
    cache = os.environ["ADJUDICATOR_CACHE"]
    (entry,) = [e for e in os.listdir(cache) if e.endswith(".lex")]  # beside it: verified-v1/
    with open(os.path.join(cache, entry), "r+b") as f:
        f.write(b"\xff\xff\xff")
    assert run("judge", "--lexicon", tiny_source, "qi").exit_code == 0
    assert run("judge", "--lexicon", tiny_source, "qz").exit_code == 1


def test_batch_one_line_per_input_line(run, tmp_path, tiny_source):
    challenges = tmp_path / "c.txt"
    challenges.write_text("qi za\ncat5\n\nqi,xu\nqi qz\n")
    result = run("judge", "--lexicon", tiny_source, "--batch", str(challenges))
    assert result.stdout.splitlines() == [
        "ACCEPTABLE",
        "INVALID: '5' is not a letter: use only letters A to Z, with spaces between words.",
        "INVALID: No words entered: type the words formed by the play.",
        "ACCEPTABLE",
        "UNACCEPTABLE",
    ]
    assert result.exit_code == 2


def test_batch_from_stdin_all_valid_exits_0(run, tiny_source):
    result = run("judge", "--lexicon", tiny_source, "--batch", "-", input="qi\nzz\n")
    assert result.stdout == "ACCEPTABLE\nUNACCEPTABLE\n"
    assert result.exit_code == 0


def test_batch_streams_each_verdict_before_the_next_line_arrives(tiny_source):
    """A runner typing into a pipe sees each verdict at once (no reading the whole file first)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "adjudicator", "judge", "--lexicon", tiny_source, "--batch", "-"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        for line, expected in [("qi za", "ACCEPTABLE"), ("qz", "UNACCEPTABLE"), ("cat", "ACCEPTABLE")]:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            assert proc.stdout.readline().strip() == expected
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0


def test_words_and_batch_together_is_a_usage_error(run, tmp_path):
    assert run("judge", "--batch", "-", "qi").exit_code == 2


def test_judge_help_names_every_separator_the_entry_takes(run):
    """The help says what README and docs/cli.md say: the no-break space separates too."""
    from adjudicator.text.entry import SEPARATORS

    text = " ".join(run("judge", "--help").stdout.split())
    names = {" ": "spaces", "\t": "tabs", ",": "commas", "\u00a0": "no-break spaces"}
    assert set(SEPARATORS) == set(names)
    for ch in SEPARATORS:
        assert names[ch] in text, names[ch]


def test_every_command_has_help_with_an_example(run):
    def walk(group, prefix):
        ctx = click.Context(group)
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            yield prefix + [name], command
            if isinstance(command, click.Group):
                yield from walk(command, prefix + [name])

    commands = list(walk(main, []))
    assert {"judge", "compile", "info", "lexicon", "journal", "kiosk", "set-pin", "serve",
            "printer", "hub", "join"} == {
        path[0] for path, _ in commands
    }
    for path, _ in commands:
        result = run(*path, "--help")
        assert result.exit_code == 0, path
        assert "Example" in result.stdout, f"'adjudicator {' '.join(path)} --help' shows no example"
        assert "adjudicator " in result.stdout.split("Example", 1)[1], path


def test_batch_lines_end_only_at_lf_or_crlf_and_a_bom_is_skipped(run, tmp_path, tiny_source):
    """Issue 12: U+001C, a lone CR, U+2028 or NEL inside a line is named, never a line end."""
    data = ("\ufeffqi za\r\nqi\x1cza\nqi\rza\nqi\u2028za\nqi\u0085za\nqi\x0cza\nxu").encode()
    expected = ["ACCEPTABLE"] + [f"INVALID: U+{c:04X}" for c in (0x1C, 0x0D, 0x2028, 0x85, 0x0C)]
    expected.append("ACCEPTABLE")
    challenges = tmp_path / "c.txt"
    challenges.write_bytes(data)
    journal = str(tmp_path / "j.db")  # recorded batches read their lines the same way
    for result in (run("judge", "--lexicon", tiny_source, "--batch", str(challenges)),
                   run("judge", "--lexicon", tiny_source, "--batch", "-", input=data),
                   run("judge", "--lexicon", tiny_source, "--journal", journal, "--batch", "-",
                       input=data)):
        lines = result.stdout.splitlines()  # splitlines is safe here: the output is ours
        assert len(lines) == len(expected), lines
        assert [line[:len(e)] for line, e in zip(lines, expected)] == expected
        assert result.exit_code == 2


def test_a_bom_before_the_first_word_is_not_a_character_of_it(run, tiny_source):
    result = run("judge", "--lexicon", tiny_source, "--batch", "-", input="\ufeffqi za\n".encode())
    assert (result.stdout, result.exit_code) == ("ACCEPTABLE\n", 0)
    result = run("judge", "--lexicon", tiny_source, "--batch", "-", input="qi\n\ufeffza\n".encode())
    assert result.stdout.splitlines()[1].startswith("INVALID: U+FEFF")  # only at the start


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["qi", "za", "xu", "cat", "q"]),
                          st.sampled_from([" ", ",", "\t", "\n", "\r\n", "\r", "\x1c", "\u2028",
                                           "\x85", "\x0b", "\x00", "\ufeff", "é"])),
                max_size=30).map("".join))
def test_batch_matches_a_plain_line_splitter_and_a_plain_set(tiny_batch, text):
    """Property: one output line per LF-ended line, each the plain reading's verdict."""
    source, run = tiny_batch
    data = text.encode()
    text = text[1:] if text.startswith("\ufeff") else text  # a leading BOM is skipped
    *ended, last = text.split("\n")  # only LF ends a line; CRLF is LF with a CR before it
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in ended] + ([last] if last else [])
    expected = []
    for line in lines:  # a CR not before an LF (even at the very end) is named: INVALID
        words = reference_parse(line)
        expected.append("INVALID" if isinstance(words, str) else
                        "ACCEPTABLE" if all(w in TINY for w in words) else "UNACCEPTABLE")
    result = run("judge", "--lexicon", source, "--batch", "-", input=data)
    got = [line.split(":")[0] for line in result.stdout.split("\n")[:-1]]
    assert got == expected
    assert result.exit_code == (2 if "INVALID" in expected else 0)


def test_batch_takes_the_fast_path_for_plain_lines(run, tiny_source, monkeypatch):
    """Issue 12's profile: each line kept its newline, so no line took the fast path. Now only
    lines that are not plain reach the full parse_entry (speed itself is bench/'s)."""
    import adjudicator.terminal.batch_lines as streams

    slow = []
    monkeypatch.setattr(streams, "parse_entry", lambda text: slow.append(text) or parse_entry(text))
    data = "qi za\r\nQi,Xu\n\tcat\ncat5\nqi\u00a0za\n" * 3
    result = run("judge", "--lexicon", tiny_source, "--batch", "-", input=data.encode())
    assert result.stdout.count("ACCEPTABLE\n") == 12 and result.exit_code == 2
    assert slow == ["cat5", "qi\u00a0za"] * 3
