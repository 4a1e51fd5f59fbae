"""Where the real word lists are for tests ($ADJUDICATOR_TEST_LEXICONS), or a skip saying why."""

from __future__ import annotations

import os

import pytest

LEXICONS_ENV = "ADJUDICATOR_TEST_LEXICONS"


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
