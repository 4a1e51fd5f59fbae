"""No list speaks under an official name it is not (issue 29): the naming rule on every path a
list can take (shelf, compile, config, --lexicon, info, scan), the spellings the programs use,
and the checks each format allows. Tiny lists only; the real files: test_readers_mutants.py."""

import os
import shutil

import pytest
from graph_files import dwg_bytes, kwg_bytes, quackle_bytes, write_dwg_set

from adjudicator.config.station import Config
from adjudicator.errors import EXIT_IO, EXIT_LEXICON, LexiconError
from adjudicator.lexicon.names import claim_of_name
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.library import load_lexicon
from adjudicator.lexicon.compiled import FORMAT_VERSION, Lexicon, write_compiled
from adjudicator.lexicon import scan as scan_mod
from adjudicator.station.lists import lists_for

WORDS = ["AA", "AB", "BE", "CAT", "QI", "ZA"]
SHAPES = {  # a file as each program names it, holding a tiny list that is none of them
    "CSW21.txt": lambda: ("\n".join(WORDS) + "\n").encode(),
    "nwl23.dawg": lambda: quackle_bytes(WORDS),
    "NWL20.kwg": lambda: kwg_bytes(WORDS),
    "OWL2.dwg": lambda: dwg_bytes(WORDS),
    "America.kwg": lambda: kwg_bytes(WORDS, gaddawg=False),
    "CSW19 (1).txt": lambda: ("\n".join(WORDS) + "\n").encode(),
}


def one_line(result, code: int, *says: str) -> None:
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert result.stderr.startswith("adjudicator: ") and result.stderr.count("\n") == 1
    assert all(s in result.stderr for s in says), result.stderr


def shelved() -> list[str]:
    folder = os.environ["ADJUDICATOR_SHELF"]
    return sorted(f for f in os.listdir(folder) if f.endswith(".lex")) if os.path.isdir(
        folder) else []


@pytest.mark.parametrize("spelling, official", [
    ("nwl23", "NWL2023"), ("NWL20", "NWL2020"), ("NWL18", "NWL2018"), ("nwl2018", "NWL2018"),
    ("CSW19", "CSW19"), ("csw21", "CSW21"), ("CSW2024", "CSW24"), ("twl06", "TWL06"),
    ("OWL2", "TWL06"), ("OWL2+LWL", "TWL06"), ("America", "America"), ("csw15", "CSW15"),
    ("cswapr07", "CSW07"), ("sowpods", "SOWPODS"), ("OWL2.1", "OWL2.1"), ("NWL 2018", "NWL2018"),
    ("CSW21 (1)", "CSW21"), ("csw21-fixed", "CSW21"), ("Collins Scrabble Words 2019", "CSW19"),
    ("ECWL", "CEL"), ("OTCWL2014", "OTCWL2014"), ("NWL", "NWL"),
])
def test_every_spelling_the_programs_use_names_its_official_list(spelling, official):
    claim = claim_of_name(spelling, "its name")
    assert claim is not None and claim.official == official


@pytest.mark.parametrize("name", ["club", "TWL-tiny", "CSW-club", "tiny", "owl-sightings",
                                  "words2019", "NWLclub"])
def test_other_names_name_no_official_list(name):
    assert claim_of_name(name, "its name") is None


@pytest.fixture(params=SHAPES)
def claimed(request, tmp_path):
    """A tiny list in a file named like an official list (CSW21.txt, nwl23.dawg, ...)."""
    path = tmp_path / request.param
    path.write_bytes(SHAPES[request.param]())
    return str(path)


def test_lexicon_add_refuses_it_and_shelves_nothing(run, claimed):
    one_line(run("lexicon", "add", claimed), EXIT_LEXICON, claimed, "refused",
             f"its file name {os.path.basename(claimed)} names ")
    assert shelved() == []


def test_compile_refuses_it_and_writes_nothing(run, claimed, tmp_path):
    out = tmp_path / "out.lex"
    one_line(run("compile", claimed, "-o", str(out)), EXIT_LEXICON, "refused")
    assert not out.exists()


def test_judge_and_info_with_its_path_refuse_it(run, claimed):
    one_line(run("judge", "--lexicon", claimed, "qi"), EXIT_LEXICON, "refused")
    one_line(run("info", claimed), EXIT_LEXICON, "refused")


