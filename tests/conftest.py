"""Shared fixtures: tiny lexicons built inside the tests, and where the real lists are."""

from __future__ import annotations

import ssl
import urllib.request

import pytest

from adjudicator.lexicon.names import claim_of_name
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import FORMAT_VERSION, Lexicon, fingerprint_words

# A test's own probes of a hub (urllib.request.urlopen of hub.url: its join, its lists, the
# director's routes) take the hub's self-made certificate unchecked; the stations' link never
# uses this opener (link/deadline.py builds its own, pinned: tests/hub/test_tls.py).
urllib.request.install_opener(urllib.request.build_opener(
    urllib.request.HTTPSHandler(context=ssl._create_unverified_context())))


@pytest.fixture
def make_lexicon(tmp_path):
    """Build a compiled lexicon from a few words: make_lexicon(["QI", "ZA"], name="TINY")."""
    counter = iter(range(10_000))

    def make(words, name: str = "TINY") -> Lexicon:
        n = next(counter)
        src = tmp_path / f"{name.lower()}-{n}.txt"
        src.write_text("\n".join(words) + "\n")
        out = tmp_path / f"{name.lower()}-{n}.lex"
        if claim_of_name(name, "") is not None:
            # a tiny list labelled CSW24 for the rows a hub shows: no path of the program makes
            # one any more (issue 29), so the object is built by hand, never loaded from a file
            import marisa_trie

            header = {"format": FORMAT_VERSION, "name": name, "word_count": len(set(words)),
                      "fingerprint": fingerprint_words(set(words)), "sources": []}
            return Lexicon(str(out), header, marisa_trie.Trie(words))
        compile_sources([str(src)], str(out), name=name)
        return Lexicon.load(str(out))

    return make


@pytest.fixture
def run():
    """The CLI in-process: run("judge", "qi", input=...) -> click's Result (errors not caught)."""
    from click.testing import CliRunner

    from adjudicator.cli import main

    runner = CliRunner()
    return lambda *args, input=None: runner.invoke(main, list(args), input=input,
                                                   catch_exceptions=False)


@pytest.fixture
def tiny(tmp_path):
    """A four-word source list: QI ZA CAT XU (kiosk/ and test_verdict have a compiled `tiny`)."""
    path = tmp_path / "tiny.txt"
    path.write_text("QI\nZA\nCAT\nXU\n")
    return str(path)


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path, monkeypatch):
    """Keep caches, config and journals of every test inside its own tmp folder."""
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("ADJUDICATOR_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("ADJUDICATOR_JOURNAL", str(tmp_path / "journal.db"))
    monkeypatch.setenv("ADJUDICATOR_SHELF", str(tmp_path / "shelf"))  # never the real home
    monkeypatch.delenv("ADJUDICATOR_LEXICONS", raising=False)
