"""Exit codes exactly as docs/cli.md's table says (the README links it), never a traceback (issue 12)."""

import os
import signal
import subprocess
import sys

import click
import pytest

from adjudicator.cli import main
from adjudicator.errors import EXIT_ENTRY, EXIT_IO, EXIT_LEXICON, EXIT_NOT_RECORDED

ADJUDICATOR = [sys.executable, "-m", "adjudicator"]


def error_lines(stderr: str) -> list[str]:
    """STDERR's lines but the warning that the tiny test list is UNRECOGNISED (issue 29): the
    one error line each case is about."""
    return [ln for ln in stderr.splitlines()
            if not ln.startswith("adjudicator: warning: UNRECOGNISED WORD LIST")]


def one_error_line(result, code: int, says: str) -> None:
    assert result.exit_code == code, result.stderr
    assert result.stdout == ""
    (line,) = error_lines(result.stderr)
    assert line.startswith("adjudicator: ") and says in line


@pytest.mark.parametrize("args, says", [
    (["judge", "--batch", "{tmp}/no-such.txt"], "cannot read"),
    (["judge", "--batch", "{tmp}"], "Is a directory"),
    (["compile", "{tiny}", "-o", "{tmp}/no-such-folder/x.lex"], "cannot write lexicon"),
    (["compile", "{tmp}", "-o", "{tmp}/x.lex"], "it is a folder, not a regular file"),
    (["compile", "{tmp}/no-such.txt", "-o", "{tmp}/x.lex"], "cannot read word list"),
    (["compile", "{tiny}", "-o", "{tmp}"], "cannot write lexicon"),
    (["journal", "verify", "{tmp}/no-such.db"], "no journal at"),
    (["journal", "verify", "{tmp}"], "no journal at"),
    (["journal", "verify"], "no journal at"),  # the default journal, not there yet
    (["journal", "export", "{tmp}/no-such.db"], "no journal at"),
])
def test_a_file_that_cannot_be_read_or_written_exits_4(run, tmp_path, tiny, args, says):
    args = [a.format(tmp=tmp_path, tiny=tiny) for a in args]
    one_error_line(run(*args), EXIT_IO, says)
    assert not (tmp_path / "x.lex").exists()
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".lexicon-")]  # no temp left


@pytest.mark.parametrize("out", ["{tmp}/no-such-folder/x.csv", "{tmp}/a-file/x.csv"])
def test_an_export_that_cannot_be_written_exits_4_not_5(run, tmp_path, tiny, out):
    """`journal export -o` into a missing folder is a file that cannot be written (exit 4),
    not a broken chain or NOT RECORDED (5), as the README's table says."""
    (tmp_path / "a-file").write_text("")
    journal = str(tmp_path / "j.db")
    assert run("judge", "-l", tiny, "--journal", journal, "qi").exit_code == 0
    one_error_line(run("journal", "export", journal, "-o", out.format(tmp=tmp_path)),
                   EXIT_IO, "cannot write")


@pytest.mark.parametrize("args, says", [
    (["journal", "backup", "--journal", "{j}", "{tmp}/taken.db"], "already exists"),
    (["journal", "merge", "{j}", "-o", "{tmp}/taken.db"], "already exists"),
    (["journal", "verify", "{j}", "--slips", "{tmp}/no-such-slips.txt"], "cannot read the slips"),
])
def test_a_journal_destination_or_slips_file_that_cannot_be_used_exits_4(run, tmp_path, tiny,
                                                                         args, says):
    """A backup or merge onto a file already there, or a slips file not there: a file that
    cannot be written or read (4), not a broken chain (5)."""
    journal = str(tmp_path / "j.db")
    assert run("judge", "-l", tiny, "--journal", journal, "qi").exit_code == 0
    (tmp_path / "taken.db").write_text("the director's earlier copy")
    one_error_line(run(*[a.format(tmp=tmp_path, j=journal) for a in args]), EXIT_IO, says)
    assert (tmp_path / "taken.db").read_text() == "the director's earlier copy"


