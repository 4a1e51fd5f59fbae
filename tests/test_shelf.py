"""The lexicon shelf: `adjudicator lexicon add|list`, names resolved there by default (issue 12)."""

import os

import pytest

from adjudicator.lexicon import store as shelf
from adjudicator.config.station import Config
from adjudicator.errors import EXIT_IO, EXIT_LEXICON
from adjudicator.lexicon.known import SHIPPED
from adjudicator.station.lists import lists_for


@pytest.fixture
def club(tmp_path):
    path = tmp_path / "club.txt"
    path.write_text("QI\nZA\nCAT\nXU\n")
    return str(path)


def listed(run) -> dict[str, list[str]]:
    result = run("lexicon", "list")
    assert result.exit_code == 0
    rows = [line.split(None, 4) for line in result.stdout.splitlines()[2:]]
    return {row[0]: row[1:] for row in rows}


def test_the_shelf_is_the_user_data_folder_unless_overridden(monkeypatch, tmp_path):
    assert shelf.shelf_dir() == os.environ["ADJUDICATOR_SHELF"]  # tests never touch the home
    monkeypatch.delenv("ADJUDICATOR_SHELF")
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_data_dir", lambda app: str(tmp_path / "data" / app))
    assert shelf.shelf_dir() == str(tmp_path / "data" / "adjudicator" / "lexicons")


def test_add_then_list_then_judge_by_name_with_no_setting(run, club):
    result = run("lexicon", "list")
    assert result.exit_code == 0 and "is empty" in result.stdout
    assert run("judge", "--lexicon", "CLUB", "qi").exit_code == EXIT_LEXICON  # not yet
    result = run("lexicon", "add", club)
    assert result.exit_code == 0, result.stderr
    assert "CLUB — UNRECOGNISED LIST — 4 words" in result.stdout  # flagged
    assert "WARNING: CLUB is an UNRECOGNISED LIST" in result.stdout
    assert os.listdir(os.environ["ADJUDICATOR_SHELF"]) == ["CLUB.lex"]
    header = run("lexicon", "list").stdout.splitlines()[1]
    assert header.split() == ["NAME", "EDITION", "WORDS", "FINGERPRINT", "RECOGNISED"]
    (name, edition, words, fingerprint, recognised), = [[k] + v for k, v in listed(run).items()]
    assert (name, edition, words, recognised) == ("CLUB", "-", "4", "NO: UNRECOGNISED LIST")
    assert len(fingerprint) == 12
    assert run("judge", "--lexicon", "club", "qi", "za").exit_code == 0
    assert run("judge", "--lexicon", "CLUB", "qi", "zz").exit_code == 1
    assert "CLUB" in run("info", "club").stdout


def test_an_official_list_is_recognised_by_its_words(run):
    result = run("lexicon", "add", os.path.join(SHIPPED, "enable.lex"))  # a compiled lexicon
    assert result.exit_code == 0, result.stderr
    assert "UNRECOGNISED" not in result.stdout
    edition, words, _, recognised = listed(run)["ENABLE"]
    assert (edition, words) == ("ENABLE2K", "168,548")
    assert recognised.startswith("yes: ENABLE word list") and "not a tournament" in recognised


def test_a_list_named_like_an_official_one_but_not_it_is_refused(run, club, tmp_path):
    fake = tmp_path / "CSW21.txt"
    fake.write_text(open(club).read())
    result = run("lexicon", "add", str(fake))
    assert result.exit_code == EXIT_LEXICON
    assert "not CSW21 as published" in result.stderr
    assert listed(run) == {}  # nothing shelved, no temp file left
    assert os.listdir(os.environ["ADJUDICATOR_SHELF"]) == []
    assert run("lexicon", "add", str(fake), "--name", "MYCLUB").exit_code == 0
    assert list(listed(run)) == ["MYCLUB"]


def test_a_different_list_of_the_same_name_needs_replace(run, club, tmp_path):
    assert run("lexicon", "add", club).exit_code == 0
    assert "already on the shelf" in run("lexicon", "add", club).stdout  # the same list: fine
    other = tmp_path / "other" / "club.txt"
    other.parent.mkdir()
    other.write_text("QI\nZA\n")
    result = run("lexicon", "add", str(other))
    assert result.exit_code == EXIT_LEXICON and "--replace" in result.stderr
    assert listed(run)["CLUB"][1] == "4"
    assert "replaced" in run("lexicon", "add", str(other), "--replace").stdout
    assert listed(run)["CLUB"][1] == "2"


def test_a_damaged_file_on_the_shelf_is_listed_as_damaged_and_never_used(run, club):
    assert run("lexicon", "add", club).exit_code == 0
    path = os.path.join(os.environ["ADJUDICATOR_SHELF"], "CLUB.lex")
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) // 2)
    assert "DAMAGED, refused" in run("lexicon", "list").stdout
    result = run("judge", "--lexicon", "CLUB", "qi")
    assert result.exit_code == EXIT_LEXICON and "damaged or truncated" in result.stderr


