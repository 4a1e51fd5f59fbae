"""Shared fixtures: tiny lexicons built inside the tests, and where the real lists are."""

from __future__ import annotations

import pytest

from adjudicator.lexicon.names import claim_of_name
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import FORMAT_VERSION, Lexicon, fingerprint_words

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


# The fast lane: `python -m pytest -m "not slow"` leaves out every test marked here, by what it
# drives rather than by a mark in its file (no test file carries one): a browser (the phone page,
# the director's page, in any engine), a kiosk on a pseudo-terminal (pty_driver.PtyApp), or a
# run measured at more than a few seconds on its own (LONG). The full suite, what CI runs, is all
# of them. Each kind has its own marker too: `-m browser`, `-m pty`, `-m long`.
BROWSER_FIXTURES = {"browser", "engine"}  # web_helpers.browser (chromium), engines.engine (three)
LONG = {  # a file (every test in it) or one test; each took seconds alone, under load, in 2026-11
    # the hub, its stations and their links as processes: faults, kills, restarts, crowds
    "tests/hub/test_crowds.py",
    "tests/hub/test_deadlines.py",
    "tests/hub/test_event_real.py",
    "tests/hub/test_event_two_lists.py",
    "tests/hub/test_faults.py",
    "tests/hub/test_hall_crowding.py",
    "tests/hub/test_judge_follows.py",
    "tests/hub/test_link_faults.py",
    "tests/hub/test_rename.py",
    "tests/hub/test_restart.py",
    "tests/hub/test_slow_clients.py",
    "tests/hub/test_tsh.py",
    "tests/hub/test_tsh_hostile.py",
    "tests/hub/test_tsh_real.py",
    "tests/hub/test_waiting.py",
    # the journal under kills, lost files and locks held by other processes
    "tests/journal/test_journal_contention.py",
    "tests/journal/test_journal_crash.py",  # 43-59 s: a kill campaign against a station
    "tests/journal/test_journal_loss_scenarios.py",
    "tests/journal/test_journal_pipe.py::test_a_verdict_read_from_the_pipe_is_in_the_journal_even_after_kill_9",
    # whole Textual screens driven key by key at several sizes
    "tests/docket/test_docket_runner_kiosk.py",
    "tests/docket/test_docket_runner_unprinted.py",
    "tests/kiosk/test_kiosk_bigtext.py",
    "tests/kiosk/test_kiosk_director.py",
}


def _kinds(item) -> list[str]:
    kinds = []
    if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
        kinds.append("browser")
    module = getattr(item, "module", None)
    code = getattr(getattr(item, "function", None), "__code__", None)
    if (module is not None and hasattr(module, "PtyApp")) or (
            code is not None and "PtyApp" in code.co_varnames):
        kinds.append("pty")
    path = item.nodeid.split("::")[0]
    if path in LONG or item.nodeid.split("[")[0] in LONG:
        kinds.append("long")
    return kinds


def pytest_collection_modifyitems(config, items):
    for item in items:
        kinds = _kinds(item)
        for kind in kinds:
            item.add_marker(kind)
        if kinds:
            item.add_marker("slow")