def test_an_unwritable_cache_folder_exits_4(run, tmp_path, tiny, monkeypatch):
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path / "a-file" / "cache"))
    one_error_line(run("judge", "--lexicon", tiny, "qi"), EXIT_IO, "cache folder")


def test_lexicon_and_usage_errors_keep_their_codes(run, tmp_path, tiny):
    one_error_line(run("judge", "--lexicon", "NO-SUCH-LIST", "qi"), EXIT_LEXICON, "not found")
    one_error_line(run("judge", "--no-such-option"), EXIT_ENTRY, "no-such-option")
    (tmp_path / "bad.txt").write_text("QI\nCAT5\n")
    one_error_line(run("compile", str(tmp_path / "bad.txt"), "-o", str(tmp_path / "b.lex")),
                   EXIT_LEXICON, "line 2")


def test_a_truncated_lexicon_is_called_damaged_or_truncated(run, tmp_path, tiny):
    out = tmp_path / "t.lex"
    assert run("compile", tiny, "-o", str(out)).exit_code == 0
    data = out.read_bytes()
    for cut in (len(data) // 2, len(data) - 1, 40):
        out.write_bytes(data[:cut])
        one_error_line(run("judge", "--lexicon", str(out), "qi"), EXIT_LEXICON,
                       "the lexicon file is damaged or truncated")
        one_error_line(run("info", str(out)), EXIT_LEXICON, "damaged or truncated")


def test_not_recorded_has_the_prefix_every_error_has(run, tmp_path, tiny):
    (tmp_path / "foreign.db").write_text("another program's file")
    journal = str(tmp_path / "foreign.db")  # not a journal: nothing is recorded
    result = run("judge", "-l", tiny, "--journal", journal, "qi")
    assert (result.stdout, result.exit_code) == ("ACCEPTABLE\n", EXIT_NOT_RECORDED)
    (line,) = error_lines(result.stderr)
    assert line.startswith("adjudicator: NOT RECORDED: call the director (")
    result = run("judge", "-l", tiny, "--journal", journal, "--batch", "-", input=b"qi\nqz\n")
    assert (result.stdout, result.exit_code) == ("ACCEPTABLE\nUNACCEPTABLE\n", EXIT_NOT_RECORDED)
    lines = error_lines(result.stderr)
    assert [line[:len("adjudicator: NOT RECORDED: call the director (line 1: ")] for line in lines
            ] == [f"adjudicator: NOT RECORDED: call the director (line {n}: " for n in (1, 2)]


# What a command writes, when it runs as it would at an event, and what it is given to read.
PIN = "2580\n2580\n"  # set-pin asks twice; without a terminal it reads standard input


def leaf_commands() -> set[tuple[str, ...]]:
    """Every command the `adjudicator` group has, as the words that name it."""
    found = set()

    def walk(command, path):
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), path + (name,))
        else:
            found.add(path)

    walk(main, ())
    return found