def test_an_unwritable_shelf_exits_4(run, club, tmp_path, monkeypatch):
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("ADJUDICATOR_SHELF", str(tmp_path / "a-file" / "shelf"))
    result = run("lexicon", "add", club)
    assert result.exit_code == EXIT_IO and result.stderr.startswith("adjudicator: cannot create")


def test_the_kiosk_and_phone_server_find_shelved_names_too(run, club):
    """They load through lists.lists_for (the one loader, lexicon/library.py), as the CLI does."""
    assert run("lexicon", "add", club).exit_code == 0
    lists = lists_for(Config(lexicon="CLUB", secondary_lexicon="club"))
    primary, secondary = lists.first, lists.secondary
    assert primary.name == "CLUB" and "QI" in primary and "ZZ" not in primary
    assert secondary is not None and secondary.fingerprint == primary.fingerprint


def test_the_directors_lexicon_choice_includes_the_shelf(run, club):
    from adjudicator.lexicon.library import available

    assert run("lexicon", "add", club).exit_code == 0
    assert os.path.join(os.environ["ADJUDICATOR_SHELF"], "CLUB.lex") in available()


@pytest.mark.parametrize("what", ["missing", "folder"])
def test_adding_a_file_that_cannot_be_read_exits_4(run, tmp_path, what):
    source = tmp_path / "no-such.txt" if what == "missing" else tmp_path
    result = run("lexicon", "add", str(source))
    assert result.exit_code == EXIT_IO and result.stderr.startswith("adjudicator: cannot read")
    assert listed(run) == {}


def test_remove_takes_a_lexicon_off_the_shelf(run, club):
    assert run("lexicon", "add", club).exit_code == 0
    result = run("lexicon", "remove", "club")
    assert result.exit_code == 0 and result.stdout.startswith("removed: ")
    assert listed(run) == {}
    assert os.path.exists(club)  # the word list itself is not touched
    assert run("judge", "--lexicon", "CLUB", "qi").exit_code == EXIT_LEXICON
    result = run("lexicon", "remove", "CLUB")
    assert result.exit_code == EXIT_LEXICON and "no lexicon named 'CLUB'" in result.stderr


def test_the_kiosk_and_the_phone_server_start_with_a_shelved_name(run, club, tmp_path,
                                                                   monkeypatch):
    """Their real start: `adjudicator kiosk --config P` goes through launch.run_kiosk ->
    kiosk.app.build_app -> open_station -> lists_for -> library.load_lexicon, and the phone
    server (`adjudicator serve`) through phone.build.build_phone_app -> lists_for: both look
    on the shelf with no setting."""
    pytest.importorskip("textual")
    import kiosk.app

    from adjudicator.command import main as command_main
    from adjudicator.config.station import load_config
    from adjudicator.net.token import TokenStore
    from adjudicator.phone.build import build_phone_app

    assert run("lexicon", "add", club).exit_code == 0
    config = tmp_path / "event.toml"
    config.write_text('lexicon = "club"\nsecondary_lexicon = "CLUB"\n'
                      f'journal = "{tmp_path / "j.db"}"\n')
    started = []
    # the kiosk in this process, as the supervisor's child runs it (the supervisor itself is
    # tested through a pty in tests/kiosk/test_kiosk_supervised.py)
    monkeypatch.setenv("ADJUDICATOR_KIOSK_CHILD", "1")
    monkeypatch.setattr(kiosk.app.KioskApp, "run", lambda app, *a, **k: started.append(
        (app.station.config.mode, app.station.lexicon.name, app.station.secondary.name,
         "QI" in app.station.lexicon, "ZZ" in app.station.lexicon)))
    with pytest.raises(SystemExit) as ended:
        command_main(["kiosk", "--config", str(config)])
    assert ended.value.code == 0
    phones = build_phone_app(load_config(str(config)),
                             tokens=TokenStore(str(tmp_path / "token")))
    try:
        station = phones.devices.get("phone-1").station
        started.append((station.config.mode, station.lexicon.name, station.secondary.name,
                        "QI" in station.lexicon, "ZZ" in station.lexicon))
    finally:
        phones.close()
    assert started == [("station", "CLUB", "CLUB", True, False),
                       ("smart-device", "CLUB", "CLUB", True, False)]


def test_a_directors_licensed_list_in_one_step(run):
    """Issue 12's director: `lexicon add CSW19.txt`, then the name works with no setting."""
    from realdata import real_list

    result = run("lexicon", "add", real_list("CSW19.txt"))
    assert result.exit_code == 0, result.stderr
    assert "UNRECOGNISED" not in result.stdout
    edition, words, fingerprint, recognised = listed(run)["CSW19"]
    assert (words, recognised[:4]) == ("279,496", "yes:")
    assert run("judge", "--lexicon", "CSW19", "qi", "za").stdout == "ACCEPTABLE\n"
    assert run("judge", "--lexicon", "csw19", "qi", "qzx").stdout == "UNACCEPTABLE\n"
