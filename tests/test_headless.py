"""The core never imports Textual: adjudicator, its CLI and every submodule load without it."""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys

import adjudicator

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def all_submodules() -> list[str]:
    names = ["adjudicator", "adjudicator.cli"]
    for info in pkgutil.walk_packages(adjudicator.__path__, "adjudicator."):
        if info.name != "adjudicator.__main__":  # running it would start the CLI
            names.append(info.name)
    return sorted(set(names))


def test_core_and_cli_import_without_textual():
    modules = all_submodules()
    assert "adjudicator.config.station" in modules and "adjudicator.cli.kiosk" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", f"the core imported textual: {out.stdout}"


def test_the_check_would_see_textual():
    code = "import sys, textual.app; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert out.stdout.strip() == "True"  # the control: the probe does detect a Textual import