def test_a_station_configured_with_its_path_refuses_it(claimed):
    """lexicon = "/path/CSW21.dwg" in the config: the kiosk, the phone server and judge --config
    all load through here; before, they judged with it under the official name."""
    with pytest.raises(LexiconError, match="refused"):
        lists_for(Config(lexicon=claimed))
    with pytest.raises(LexiconError, match="refused"):
        lists_for(Config(secondary_lexicon=claimed))


def test_judge_with_a_config_naming_it_refuses_it(run, claimed, tmp_path):
    config = tmp_path / "station.toml"
    config.write_text(f'lexicon = "{claimed}"\njournal = "j.db"\n')
    one_line(run("judge", "--config", str(config), "qi"), EXIT_LEXICON, "refused")
    assert not (tmp_path / "j.db").exists() or b"CSW" not in (tmp_path / "j.db").read_bytes()


def test_scan_says_it_is_refused_never_offers_it(run, claimed, tmp_path, monkeypatch):
    monkeypatch.setattr(scan_mod, "default_places", list)
    result = run("lexicon", "scan", str(tmp_path))
    assert result.exit_code == 0
    assert f"{claimed}\n  refused: {claimed}: its file name" in result.stdout


def test_the_same_list_under_a_name_of_its_own_is_used_and_flagged(run, claimed, tmp_path):
    own = tmp_path / ("club" + os.path.splitext(claimed)[1])
    os.rename(claimed, own)
    result = run("judge", "--lexicon", str(own), "qi")
    assert (result.exit_code, result.stdout) == (0, "ACCEPTABLE\n")
    assert result.stderr.startswith("adjudicator: warning: UNRECOGNISED WORD LIST CLUB (")
    assert result.stderr.endswith("): not an official list\n") and result.stderr.count("\n") == 1


def test_compile_with_a_name_of_its_own_overrides_the_file_name_only(run, tmp_path):
    named = tmp_path / "CSW21.txt"
    named.write_text("\n".join(WORDS) + "\n")
    result = run("compile", str(named), "--name", "CLUB", "-o", str(tmp_path / "club.lex"))
    assert result.exit_code == 0 and "CLUB — UNRECOGNISED LIST" in result.stdout
    one_line(run("compile", str(named), "--name", "NWL23", "-o", str(tmp_path / "x.lex")),
             EXIT_LEXICON, "the name NWL23 names NWL2023")
    headed = tmp_path / "club.txt"  # its own header says it is CSW19: no --name unsays it
    headed.write_text("Collins Scrabble Words (2019). 6 words. Words only.\n" + "\n".join(WORDS))
    one_line(run("compile", str(headed), "--name", "CLUB", "-o", str(tmp_path / "y.lex")),
             EXIT_LEXICON, "its header line names CSW19")


def test_a_compiled_file_named_or_naming_itself_official_is_refused(run, tmp_path):
    club = compile_sources([_text(tmp_path, "club.txt")], str(tmp_path / "CSW21.lex"))
    assert club.name == "CLUB"
    one_line(run("judge", "--lexicon", str(tmp_path / "CSW21.lex"), "qi"), EXIT_LEXICON,
             "its file name CSW21.lex names CSW21")
    one_line(run("lexicon", "add", str(tmp_path / "CSW21.lex")), EXIT_LEXICON, "refused")
    # a file that says CSW21 inside (made before names were checked, or by hand)
    import marisa_trie

    from adjudicator.lexicon.compiled import fingerprint_words

    forged = tmp_path / "forged.lex"
    write_compiled(str(forged), marisa_trie.Trie(WORDS).tobytes(), {
        "format": FORMAT_VERSION, "name": "CSW21", "word_count": len(WORDS),
        "fingerprint": fingerprint_words(WORDS), "sources": []})
    with pytest.raises(LexiconError, match="its name CSW21 names CSW21"):
        load_lexicon(str(forged))  # the loader (lexicon/library.py) checks every name
    from adjudicator.lexicon.store import entries

    assert "its name CSW21 names CSW21" in next(
        e.problem for e in entries(str(tmp_path)) if e.path == str(forged))
    one_line(run("judge", "--lexicon", str(forged), "qi"), EXIT_LEXICON, "refused")


