"""The pictures in docs/ say what the real program says: real lists' fingerprints (issue 21)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from adjudicator.lexicon.known import by_id, known_lexicons

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(Path(__file__).parent))

import docs_images  # noqa: E402
from escpos_decode import decode  # noqa: E402


def test_the_docs_slip_gives_csw24_its_real_fingerprint():
    """docs/img/slip.png labelled CSW24 with 5f2c0a9e81b4; CSW24's fingerprint is 4200a40a8880."""
    text = "\n".join(line.text for line in decode(docs_images.sample_slip_bytes(), 42).lines)
    csw24 = by_id("CSW24").fingerprint[:12]
    assert "CSW24" in text and csw24 in text
    shown = set(re.findall(r"\b[0-9a-f]{12}\b", text))
    assert shown == {csw24}


def test_every_fingerprint_the_docs_give_is_a_known_lists():
    """A 12-digit fingerprint in docs/*.md next to a list's name is that list's real one."""
    known = {k.id: k.fingerprint[:12] for k in known_lexicons().values()}
    for page in (REPO / "docs").glob("*.md"):
        for line in page.read_text(encoding="utf-8").splitlines():
            for name, fingerprint in re.findall(r"\b([A-Z]+\d*)\b[^\n]*?`?\b([0-9a-f]{12})\b",
                                                line):
                if name in known:
                    assert fingerprint == known[name], (page.name, line)


def test_every_docs_picture_is_made_from_a_snapshot_the_tests_hold():
    for name, snapshot in docs_images.SCREENS.items():
        assert (docs_images.SNAPSHOTS / snapshot).is_file(), (name, snapshot)
