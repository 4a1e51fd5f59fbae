"""Issue 32 item 6: a compiled list is what its words are. A .lex altered by hand (a word taken
out, another put in, the count kept), its header's official name and fingerprint kept and its
footer checksum recomputed, passes the checksum: it must still never judge under that name, on
any path. The tiny list stands in for CSW24: its fingerprint is made CSW24's for the test."""

from __future__ import annotations

import io
import json

import marisa_trie
import pytest

from adjudicator.config.station import load_config
from adjudicator.errors import LexiconError
from adjudicator.event.setup import Division, Event
from adjudicator.hub.event_setup import pin_lists
from adjudicator.lexicon import store
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon, fingerprint_words, write_compiled
from adjudicator.lexicon.known import KnownLexicon, known_lexicons
from adjudicator.lexicon.library import load_lexicon
from adjudicator.station.lists import lists_for
from adjudicator.net.token import TokenStore
from adjudicator.phone.build import build_phone_app
from adjudicator.station.service import open_station
from adjudicator.judging.verdict import adjudicate
from kiosk_refusal import refused_after_first_paint

WORDS = ["QI", "ZA", "CAT", "XU"]
ALTERED = ["ZZZZZQ", "ZA", "CAT", "XU"]  # QI out, a non-word in: the same count


@pytest.fixture
def altered(tmp_path, monkeypatch):
    """(the genuine CSW24.lex, the altered one): both say CSW24 with the official fingerprint."""
    src = tmp_path / "words.txt"
    src.write_text("\n".join(WORDS) + "\n")
    genuine = tmp_path / "genuine" / "CSW24.lex"
    genuine.parent.mkdir()
    fingerprint = fingerprint_words(WORDS)
    monkeypatch.setitem(known_lexicons(), fingerprint, KnownLexicon(
        "CSW24", "Collins Scrabble Words 2024", "2024", "tests", len(WORDS), fingerprint))
    report = compile_sources([str(src)], str(genuine), name="CSW24")
    header = Lexicon.load(str(genuine)).header
    bad = tmp_path / "lists" / "CSW24.lex"
    bad.parent.mkdir()
    write_compiled(str(bad), marisa_trie.Trie(ALTERED).tobytes(), header)  # checksum recomputed
    lex = Lexicon.load(str(bad))  # the checksum and the header pass...
    assert lex.name == "CSW24" and lex.fingerprint == report.fingerprint and "ZZZZZQ" in lex
    return genuine, bad


def test_the_loader_refuses_it_by_name_by_path_and_pinned(altered):
    genuine, bad = altered
    for spec, dirs in ((str(bad), None), ("CSW24", [str(bad.parent)])):
        with pytest.raises(LexiconError, match="its words are not the list its header names"):
            load_lexicon(spec, dirs=dirs)
        with pytest.raises(LexiconError, match="its words are not the list its header names"):
            load_lexicon(spec, dirs=dirs, pin=Lexicon.load(str(genuine)).fingerprint)
    assert "QI" in load_lexicon(str(genuine))


def test_no_verdict_comes_from_it_even_loaded_unchecked(altered):
    """The kiosk loads without the check (its cold start) and checks after its first paint:
    whatever path reaches a verdict first, adjudicate checks the words before judging."""
    _, bad = altered
    lex = load_lexicon(str(bad), check_words=False)
    with pytest.raises(LexiconError):
        adjudicate(lex, ("ZZZZZQ",))
    with pytest.raises(LexiconError):
        adjudicate(lex, ("ZA",))  # refused for good, not only for its first verdict


def test_every_command_line_path_refuses_it_with_exit_3(altered, tmp_path, run, monkeypatch):
    _, bad = altered
    config = tmp_path / "desk.toml"
    config.write_text(f'lexicon = "{bad}"\njournal = "desk.db"\n')
    monkeypatch.setenv("ADJUDICATOR_SHELF", str(tmp_path / "shelf"))
    for args in (["judge", "--lexicon", str(bad), "zzzzzq"],
                 ["judge", "--config", str(config), "zzzzzq"],
                 ["judge", "--lexicon", str(bad), "--batch", "-"],
                 ["info", str(bad)],
                 ["lexicon", "add", str(bad)]):
        result = run(*args, input="zzzzzq\n")
        assert result.exit_code == 3, (args, result.output, result.stderr)
        assert "ACCEPTABLE" not in result.stdout, args
    assert "DAMAGED" in run("info", str(bad)).stdout
    monkeypatch.setenv("ADJUDICATOR_CONFIG", str(config))
    assert run("judge", "zzzzzq").exit_code == 3  # the station's own list, from its config
    assert not (tmp_path / "shelf").exists() or not list((tmp_path / "shelf").iterdir())


def test_the_station_the_phone_server_and_the_hub_refuse_it(altered, tmp_path):
    genuine, bad = altered
    config = tmp_path / "desk.toml"
    config.write_text(f'lexicon = "{bad}"\njournal = "desk.db"\n')
    with pytest.raises(LexiconError):
        open_station(load_config(str(config)), link="none")
    unchecked = open_station(load_config(str(config)), link="none", check_words=False)
    try:
        with pytest.raises(LexiconError):  # the kiosk's check after its first paint
            unchecked.lists.check_words()
        with pytest.raises(LexiconError):
            unchecked.submit("zzzzzq")
        assert unchecked.journal.count() == 0  # nothing judged, nothing recorded
    finally:
        unchecked.close()
    with pytest.raises(LexiconError):
        build_phone_app(load_config(str(config)), tokens=TokenStore(str(tmp_path / "t")),
                        out=io.StringIO())
    fingerprint = Lexicon.load(str(genuine)).fingerprint
    division = Division("A", str(bad), fingerprint=fingerprint)
    with pytest.raises(Exception, match="its words are not the list its header names"):
        pin_lists(Event("Open", (division,)))
    pinned = load_config(str(config)).with_changes(event_divisions=(division,))
    with pytest.raises(LexiconError, match="division A"):
        lists_for(pinned)


def test_the_kiosk_refuses_it_after_its_first_paint_with_exit_3(altered, tmp_path):
    """The kiosk's own path: loaded unchecked for its first paint, refused just after it, before
    the supervisor is told it started (so it is not restarted), with the one line exit 3 gives."""
    _, bad = altered
    config = tmp_path / "desk.toml"
    config.write_text(f'lexicon = "{bad}"\njournal = "desk.db"\n')
    refused, told = refused_after_first_paint(str(config))
    assert isinstance(refused, LexiconError) and refused.exit_code == 3
    assert "its words are not the list its header names" in str(refused)
    assert told == []


def test_a_shelf_add_of_it_is_refused_and_nothing_is_shelved(altered, tmp_path):
    _, bad = altered
    with pytest.raises(LexiconError):
        store.add(str(bad), folder=str(tmp_path / "shelf"))
    assert not [p for p in (tmp_path / "shelf").iterdir() if not p.name.startswith(".")]
    assert json.dumps(Lexicon.load(str(bad)).header)  # the file itself is left as it was
