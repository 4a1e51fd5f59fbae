"""`adjudicator lexicon scan`: the lists Zyzzyva, Quackle and KWG programs keep, found (issue 22)."""

import os
import shutil
import sqlite3

import pytest

from adjudicator.lexicon import scan as scan_mod
from graph_files import kwg_bytes, quackle_bytes, write_dwg_set, write_zyzzyva_db
from realdata import real_list

WORDS = ["QI", "ZA", "CAT", "CATS", "XU"]


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A home folder of our own, and no real install folder seen (they might exist here)."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("USERPROFILE", raising=False)
    real = scan_mod.default_places
    monkeypatch.setattr(scan_mod, "default_places",
                        lambda: [p for p in real() if p.startswith(str(folder))])
    return folder


def test_places_cover_zyzzyva_and_quackle_on_each_system(monkeypatch):
    monkeypatch.setenv("USERPROFILE", r"C:\Users\td")
    monkeypatch.setenv("ProgramFiles", r"C:\Program Files")
    places = scan_mod.default_places()
    home = os.path.expanduser("~")
    assert os.path.join(home, ".collinszyzzyva", "lexicons") in places  # Zyzzyva's databases
    assert "/usr/share/zyzzyva/data/words" in places
    assert "/Applications/Collins Zyzzyva.app/Contents/MacOS/data/words" in places
    assert os.path.join(r"C:\Program Files", "Collins Zyzzyva", "data", "words") in places
    assert os.path.join(r"C:\Users\td", "Zyzzyva") in places
    assert "/usr/share/quackle/data/lexica" in places
    assert os.path.join(r"C:\Program Files", "Quackle", "data", "lexica") in places


def test_scan_finds_zyzzyva_database_in_home_and_lists_in_a_folder(home, tmp_path, run):
    lexicons = home / ".collinszyzzyva" / "lexicons"
    lexicons.mkdir(parents=True)
    write_zyzzyva_db(lexicons / "CLUB.db", WORDS)
    folder = tmp_path / "usb"
    words = folder / "data" / "words" / "British"
    words.mkdir(parents=True)
    write_dwg_set(words, "CLUB", WORDS)
    (folder / "club.dawg").write_bytes(quackle_bytes(WORDS))
    (folder / "club.kwg").write_bytes(kwg_bytes(WORDS))
    (folder / "broken.kwg").write_bytes(kwg_bytes(WORDS)[:-6])
    conn = sqlite3.connect(folder / "quiz.db")  # an SQLite file that is no lexicon: not listed
    conn.execute("CREATE TABLE questions (q text)")
    conn.commit()
    conn.close()
    deep = folder / "a" / "b" / "c" / "d"
    deep.mkdir(parents=True)
    (deep / "too-deep.kwg").write_bytes(kwg_bytes(WORDS))  # bounded: never the whole disk
    result = run("lexicon", "scan", str(folder))
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert f"{words / 'CLUB.dwg'}\n  Zyzzyva word graph (.dwg), 5 words, NOT an official" in out
    assert "CLUB-R.dwg" not in out and "Checksums" not in out  # companions, not lists
    assert f"{folder / 'club.dawg'}\n  Quackle DAWG (.dawg, version 1), 5 words" in out
    assert f"{folder / 'club.kwg'}\n  KWG word graph" in out
    assert f"{folder / 'broken.kwg'}\n  refused: {folder / 'broken.kwg'}: " in out
    assert f"{lexicons / 'CLUB.db'}\n  Zyzzyva lexicon database (SQLite), 5 words" in out
    assert "too-deep" not in out and "quiz.db" not in out
    assert out.endswith("add one: adjudicator lexicon add PATH\n")
    assert run("lexicon", "add", str(lexicons / "CLUB.db")).exit_code == 0


def test_scan_with_nothing_found_says_where_it_looked(home, tmp_path, run):
    result = run("lexicon", "scan", str(tmp_path / "home"))
    assert result.exit_code == 0
    assert "No word lists found. Looked in:" in result.stdout
    assert str(home / ".collinszyzzyva" / "lexicons") in result.stdout


def test_scan_names_the_official_list_of_a_real_zyzzyva_install(home, run):
    words = home / "Zyzzyva" / "data" / "words" / "British"  # %USERPROFILE%\\Zyzzyva layout
    words.mkdir(parents=True)
    for name in ("CSW19.dwg", "CSW19-R.dwg", "CSW19-Checksums.txt"):
        shutil.copyfile(real_list(os.path.join("formats", name)), words / name)
    result = run("lexicon", "scan")
    assert result.exit_code == 0
    assert (f"{words / 'CSW19.dwg'}\n  Zyzzyva word graph (.dwg), 279,496 words, official: "
            "CSW19 (Collins Scrabble Words 2019)") in result.stdout
    assert run("lexicon", "add", str(words / "CSW19.dwg")).exit_code == 0
    assert "CSW19" in run("lexicon", "list").stdout
