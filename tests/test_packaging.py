"""What the wheel ships: every package listed, the lexicon data inside, nothing naming dev folders."""

import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_package_in_the_tree_is_listed_for_the_wheel():
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("adjudicator", "kiosk")
        for p in (ROOT / top).rglob("__init__.py")
    }
    found.add("adjudicator.lexicons")  # the top-level lexicons/ folder, mapped by package-dir
    assert listed == found


def test_lexicon_data_ships_from_the_top_level_folder():
    setuptools = _pyproject()["tool"]["setuptools"]
    assert setuptools["package-dir"]["adjudicator.lexicons"] == "lexicons"
    for name in setuptools["package-data"]["adjudicator.lexicons"]:
        assert (ROOT / "lexicons" / name).is_file(), name


def test_nothing_user_facing_names_the_development_folder():
    user_facing = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
                   *(ROOT / "lexicons").glob("*.md"), ROOT / "lexicons" / "known.toml"]
    for path in user_facing:
        assert "shared/" not in path.read_text(), path


def test_every_link_in_the_readme_and_docs_leads_somewhere():
    import re

    for page in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        for target in re.findall(r"\]\(([^)#\s]+)\)", page.read_text()):
            if "://" not in target:
                assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_the_readme_fits_on_a_page():
    assert len((ROOT / "README.md").read_bytes()) <= 15_000


def test_the_phone_page_files_ship_with_the_wheel():
    patterns = _pyproject()["tool"]["setuptools"]["package-data"]["adjudicator.phone"]
    folder = ROOT / "adjudicator" / "phone"
    shipped = {p.name for pattern in patterns for p in folder.glob(pattern)}
    on_disk = {p.name for p in (folder / "static").iterdir() if p.is_file()}
    assert on_disk and shipped == on_disk