def _text(tmp_path, name: str) -> str:
    path = tmp_path / name
    path.write_text("\n".join(WORDS) + "\n")
    return str(path)


def test_a_hash_inside_the_file_names_the_list_whatever_the_file_is_called(run, tmp_path,
                                                                         monkeypatch):
    """Zyzzyva's checksums cover a quarter of a .dwg and Quackle's hash is in the file: when they
    are an official list's, the file claims that list, and its words must be it."""
    from adjudicator.lexicon.readers import quackle_dawg, zyzzyva_dwg

    write_dwg_set(tmp_path, "club", WORDS)
    sums = tuple(int(v) for v in (tmp_path / "club-Checksums.txt").read_text().split())
    monkeypatch.setattr(zyzzyva_dwg, "ZYZZYVA_CHECKSUMS", {sums: "CSW19"})
    one_line(run("lexicon", "add", str(tmp_path / "club.dwg"), "--name", "CLUB"), EXIT_LEXICON,
             "club-Checksums.txt beside it names CSW19")
    data = quackle_bytes(WORDS)
    (tmp_path / "club.dawg").write_bytes(data)
    monkeypatch.setattr(quackle_dawg, "QUACKLE_HASHES", {data[1:5].hex(): "NWL2018"})
    one_line(run("compile", str(tmp_path / "club.dawg"), "-o", str(tmp_path / "x.lex")),
             EXIT_LEXICON, f"its header's hash {data[1:5].hex()} names NWL2018")
    shutil.rmtree(tmp_path / "club.dwg", ignore_errors=True)


def test_judge_and_info_name_an_unrecognised_list_on_stderr(run, tiny):
    judged = run("judge", "--lexicon", tiny, "qi")
    assert judged.stdout == "ACCEPTABLE\n"
    assert judged.stderr.startswith("adjudicator: warning: UNRECOGNISED WORD LIST TINY (")
    info = run("info", tiny)
    assert info.exit_code == 0 and "UNRECOGNISED WORD LIST TINY" in info.stderr
    default = run("judge", "cat")  # the embedded ENABLE: said, as on screens (issue 27)
    assert default.stdout == "ACCEPTABLE\n"
    assert default.stderr.startswith("adjudicator: warning: ENABLE: NOT A TOURNAMENT WORD LIST")


@pytest.mark.parametrize("command", [["lexicon", "add"], ["compile"], ["judge", "--lexicon"],
                                     ["info"]])
def test_a_named_pipe_is_refused_at_once_never_waited_on(run, tmp_path, command):
    fifo = tmp_path / "CSW24.txt"
    os.mkfifo(fifo)
    args = [*command, str(fifo)] + (["-o", str(tmp_path / "x.lex")] if command == ["compile"]
                                    else ["qi"] if command[0] == "judge" else [])
    one_line(run(*args), EXIT_IO, "it is a named pipe, not a regular file")


@pytest.mark.parametrize("name", ["СSW24", "ＣＳＷ２４", "CSW2l", "NWL２０２３", "СSW24-club"])
def test_a_name_that_reads_as_an_official_one_is_refused_unless_the_words_are_it(
        run, tmp_path, monkeypatch, name):
    """Issue 34 item 5: a name is read as people read it (lookalike.py, the comparison the hub
    makes of station names): a Cyrillic Es, fullwidth letters, an l for a 1 claim the list
    they look like, refused unless the words are that list; when they are, it is named by
    its official id, so no journal row or slip says "СSW24"."""
    from adjudicator.lexicon.compiled import fingerprint_words
    from adjudicator.lexicon.known import KnownLexicon, known_lexicons

    other = _text(tmp_path, "other.txt")
    result = run("compile", other, "--name", name, "-o", str(tmp_path / "x.lex"))
    one_line(result, EXIT_LEXICON, "which reads as")
    assert not (tmp_path / "x.lex").exists()
    official = claim_of_name(name, "").official
    monkeypatch.setitem(known_lexicons(), fingerprint_words(WORDS), KnownLexicon(
        official, "the official list", "2024", "tests", len(WORDS), fingerprint_words(WORDS)))
    done = run("compile", other, "--name", name, "-o", str(tmp_path / "y.lex"))
    assert done.exit_code == 0, done.stderr
    assert Lexicon.load(str(tmp_path / "y.lex")).name == official