def _commands(tmp_path, tiny, printer, live_hub):
    """Every command, each run for real (as well as its --help), ready to run. The kiosk alone is
    run only for --help: it draws through Textual on the terminal and never writes stdout."""
    journal = str(tmp_path / "j.db")
    subprocess.run(ADJUDICATOR + ["judge", "-l", tiny, "--journal", journal, "qi"], check=True,
                   capture_output=True)
    batch = tmp_path / "batch.txt"
    batch.write_text("qi za\ncat\n" * 5000)
    config = str(tmp_path / "event.toml")
    fast = ["--columns", "32", "--write-timeout", "1"]
    hub = tmp_path / "hub.toml"
    hub.write_text(f'journal = "{tmp_path / "hub.db"}"\n')
    station = tmp_path / "station.toml"
    station.write_text(f'journal = "{journal}"\nhub = "{live_hub[0]}"\n'
                       f'hub_token = "{live_hub[1]}"\nhub_fingerprint = "{live_hub[2]}"\n')
    hub, station = str(hub), str(station)
    return [
        ["--help"], ["--version"], ["judge", "--help"], ["kiosk", "--help"], ["serve", "--help"],
        ["judge", "-l", tiny, "qi", "za"], ["judge", "-l", tiny, "qz"],
        ["judge", "-l", tiny, "--batch", str(batch)],
        ["judge", "-l", tiny, "--journal", journal, "qi"],
        ["judge", "-l", tiny, "--journal", journal, "--batch", str(batch)],
        ["compile", tiny, "-o", str(tmp_path / "out.lex")], ["info"], ["info", tiny],
        ["lexicon", "add", tiny], ["lexicon", "list"], ["lexicon", "remove", "TINY"],
        ["lexicon", "scan", str(tmp_path)],
        ["lexicon", "--help"], ["lexicon"], [],
        ["journal", "verify", journal], ["journal", "export", journal],
        ["journal", "merge", journal, "-o", str(tmp_path / "merged.db"), "--force"],
        ["journal", "backup", "--journal", journal, str(tmp_path / "copy.db"), "--force"],
        ["printer", "status", printer.path], ["printer", "test", printer.path, *fast],
        ["printer", "reprint", "1", "--journal", journal, "--url", printer.path, *fast],
        ["set-pin", "--config", config],
        ["serve", "--port", "0", "--config", config, "--rotate-token"],
        ["serve", "--port", "0", "--config", config],  # its link and code, then it would serve
        ["hub", "--port", "0", "--config", hub],  # its URL and lines, then it would serve
        ["journal", "push", "--config", station],  # to a live hub: "N rows sent..."
        ["join", f"{live_hub[0]}/join?code=x&sha256={live_hub[2]}", "--config", str(tmp_path / "joined.toml")],
    ]


