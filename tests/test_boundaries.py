"""The tree's boundaries: the import-linter contracts in pyproject.toml hold, and no import circle.

The core (adjudicator/) imports neither Textual nor click (its CLI and launcher aside); kiosk/ only
renders the station service; the journal and the docket printer never import each other.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib

import grimp
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINT = os.path.join(os.path.dirname(sys.executable), "lint-imports")


def _lint(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([LINT, "--no-cache", *args], capture_output=True, text=True, cwd=REPO,
                          env=dict(os.environ, PYTHONPATH=REPO), timeout=300)


def test_the_contracts_in_pyproject_are_kept():
    out = _lint()
    assert out.returncode == 0, out.stdout + out.stderr
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        contracts = tomllib.load(f)["tool"]["importlinter"]["contracts"]
    assert "0 broken" in out.stdout and f"{len(contracts)} kept" in out.stdout


def test_a_broken_contract_would_be_seen(tmp_path):
    # The control: a contract the tree breaks (the station service does import the entry rules).
    config = tmp_path / "broken.toml"
    config.write_text(
        '[tool.importlinter]\nroot_packages = ["adjudicator"]\n'
        '[[tool.importlinter.contracts]]\nname = "control"\ntype = "forbidden"\n'
        'source_modules = ["adjudicator.station.service"]\nforbidden_modules = ["adjudicator.text.entry"]\n')
    out = _lint("--config", str(config))
    assert out.returncode != 0 and "BROKEN" in out.stdout


def _cycles(graph) -> list[tuple[str, str]]:
    found = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported in graph.modules and graph.chain_exists(imported, importer):
                found.append((importer, imported))
    return found


@pytest.fixture(scope="module")
def graph():
    sys.path.insert(0, REPO)
    try:
        return grimp.build_graph("adjudicator", "kiosk", cache_dir=None)
    finally:
        sys.path.remove(REPO)


def test_no_import_circle(graph):
    assert _cycles(graph) == []


def test_a_circle_would_be_seen(graph):
    graph.add_import(importer="adjudicator.text.entry", imported="adjudicator.station.service")  # control
    try:
        assert ("adjudicator.text.entry", "adjudicator.station.service") in _cycles(graph)
    finally:
        graph.remove_import(importer="adjudicator.text.entry", imported="adjudicator.station.service")
