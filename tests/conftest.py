"""Shared fixtures: tiny lexicons built inside the tests, and where the real lists are."""

from __future__ import annotations

import os

import pytest

from adjudicator.lexicon import Lexicon, compile_sources

LEXICONS_ENV = "ADJUDICATOR_TEST_LEXICONS"


@pytest.fixture
def make_lexicon(tmp_path):
    """Build a compiled lexicon from a few words: make_lexicon(["QI", "ZA"], name="TINY")."""
    counter = iter(range(10_000))

    def make(words, name: str = "TINY") -> Lexicon:
        n = next(counter)
        src = tmp_path / f"{name.lower()}-{n}.txt"
        src.write_text("\n".join(words) + "\n")
        out = tmp_path / f"{name.lower()}-{n}.lex"
        compile_sources([str(src)], str(out), name=name)
        return Lexicon.load(str(out))

    return make


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path, monkeypatch):
    """Keep caches, config and journals of every test inside its own tmp folder."""
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("ADJUDICATOR_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("ADJUDICATOR_JOURNAL", str(tmp_path / "journal.db"))
    monkeypatch.delenv("ADJUDICATOR_LEXICONS", raising=False)


def real_lexicons_dir() -> str | None:
    path = os.environ.get(LEXICONS_ENV)
    return path if path and os.path.isdir(path) else None


def real_list(name: str) -> str:
    """Path of a real word list in $ADJUDICATOR_TEST_LEXICONS, or skip saying why."""
    folder = real_lexicons_dir()
    if folder is None:
        pytest.skip(f"real word lists not available: set {LEXICONS_ENV} to ../shared/lexicons")
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        pytest.skip(f"{name} not found in {folder}")
    return path
