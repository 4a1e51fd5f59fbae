"""Files given by path (issue 21, items 6 and 7): a symlink is written through, at its target; a
device, a named pipe, a socket or a folder is refused with exit 4 and stays what it was; a
journal in a folder that is not there is refused (exit 4), never made on the local disk."""

import os
import socket
import stat
import subprocess
import sys

import pytest

from adjudicator.errors import EXIT_IO

ADJUDICATOR = [sys.executable, "-m", "adjudicator"]


@pytest.fixture
def journal(run, tmp_path, tiny):
    path = str(tmp_path / "j.db")
    assert run("judge", "-l", tiny, "--journal", path, "qi").exit_code == 0
    return path


def one_error_line(result, code: int, *says: str) -> str:
    assert result.exit_code == code, (result.exit_code, result.stderr)
    (line,) = result.stderr.splitlines()
    assert line.startswith("adjudicator: "), line
    for text in says:
        assert text in line, line
    return line


def make_special(tmp_path, kind: str) -> str:
    """A device (a copy of /dev/null's node: made only as root), a named pipe, a listening
    socket's file, or a folder, at tmp_path/KIND."""
    path = str(tmp_path / kind)
    if kind == "device":
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(path, stat.S_IFCHR | 0o666, os.stat(os.devnull).st_rdev)
    elif kind == "pipe":
        os.mkfifo(path)
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(path)
        sock.close()
    else:
        os.mkdir(path)
    return path


KIND_WORDS = {"device": "a device", "pipe": "a named pipe", "socket": "a socket",
              "folder": "a folder"}
MODE_TESTS = {"device": stat.S_ISCHR, "pipe": stat.S_ISFIFO, "socket": stat.S_ISSOCK,
              "folder": stat.S_ISDIR}


def writers(tiny, journal, out):
    """Every command that writes a file it is given by path, writing OUT."""
    return {
        "compile": ["compile", tiny, "-o", out],
        "backup": ["journal", "backup", "--journal", journal, out, "--force"],
        "merge": ["journal", "merge", journal, "-o", out, "--force"],
        "export": ["journal", "export", journal, "-o", out],
    }


@pytest.mark.parametrize("command, kind", [
    (command, kind) for command in ("compile", "backup", "merge", "export")
    for kind in ("device", "pipe", "socket", "folder")
    if not (command == "export" and kind in ("device", "pipe"))])  # a stream: see below
def test_a_device_pipe_socket_or_folder_is_refused_and_stays_what_it_was(
        run, tmp_path, tiny, journal, kind, command):
    """`compile -o /dev/full` turned the device into a file, `-o fifo` the pipe (issue 21.6).
    `journal export -o` writes a stream (/dev/stdout, a pipe, `>(gzip)`) as it is: only a
    folder, a socket or a block device is refused there (docs/cli.md)."""
    target = make_special(tmp_path, kind)
    with (link := tmp_path / "link-to-it").open("w"):
        pass
    os.unlink(link)
    os.symlink(target, link)  # through a symlink as well: the target is what counts
    for out in (target, str(link)):
        result = run(*writers(tiny, journal, out)[command])
        one_error_line(result, EXIT_IO, out, f"it is {KIND_WORDS[kind]}")
        assert MODE_TESTS[kind](os.stat(target).st_mode), "it is no longer what it was"
        assert os.path.islink(link)
    left = [p for p in os.listdir(tmp_path) if p.startswith(".") or "merging" in p
            or "copying" in p]
    assert not left


def test_an_export_into_a_named_pipe_is_written_as_a_stream(run, tmp_path, journal):
    """`journal export -o >(gzip > x.gz)` names a pipe: the rows go through it, and it stays a
    pipe (it is never replaced by a file)."""
    import threading

    pipe = make_special(tmp_path, "pipe")
    got = []
    reader = threading.Thread(target=lambda: got.append(open(pipe).read()))
    reader.start()
    result = run("journal", "export", journal, "-o", pipe)
    reader.join(timeout=30)
    assert result.exit_code == 0, result.stderr
    assert got and "QI" in got[0]
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)