@pytest.fixture
def live_hub(tmp_path):
    """A real `adjudicator hub` on a free port: (its URL, the stations' token, the SHA-256 of
    its certificate)."""
    import re
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = tmp_path / "live-hub.toml"
    config.write_text(f'journal = "{tmp_path / "live-hub.db"}"\n')
    proc = subprocess.Popen(ADJUDICATOR + ["hub", "--host", "127.0.0.1", "--port", str(port),
                                           "--config", str(config)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        token = pin = None
        for line in proc.stdout:
            if found := re.search(r'hub_fingerprint = "([^"]+)"', line):
                pin = found.group(1)
            if found := re.search(r'hub_token = "([^"]+)"', line):
                token = found.group(1)
                break
        assert token and pin, "the hub printed no hub_token or hub_fingerprint line"
        yield f"https://127.0.0.1:{port}", token, pin
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def fake_printer():
    """The docket tests' printer on a pseudo-terminal (it answers status requests)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent / "docket" / "fake_printer.py"
    spec = importlib.util.spec_from_file_location("fake_printer_for_exits", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    printer = module.FakePrinter()
    yield printer
    printer.close()


def test_the_output_test_runs_every_command(tmp_path, tiny, fake_printer, live_hub):
    """A command added later is added to the test below, or this fails."""
    run = {tuple(a[:len(c)]) for a in _commands(tmp_path, tiny, fake_printer, live_hub) for c in
           leaf_commands() if a[len(c):len(c) + 1] != ["--help"]}
    assert leaf_commands() - run == {("kiosk",)}  # draws on the terminal, never on stdout


@pytest.mark.parametrize("how", ["closed", "full", "read-only"])
def test_every_command_with_its_output_closed_full_or_unwritable(tmp_path, tiny, how,
                                                                 fake_printer, live_hub):
    """stdout closed (>&-), /dev/full, or opened read-only: exit 4, one line on stderr, never a
    traceback, never 0 or 1 (set-pin's prompts go to stderr before it)."""
    if how == "full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    for args in _commands(tmp_path, tiny, fake_printer, live_hub):
        if how == "closed":
            kwargs = {"stdout": subprocess.DEVNULL, "preexec_fn": lambda: os.close(1)}
        else:
            target = open("/dev/full" if how == "full" else os.devnull, "w" if how == "full"
                          else "r")
            kwargs = {"stdout": target}
        proc = subprocess.run(ADJUDICATOR + args, input=PIN if args[:1] == ["set-pin"] else "",
                              stderr=subprocess.PIPE, text=True, env=env, timeout=60, **kwargs)
        if how != "closed":
            target.close()
        assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, args
        lines = error_lines(proc.stderr)
        if args[:1] == ["set-pin"]:  # its prompts, then the one error line
            lines = lines[-1:]
        assert (proc.returncode, len(lines)) == (EXIT_IO, 1), (args, proc.returncode, lines)
        assert lines[0].startswith("adjudicator: cannot write standard output"), (args, lines)


@pytest.mark.parametrize("recorded", [False, True])
def test_a_closed_pipe_ends_quietly_never_with_1(tmp_path, tiny, recorded):
    """`adjudicator judge --batch big.txt | head -1`: SIGPIPE's death or 0, silently."""
    batch = tmp_path / "big.txt"
    batch.write_text("qi za\ncat xu\nqz\n" * 200_000)
    journal = ["--journal", str(tmp_path / "j.db")] if recorded else []
    proc = subprocess.Popen(ADJUDICATOR + ["judge", "-l", tiny, *journal, "--batch", str(batch)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline() == b"ACCEPTABLE\n"
    proc.stdout.close()  # as head does after its line
    err = proc.stderr.read()
    code = proc.wait(timeout=60)
    assert code in (0, -signal.SIGPIPE), code
    assert error_lines(err.decode()) == []


@pytest.mark.parametrize("args", [[], ["lexicon"], ["journal"]])
def test_a_command_group_alone_shows_its_help_not_a_squashed_error(run, args):
    result = run(*args)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith("Usage: ") and "Commands:" in result.stdout


def test_a_batch_from_a_closed_standard_input_exits_4(tiny):
    proc = subprocess.run(ADJUDICATOR + ["judge", "-l", tiny, "--batch", "-"], text=True,
                          capture_output=True, preexec_fn=lambda: os.close(0), timeout=60)
    assert proc.returncode == EXIT_IO and proc.stdout == ""
    assert error_lines(proc.stderr) == ["adjudicator: cannot read standard input: it is closed"]


def default_sigint() -> None:
    """In the child: Ctrl-C's default action, whether or not the test run ignores SIGINT (a run
    started in the background, `cmd &`, does: Python then never raises KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_exits_130_not_an_io_code(tiny, tmp_path):
    """Interrupted (SIGINT) while reading a batch from a pipe: one line, 130 as a shell says."""
    proc = subprocess.Popen(ADJUDICATOR + ["judge", "-l", tiny, "--batch", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=default_sigint)
    proc.stdin.write(b"qi\n")
    proc.stdin.flush()
    assert proc.stdout.readline() == b"ACCEPTABLE\n"
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)  # before stdin is closed: an end of input first would end it with 0
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert error_lines(err.decode()) == ["adjudicator: interrupted"]


def test_an_os_error_no_command_caught_is_named_for_what_failed():
    import errno

    from adjudicator.cli import describe_os_error

    assert describe_os_error(OSError(errno.ENOENT, "No such file", "/x/y")) == (
        "cannot read or write /x/y: No such file")
    assert describe_os_error(OSError(errno.ETIMEDOUT, "Timed out")) == (
        "input/output error: Timed out")  # not blamed on standard output


def test_the_docs_state_the_exit_codes_and_entry_rules_the_code_uses():
    """Issue 12: 'the README's exit-code table and entry rules are exactly what the code does'.
    They moved to docs/cli.md, which the README links (issue 44). The table's codes are the
    code's; the entry paragraph names each separator and the batch's line ends (what each code
    and rule does is proven by the tests above and tests/test_entry)."""
    import re
    from pathlib import Path

    from adjudicator.text import entry
    from adjudicator import errors

    root = Path(__file__).parent.parent
    assert "(docs/cli.md)" in (root / "README.md").read_text()
    page = (root / "docs" / "cli.md").read_text()
    table = {int(code) for code in re.findall(r"^\| (\d+) \|", page, re.M)}
    assert table == {0, 1} | {v for k, v in vars(errors).items() if k.startswith("EXIT_")}
    rules = re.search(r"\*\*Entry\.\*\*(.*?)\n\n", page, re.S).group(1).replace("\n", " ")
    for ch in entry.SEPARATORS:
        assert ("a comma" if ch == "," else f"(U+{ord(ch):04X}") in rules, repr(ch)
    batch = re.search(r"\*\*Batch\.\*\*(.*?)\n\n", page, re.S).group(1).replace("\n", " ")
    assert "A line ends only at LF or CRLF: a lone CR (U+000D) stays in its line" in batch


def test_set_pin_without_a_terminal_prints_no_python_warning(tmp_path):
    """Scripted or over ssh without a tty, set-pin reads the PIN from standard input: the
    director sees its prompts (and that input may be echoed), never Python's GetPassWarning with
    a line of its source."""
    config = tmp_path / "station.toml"
    proc = subprocess.run(ADJUDICATOR + ["set-pin", "--config", str(config)], input=PIN,
                          capture_output=True, text=True, timeout=60, start_new_session=True)
    assert proc.returncode == 0, proc.stderr
    assert "pin_hash" in config.read_text()
    assert "GetPassWarning" not in proc.stderr and "getpass" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("journal", ["{tmp}/no-such.db", "{tiny}"])
def test_a_failed_export_leaves_the_earlier_export_as_it_was(run, tmp_path, tiny, journal):
    """`journal export WRONG.db -o challenges.csv` (a typo, another program's file) says so and
    leaves challenges.csv as it was: nothing is lost, no empty file, no temporary file left."""
    out = tmp_path / "challenges.csv"
    out.write_text("the export made an hour ago\n")
    result = run("journal", "export", journal.format(tmp=tmp_path, tiny=tiny), "-o", str(out))
    assert result.exit_code in (EXIT_IO, EXIT_NOT_RECORDED) and result.stderr
    assert out.read_text() == "the export made an hour ago\n"
    assert set(os.listdir(tmp_path)) - {"cache"} == {"challenges.csv", "tiny.txt"}
    result = run("journal", "export", journal.format(tmp=tmp_path, tiny=tiny), "-o",
                 str(tmp_path / "new.csv"))
    assert not (tmp_path / "new.csv").exists()


def test_an_export_replaces_its_file_whole(run, tmp_path, tiny):
    journal, out = str(tmp_path / "j.db"), tmp_path / "challenges.csv"
    assert run("judge", "-l", tiny, "--journal", journal, "qi", "za").exit_code == 0
    out.write_text("old\n" * 1000)
    assert run("journal", "export", journal, "-o", str(out)).exit_code == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 2 and lines[1].split(",")[7:9] == ["QI ZA", "ACCEPTABLE"]
    assert set(os.listdir(tmp_path)) - {"cache"} == {"challenges.csv", "j.db", "j.db.head",
                                                      "tiny.txt"}


def test_a_recheck_of_a_challenge_the_journal_does_not_hold_is_refused(run, tmp_path, tiny):
    """`--recheck-of 99` in a journal of two challenges is a typo (WESPA 3.10.9 rechecks a
    challenge that was judged): exit 2 naming it, nothing judged or recorded, no orphan recheck."""
    from adjudicator.journal import Journal

    journal = str(tmp_path / "j.db")
    assert run("judge", "-l", tiny, "--journal", journal, "qi", "za").exit_code == 0
    result = run("judge", "-l", tiny, "--journal", journal, "--recheck-of", "99", "qi", "za")
    one_error_line(result, EXIT_ENTRY, "no challenge 99")
    result = run("judge", "-l", tiny, "--journal", journal, "--recheck-of", "1", "qi", "za")
    assert (result.exit_code, result.stdout) == (0, "ACCEPTABLE\n")
    with Journal.open(journal) as j:
        assert [r.recheck_of for r in j.rows()] == [None, 1]


# -- every command, each mistake: its code and its one line (issue 21.10) ----------------------

# (command line, standard input, exit code, what the one line says). {tmp}: the test's folder;
# {tiny}: a word list; {j}: a journal of one challenge; {fifo}: a named pipe; {cfg_missing}: a
# station config whose journal's folder is not there; {bad_cfg}: a config with an unknown key.
MISTAKES = [
    (["judge"], None, 2, "No words entered"),
    (["judge", "-l", "{tiny}", "qi", "--batch", "-"], None, 2, "give either WORDS or --batch"),
    (["judge", "-l", "{tiny}", "--round", "3", "qi"], None, 2, "need --journal PATH"),
    (["judge", "-l", "{tiny}", "--journal", "{j}", "--recheck-of", "9", "qi"], None, 2,
     "no challenge 9"),
    (["judge", "-l", "{tiny}", "qi", "ca5"], None, 2, "'5' is not a letter"),
    (["judge", "--lexicon", "NO-SUCH-LIST", "qi"], None, 3, "not found"),
    (["judge", "-l", "{tiny}", "--batch", "{tmp}/no-such.txt"], None, 4, "cannot read"),
    (["judge", "-l", "{tiny}", "--journal", "{tmp}/usb/j.db", "qi"], None, 4,
     "the folder {tmp}/usb is not there"),
    (["judge", "-l", "{tiny}", "--journal", "{tmp}", "qi"], None, 4,
     "cannot open the journal {tmp}: it is a folder, not a journal file"),
    (["judge", "-l", "{tiny}", "--config", "{cfg_missing}", "qi"], None, 4, "is not there"),
    (["judge", "-l", "{tiny}", "--config", "{bad_cfg}", "qi"], None, 6, "key bogus"),
    (["compile", "{tiny}", "-o", "{tmp}/usb/x.lex"], None, 4, "the folder {tmp}/usb is not there"),
    (["compile", "{tiny}", "-o", "{fifo}"], None, 4, "it is a named pipe, not a file"),
    (["compile", "{tiny}", "-o", "{tmp}"], None, 4, "it is a folder, not a file"),
    (["compile", "{bad_list}", "-o", "{tmp}/x.lex"], None, 3, "line 2"),
    (["info", "NO-SUCH-LIST"], None, 3, "not found"),
    (["lexicon", "add", "{tmp}/no-such.txt"], None, 4, "cannot read"),
    (["lexicon", "remove", "NO-SUCH-LIST"], None, 3, "no lexicon named 'NO-SUCH-LIST'"),
    (["journal", "verify", "{tmp}/no-such.db"], None, 4, "no journal at"),
    (["journal", "verify", "{j}", "--slips", "{bad_slips}"], None, 2,
     "bad-slips.txt:2: 'twelve 3fa9c01d': no challenge number"),
    (["journal", "verify", "{j}", "--slips", "{tmp}/no-such.txt"], None, 4,
     "cannot read the slips"),
    (["journal", "export", "{j}", "-o", "{tmp}"], None, 4, "it is a folder"),
    (["journal", "export", "{j}", "--since", "yesterday"], None, 2, "--since"),
    (["journal", "backup", "--journal", "{j}", "{fifo}", "--force"], None, 4, "named pipe"),
    (["journal", "merge", "{j}", "-o", "{tmp}/usb/e.db"], None, 4, "is not there"),
    (["journal", "push", "--config", "{cfg_missing}"], None, 6, "no hub set"),
    (["set-pin", "--config", "{tmp}/pin.toml"], "12\n", 2,
     "a PIN has 4 to 64 characters; no PIN was set"),
    (["set-pin", "--config", "{tmp}/pin.toml"], "2580\n2581\n", 2, "the two PINs differ"),
    (["set-pin", "--config", "{tmp}/pin.toml"], "", 6, "no PIN was set"),
    (["printer", "test", "bogus://x"], None, 2,
     "'bogus://x' is not a printer address: no such scheme bogus://"),
    (["printer", "status", "bogus://x"], None, 2, "no such scheme bogus://"),
    (["printer", "test", "--config", "{bogus_printer}"], None, 6,
     "key printer.url: 'bogus://y' is not a printer address"),
    (["printer", "status"], None, 7, "no printer"),
    (["printer", "reprint", "999", "--journal", "{j}", "--url", "{tmp}/printer"], None, 2,
     "there is no challenge 999 in the journal"),
    (["printer", "reprint", "1", "--journal", "{tmp}/no-such.db", "--url", "{tmp}/printer"],
     None, 4, "no journal at"),
    (["serve", "--port", "99999"], None, 2, "99999 is not in the range"),
    (["serve", "--port", "0", "--config", "{cfg_missing}"], None, 4, "is not there"),
    (["hub", "--port", "0", "--config", "{hub_missing}"], None, 4, "is not there"),
    (["hub", "--port", "0", "--config", "{tmp}/usb/hub.toml"], None, 4,
     "cannot write the hub config {tmp}/usb/hub.toml: the folder {tmp}/usb is not there"),
    (["kiosk", "--config", "{cfg_missing}"], None, 4, "is not there"),
    (["kiosk", "--mode", "bogus"], None, 2, "'bogus' is not one of"),
    (["no-such-command"], None, 2, "No such command"),
]


@pytest.fixture
def mistakes_setup(run, tmp_path, tiny):
    journal = str(tmp_path / "j.db")
    assert run("judge", "-l", tiny, "--journal", journal, "qi").exit_code == 0
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    files = {"cfg_missing": f'journal = "{tmp_path / "usb" / "j.db"}"\n',
             "hub_missing": f'journal = "{tmp_path / "usb" / "hub.db"}"\n',
             "bad_cfg": "bogus = 1\n", "bogus_printer": '[printer]\nurl = "bogus://y"\n',
             "bad_list": "QI\nCAT5\n", "bad_slips": "# slips\ntwelve 3fa9c01d\n"}
    names = {"bad_list": "bad.txt", "bad_slips": "bad-slips.txt"}
    values = {"tmp": str(tmp_path), "tiny": tiny, "j": journal, "fifo": str(fifo)}
    for key, text in files.items():
        path = tmp_path / names.get(key, f"{key}.toml")
        path.write_text(text)
        values[key] = str(path)
    return values


@pytest.mark.parametrize("args, stdin, code, says", MISTAKES,
                         ids=[" ".join(m[0][:3]) + f"-{n}" for n, m in enumerate(MISTAKES)])
def test_every_command_with_each_mistake_gives_its_code_and_one_line(
        run, mistakes_setup, tmp_path, args, stdin, code, says):
    """The README's table, command by command: usage mistakes 2, lexicon 3, files 4, journal
    5, config 6, printer 7; one `adjudicator:` line naming the mistake; nothing made on disk
    where a folder was not there."""
    args = [a.format(**mistakes_setup) for a in args]
    result = run(*args, input=stdin)
    lines = error_lines(result.stderr)
    if args[0] == "set-pin":
        lines = [line for line in lines if line.startswith("adjudicator:")]  # after its prompts
    assert (result.exit_code, len(lines)) == (code, 1), (result.exit_code, result.stderr)
    assert lines[0].startswith("adjudicator: ") and says.format(**mistakes_setup) in lines[0], \
        lines[0]
    assert "Traceback" not in result.output
    assert not (tmp_path / "usb").exists()


@pytest.mark.parametrize("how", ["argument", "batch"])
def test_a_byte_that_is_not_utf8_is_named_as_the_byte_on_both_paths(tiny, how):
    """`judge $'\\xe9a'` named U+DCE9 where the batch named U+FFFD for the same byte."""
    if how == "argument":
        proc = subprocess.run(ADJUDICATOR + ["judge", "-l", tiny, os.fsdecode(b"\xe9a")],
                              capture_output=True, timeout=60)
        said = proc.stderr.decode()
    else:
        proc = subprocess.run(ADJUDICATOR + ["judge", "-l", tiny, "--batch", "-"],
                              input=b"\xe9a\n", capture_output=True, timeout=60)
        said = proc.stdout.decode()
    assert proc.returncode == EXIT_ENTRY
    assert "byte 0xE9 (not UTF-8) is not a letter" in said, said
    assert "U+DCE9" not in said and "\ufffd" not in said


def test_serve_stopped_with_ctrl_c_exits_130_with_one_line_as_the_hub_does(tmp_path):
    """`serve` stopped by Ctrl-C exited 0 while `hub` exited 130 (SIGTERM and SIGHUP, a service
    manager's stop, still end it with 0: tests/web/test_phone_server.py)."""
    config = tmp_path / "event.toml"
    config.write_text(f'journal = "{tmp_path / "j.db"}"\n')
    proc = subprocess.Popen(ADJUDICATOR + ["serve", "--port", "0", "--config", str(config)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)
    try:
        for line in proc.stdout:
            if "Ctrl+C to stop" in line:
                break
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert error_lines(err) == ["adjudicator: interrupted"]


@pytest.mark.parametrize("option, value", [("--table", "²"), ("--table", "0"),
                                           ("--round", "١٢"), ("--table", " ")])
def test_a_table_the_hub_would_not_sort_is_refused_at_the_command_line(run, tmp_path, tiny,
                                                                       option, value):
    """`judge --config station.toml --table ² dog` (an AZERTY keyboard's ² key): one line,
    exit 2, nothing judged, nothing recorded, nothing sent (adjudicator/event/tables.py)."""
    config = tmp_path / "station.toml"
    config.write_text(f'station = "Desk 1"\njournal = "{tmp_path}/s.db"\nmode = "runner"\n'
                      f'lexicon = "{tiny}"\n')
    if value.strip():
        one_error_line(run("judge", "--config", str(config), option, value, "dog"), EXIT_ENTRY,
                       f"{value!r} is not a {option[2:]}: type a number from 1 to 9999")
        one_error_line(run("judge", "--journal", str(tmp_path / "j.db"), option, value, "qi"),
                       EXIT_ENTRY, "type a number from 1 to 9999")
        assert not (tmp_path / "s.db").exists() and not (tmp_path / "j.db").exists()
    else:  # a blank table is no table (the hub refuses a blank one: never sent so)
        assert run("judge", "--config", str(config), option, value, "qi").exit_code in (0, 1)


@pytest.mark.parametrize("name, says", [("x" * 101, "--station is longer than 100 characters"),
                                        ("Desk\u200b1", "a control or invisible character"),
                                        ("\udcff", "a control or invisible character")])
def test_a_station_name_the_hub_would_refuse_is_refused_first(run, tmp_path, tiny, name, says):
    """A name the hub would refuse (longer than it takes) or could not draw (a zero-width
    space, a byte that is not UTF-8, as a shell passes it) would leave every row stuck at
    the station: exit 2, nothing judged or recorded."""
    result = run("judge", "--journal", str(tmp_path / "j.db"), "--station", name, "qi")
    one_error_line(result, EXIT_ENTRY, says)
    assert not (tmp_path / "j.db").exists()
    config = tmp_path / "station.toml"
    config.write_text(f'station = "{"x" * 101}"\njournal = "{tmp_path}/s.db"\n')
    one_error_line(run("judge", "--config", str(config), "qi"), 6,
                   "key station: is longer than 100 characters")