@pytest.mark.parametrize("name", ["\u200bCSW24", "CL\x1bUB", "CSW24\u2067", " "])
def test_a_name_with_a_hidden_character_is_refused_naming_it(run, tmp_path, name):
    result = run("compile", _text(tmp_path, "w.txt"), "--name", name, "-o",
                 str(tmp_path / "x.lex"))
    one_line(result, EXIT_LEXICON, "--name")
    assert "\x1b" not in result.stderr and "\u200b" not in result.stderr


READ_AS_OFFICIAL = ["CSW 24 (1)", "CSW/24", "2024 CSW", "\u03f9SW24", "C\u0323SW24",
                    "C\u1e62W24", "NVVL2023", "2019 Collins", "NWL 2023 (1)"]


@pytest.mark.parametrize("name", READ_AS_OFFICIAL)
def test_names_read_as_an_official_edition_claim_it(name):
    """Issue 40 item 5: spacing and punctuation ("CSW 24 (1)", "CSW/24"), order ("2024 CSW"),
    a Greek lunate sigma for the C, a dot below, "VV" for "W": each reads as the edition."""
    claim = claim_of_name(name, "its name")
    assert claim is not None and claim.official in ("CSW24", "NWL2023", "CSW19"), name


@pytest.mark.parametrize("name", ["CSW 24 (1)", "CSW/24", "2024 CSW", "\u03f9SW24",
                                  "C\u1e62W24", "NVVL2023"])
def test_such_a_name_is_refused_unless_the_words_are_it(run, tmp_path, monkeypatch, name):
    """Given with --name, and as a file's name on every path (compile, lexicon add, judge):
    refused, exit 3, nothing written; the same words as the edition: named by its id."""
    other = _text(tmp_path, "other.txt")
    one_line(run("compile", other, "--name", name, "-o", str(tmp_path / "x.lex")),
             EXIT_LEXICON, "which reads as")
    assert not (tmp_path / "x.lex").exists()
    named = tmp_path / "lists" / f"{name.replace('/', ' ')}.txt"
    named.parent.mkdir()
    shutil.copyfile(other, named)
    for args in (["compile", str(named), "-o", str(tmp_path / "x.lex")],
                 ["lexicon", "add", str(named)], ["judge", "--lexicon", str(named), "qi"]):
        one_line(run(*args), EXIT_LEXICON, "names")
    assert shelved() == [] and not (tmp_path / "x.lex").exists()
    from adjudicator.lexicon.compiled import fingerprint_words
    from adjudicator.lexicon.known import KnownLexicon, known_lexicons

    official = claim_of_name(name, "").official
    monkeypatch.setitem(known_lexicons(), fingerprint_words(WORDS), KnownLexicon(
        official, "the official list", "2024", "tests", len(WORDS), fingerprint_words(WORDS)))
    done = run("compile", other, "--name", name, "-o", str(tmp_path / "y.lex"))
    assert done.exit_code == 0, done.stderr
    assert Lexicon.load(str(tmp_path / "y.lex")).name == official


@pytest.mark.parametrize("space", ["\u00a0", "\u2007", "\u202f", "\u3000", "\u2800", "  "])
def test_a_name_with_another_kind_of_space_is_recorded_with_a_plain_one(run, tmp_path, space):
    """Issue 40: `--name "CLUB<no-break space>LIST"` was kept as typed; it is recorded as it
    reads, with one plain space (and checked as it reads: "CSW<no-break space>24" is CSW24)."""
    out = tmp_path / "x.lex"
    result = run("compile", _text(tmp_path, "w.txt"), "--name", f" CLUB{space}LIST{space}",
                 "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert Lexicon.load(str(out)).name == "CLUB LIST"
    one_line(run("compile", _text(tmp_path, "v.txt"), "--name", f"CSW{space}24", "-o",
                 str(tmp_path / "y.lex")), EXIT_LEXICON, "names CSW24")
    one_line(run("compile", _text(tmp_path, "u.txt"), "--name", "\u2800", "-o",
                 str(tmp_path / "z.lex")), EXIT_LEXICON, "nothing to read")