@pytest.mark.parametrize("command", ["compile", "backup", "merge", "export"])
def test_a_symlink_is_written_at_its_target_and_stays_a_link(run, tmp_path, tiny, journal,
                                                              command):
    """`compile -o link.lex` replaced the symlink (issue 21.6): the file it points to is
    replaced (atomically, beside it), the link stays."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    real = elsewhere / "real.out"
    real.write_text("the old content")
    link = tmp_path / "link.out"
    os.symlink(real, link)
    result = run(*writers(tiny, journal, str(link))[command])
    assert result.exit_code == 0, result.stderr
    assert os.path.islink(link) and os.readlink(link) == str(real)
    assert real.read_bytes() != b"the old content"
    if command == "compile":
        assert run("info", str(link)).exit_code == 0
    elif command in ("backup", "merge"):
        assert run("journal", "verify", str(link)).exit_code == 0
        assert (elsewhere / "real.out.head").exists()  # beside the journal it belongs to
    assert sorted(os.listdir(elsewhere)) in (["real.out"], ["real.out", "real.out.head"])


def test_a_dangling_symlink_is_written_at_its_target(run, tmp_path, tiny):
    (tmp_path / "lists").mkdir()
    os.symlink(tmp_path / "lists" / "new.lex", tmp_path / "link.lex")
    assert run("compile", tiny, "-o", str(tmp_path / "link.lex")).exit_code == 0
    assert (tmp_path / "lists" / "new.lex").is_file()
    os.symlink(tmp_path / "no-such" / "new.lex", tmp_path / "broken.lex")
    one_error_line(run("compile", tiny, "-o", str(tmp_path / "broken.lex")), EXIT_IO,
                   "no-such is not there")


def test_set_pin_writes_a_symlinked_config_at_its_target(run, tmp_path):
    real = tmp_path / "etc" / "station.toml"
    real.parent.mkdir()
    real.write_text('station = "Hall A"  # kept\n')
    link = tmp_path / "station.toml"
    os.symlink(real, link)
    assert run("set-pin", "--config", str(link), input="2580\n2580\n").exit_code == 0
    assert os.path.islink(link) and "pin_hash" in real.read_text()
    assert "# kept" in real.read_text()


# -- a journal in a folder that is not there (issue 21.7) ---------------------------------------

def station_config(tmp_path, journal: str) -> str:
    path = tmp_path / "station.toml"
    path.write_text(f'journal = "{journal}"\n')
    return str(path)


def hub_config(tmp_path, journal: str) -> str:
    path = tmp_path / "hub.toml"
    path.write_text(f'journal = "{journal}"\n')
    return str(path)


@pytest.mark.parametrize("how", ["--journal", "--config", "--config --batch", "serve", "hub",
                                 "kiosk"])
def test_a_journal_whose_folder_is_not_there_is_refused_not_made(tmp_path, tiny, how):
    """`judge --journal /media/usb/event/j.db` with the stick not mounted made the folders on
    the local disk and recorded there, silently. Every way a journal path is taken refuses it
    with one line and exit 4, before anything is judged or served; nothing is created."""
    missing = tmp_path / "usb" / "event"
    journal = str(missing / "j.db")
    args = {
        "--journal": ["judge", "-l", tiny, "--journal", journal, "qi"],
        "--config": ["judge", "-l", tiny, "--config", station_config(tmp_path, journal), "qi"],
        "--config --batch": ["judge", "-l", tiny, "--config", station_config(tmp_path, journal),
                             "--batch", "-"],
        "serve": ["serve", "--port", "0", "--config", station_config(tmp_path, journal)],
        "hub": ["hub", "--host", "127.0.0.1", "--port", "0", "--config",
                hub_config(tmp_path, journal)],
        "kiosk": ["kiosk", "--config", station_config(tmp_path, journal)],
    }[how]
    proc = subprocess.run(ADJUDICATOR + args, input="qi\n", capture_output=True, text=True,
                          timeout=60)
    assert (proc.returncode, proc.stdout) == (EXIT_IO, ""), (proc.returncode, proc.stderr)
    assert proc.stderr.splitlines() == [
        f"adjudicator: cannot open the journal {journal}: the folder {missing} is not there "
        "(a drive not mounted?); nothing is made in its place"]
    assert not (tmp_path / "usb").exists()


@pytest.mark.parametrize("where, says", [
    ("{tmp}", "it is a folder, not a journal file"),
    ("{tmp}/tiny.txt/j.db", "{tmp}/tiny.txt is not a folder"),
])
def test_a_journal_path_that_is_a_folder_is_said_to_be_one(run, tmp_path, tiny, where, says):
    """`judge --journal FOLDER` said "folder missing or not writable" (issue 21.10)."""
    where, says = where.format(tmp=tmp_path), says.format(tmp=tmp_path)
    result = run("judge", "-l", tiny, "--journal", where, "qi")
    one_error_line(result, EXIT_IO, f"cannot open the journal {where}: {says}")
    assert result.stdout == ""


def test_only_the_default_journal_in_the_user_data_folder_has_its_folder_made(
        run, tmp_path, tiny, monkeypatch):
    monkeypatch.delenv("ADJUDICATOR_JOURNAL")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    import platformdirs

    default = os.path.join(platformdirs.user_data_dir("adjudicator"), "journal.db")
    assert default.startswith(str(tmp_path / "data"))
    config = tmp_path / "station.toml"
    config.write_text('journal = ""\n')
    result = run("judge", "-l", tiny, "--config", str(config), "qi")
    assert (result.exit_code, result.stdout) == (0, "ACCEPTABLE\n"), result.stderr
    assert os.path.isfile(default)
    monkeypatch.setenv("ADJUDICATOR_JOURNAL", str(tmp_path / "elsewhere" / "j.db"))
    one_error_line(run("judge", "-l", tiny, "--config", str(config), "qi"), EXIT_IO,
                   "elsewhere is not there")


def test_the_token_file_is_written_through_a_symlink_and_never_replaces_a_pipe(run, tmp_path):
    config = tmp_path / "event.toml"
    config.write_text(f'journal = "{tmp_path / "j.db"}"\n')
    real = tmp_path / "secrets" / "event.token"
    real.parent.mkdir()
    link = tmp_path / "event.token"
    os.symlink(real, link)
    result = run("serve", "--config", str(config), "--token-file", str(link), "--rotate-token")
    assert result.exit_code == 0, result.stderr
    assert os.path.islink(link) and real.read_text().strip()
    pipe = make_special(tmp_path, "pipe")
    one_error_line(run("serve", "--config", str(config), "--token-file", pipe, "--rotate-token"),
                   EXIT_IO, "it is a named pipe")
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)
