"""The fast lane's lists in tests/conftest.py name tests that exist: a renamed file or test would
otherwise fall back into the fast lane unnoticed (issue 44 item 7)."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _named(list_name: str) -> set[str]:
    """A set in tests/conftest.py, read as its source says (another conftest.py may be the
    module named conftest in this process)."""
    tree = ast.parse((ROOT / "tests" / "conftest.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == list_name:
            return ast.literal_eval(node.value)
    raise AssertionError(list_name)


def test_every_test_the_lanes_name_exists():
    for entry in sorted(_named("LONG") | _named("BROWSER")):
        path, _, name = entry.partition("::")
        assert (ROOT / path).is_file(), entry
        if name:
            assert f"def {name}(" in (ROOT / path).read_text(), entry
