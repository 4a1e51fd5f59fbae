"""Mutants of every real file in formats/ (issue 29): each is refused or judged exactly as the
original, and never accepted under an official name with another word set, whatever the path it
takes (a config or --lexicon path here; the shelf and the CLI in test_lexicon_naming.py).

Kinds: the header (count, alphabet, edge count), nodes (a letter changed outside the checksummed
quarter, a child sent back to the root: a loop, two siblings swapped), the companion files
(checksums edited, the reversed graph gone), cuts. One mutant of each kind by default;
ADJUDICATOR_FULL=1 makes ten of each (ADJUDICATOR_MUTANTS sets the number).
"""

import os
import random
import shutil
from pathlib import Path

import pytest
from realdata import real_list

from adjudicator.errors import AdjudicatorError
from adjudicator.lexicon.known import by_id
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.library import load_lexicon

PER_KIND = int(os.environ.get("ADJUDICATOR_MUTANTS",
                              "10" if os.environ.get("ADJUDICATOR_FULL") == "1" else "1"))
OFFICIAL = {"CSW19.dwg": "CSW19", "NWL2018.dawg": "NWL2018", "TWL06.dawg": "TWL06",
            "NWL2018.kwg": "NWL2018"}


class Layout:
    """Where a format keeps each record's letter, flags and child (enough to mutate it)."""

    def __init__(self, name: str, data: bytes):
        self.kind = os.path.splitext(name)[1]
        if self.kind == ".dwg":
            self.first, self.size, self.flags_at, self.letter_mask = 4, 4, 2, 0xFF
        elif self.kind == ".dawg":
            self.first, self.size, self.flags_at, self.letter_mask = 73, 7, 3, 0x3F
        else:
            self.first, self.size, self.flags_at, self.letter_mask = 0, 4, 2, 0xFF
        self.count = (len(data) - self.first) // self.size

    def at(self, r: int) -> int:
        return self.first + r * self.size

    def letter_at(self, r: int) -> int:
        return self.at(r) + 3

    def is_last(self, data, r: int) -> bool:
        return bool(data[self.at(r) + self.flags_at] & 0x40)

    def kid(self, data, r: int) -> int:
        at = self.at(r)
        if self.kind == ".dawg":
            return int.from_bytes(data[at:at + 3], "big")
        return int.from_bytes(data[at:at + 4], "little") & (0x1FFFFF if self.kind == ".dwg"
                                                              else 0x3FFFFF)

    def set_kid(self, data: bytearray, r: int, kid: int) -> None:
        at = self.at(r)
        if self.kind == ".dawg":
            data[at:at + 3] = kid.to_bytes(3, "big")
        else:
            mask = 0x1FFFFF if self.kind == ".dwg" else 0x3FFFFF
            value = int.from_bytes(data[at:at + 4], "little") & ~mask | kid
            data[at:at + 4] = value.to_bytes(4, "little")

    def root(self, data) -> int:
        """The first edge index of the word graph's root list (as the kids count)."""
        if self.kind == ".dwg":
            return 1
        return self.kid(data, 0)

    def lettered(self, data, r: int) -> bool:
        code = data[self.letter_at(r)] & self.letter_mask
        return (65 <= code <= 90) if self.kind == ".dwg" else (
            code < 26 if self.kind == ".dawg" else 1 <= code <= 26)


def _records(layout: Layout, data, rng, want, start: int = 1) -> int:
    for _ in range(200_000):
        r = rng.randrange(start, layout.count - 1)
        if layout.lettered(data, r) and want(r):
            return r
    raise AssertionError("no record found")


def mutant(name: str, kind: str, data: bytes, rng: random.Random) -> bytes:
    out, lay = bytearray(data), Layout(name, data)
    if kind == "letter":  # a one-edge list's letter (no order to break), past the CRC's quarter
        start = int.from_bytes(data[:4], "little") // 4 + 1 if lay.kind == ".dwg" else 1
        r = _records(lay, out, rng, lambda r: lay.is_last(out, r) and lay.is_last(out, r - 1),
                     start)
        i = lay.letter_at(r)
        step = rng.randrange(1, 25)
        if lay.kind == ".dwg":
            out[i] = 65 + (out[i] - 65 + step) % 26
        elif lay.kind == ".dawg":
            out[i] = out[i] & 0xC0 | ((out[i] & 0x3F) + step) % 26
        else:
            out[i] = 1 + (out[i] - 1 + step) % 26
    elif kind == "siblings":  # two siblings' letters swapped
        r = _records(lay, out, rng, lambda r: not lay.is_last(out, r)
                     and lay.lettered(out, r + 1))
        i, j = lay.letter_at(r), lay.letter_at(r + 1)
        m = lay.letter_mask
        out[i], out[j] = out[i] & ~m & 0xFF | out[j] & m, out[j] & ~m & 0xFF | out[i] & m
    elif kind == "loop":  # a child sent back to the root list
        r = _records(lay, out, rng, lambda r: lay.kid(out, r) != 0)
        lay.set_kid(out, r, lay.root(out))
    elif kind == "cut":
        del out[rng.randrange(8, len(out) - 1):]
    elif kind == "header":
        if lay.kind == ".dawg":  # the count, or two letters of the alphabet swapped
            if rng.random() < 0.5:
                out[17:20] = (int.from_bytes(out[17:20], "big") + rng.choice((-1, 1))).to_bytes(
                    3, "big")
            else:
                a = 21 + 2 * rng.randrange(25)
                out[a], out[a + 2] = out[a + 2], out[a]
        elif lay.kind == ".dwg":  # the edge count
            out[0:4] = (int.from_bytes(out[:4], "little") - rng.randrange(1, 5)).to_bytes(
                4, "little")
        else:  # node 1, the GADDAG root, made an ordinary node or pointed elsewhere
            out[4:8] = (rng.randrange(1, 27) << 24 | 1 << 22 | lay.kid(out, 0)).to_bytes(
                4, "little")
    else:
        raise AssertionError(kind)
    return bytes(out)


KINDS = ["letter", "siblings", "loop", "cut", "header"]


def place(tmp_path, name: str, data: bytes, companions: bool, rename: str | None = None) -> str:
    """The mutant as the director's disk holds it: named as the original (or RENAME), with
    Zyzzyva's companions beside a .dwg when COMPANIONS."""
    stem = rename or os.path.splitext(name)[0]
    ext = os.path.splitext(name)[1]
    path = tmp_path / f"{stem}{ext}"
    path.write_bytes(data)
    if companions and ext == ".dwg":
        shutil.copyfile(real_list(os.path.join("formats", "CSW19-R.dwg")),
                        tmp_path / f"{stem}-R.dwg")
        shutil.copyfile(real_list(os.path.join("formats", "CSW19-Checksums.txt")),
                        tmp_path / f"{stem}-Checksums.txt")
    return str(path)


def judged_as_original_or_refused(path: str, official: str) -> str:
    """Load PATH as a config's `lexicon = PATH` does: refused (one line naming the file), or
    a lexicon whose words are the official list's exactly. Returns what happened."""
    try:
        lex = load_lexicon(path)
    except AdjudicatorError as e:
        assert "\n" not in str(e) and path in str(e), str(e)
        return "refused"
    known = by_id(official)
    assert lex.fingerprint == known.fingerprint, (path, lex.name, lex.identity.word_count)
    assert lex.name == official
    return "same"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", OFFICIAL)
def test_each_mutant_is_refused_or_judged_as_the_original(tmp_path, name, kind):
    original = Path(real_list(os.path.join("formats", name))).read_bytes()
    rng = random.Random(f"{name}-{kind}")
    outcomes = []
    for n in range(PER_KIND):
        data = mutant(name, kind, original, rng)
        assert data != original
        for companions in (True, False) if name.endswith(".dwg") else (False,):
            folder = tmp_path / f"{n}-{companions}"
            folder.mkdir()
            path = place(folder, name, data, companions)
            outcomes.append(judged_as_original_or_refused(path, OFFICIAL[name]))
    if not name.endswith(".kwg"):  # there, a change in the GADDAG's switch paths, or node 1
        assert "refused" in outcomes  # made ordinary, leaves the very same words


def test_a_csw19_dwg_altered_past_its_checksums_is_refused_under_any_name(tmp_path, run):
    """The CRC covers the first quarter; a letter changed after it, with no -R.dwg to compare:
    named CSW19.dwg, the name claims CSW19; named club.dwg with CSW19's checksums beside it,
    the checksums do. Refused both ways, on every path; with --name too for the checksums."""
    original = Path(real_list(os.path.join("formats", "CSW19.dwg"))).read_bytes()
    data = mutant("CSW19.dwg", "letter", original, random.Random("past-the-crc"))
    for stem in ("CSW19", "club"):
        folder = tmp_path / stem
        folder.mkdir()
        path = place(folder, "CSW19.dwg", data, companions=True, rename=stem)
        os.unlink(folder / f"{stem}-R.dwg")
        assert judged_as_original_or_refused(path, "CSW19") == "refused"
        result = run("lexicon", "add", path)
        assert result.exit_code == 3 and "names CSW19" in result.stderr, result.stderr
        result = run("compile", path, "-o", str(folder / "out.lex"))
        assert result.exit_code == 3 and not (folder / "out.lex").exists()
    result = run("lexicon", "add", str(tmp_path / "club" / "club.dwg"), "--name", "CLUB")
    assert result.exit_code == 3 and "club-Checksums.txt beside it names CSW19" in result.stderr


def test_the_names_woogles_and_quackle_use_find_and_check_the_official_list(tmp_path, run):
    """nwl18.dawg (Quackle), NWL18.kwg (Woogles): recognised as NWL2018; then --lexicon NWL18
    finds the shelved NWL2018."""
    for name, as_named in (("NWL2018.dawg", "nwl18.dawg"), ("NWL2018.kwg", "NWL18.kwg")):
        shutil.copyfile(real_list(os.path.join("formats", name)), tmp_path / as_named)
        report = compile_sources([str(tmp_path / as_named)], str(tmp_path / "out.lex"))
        assert report.name == "NWL2018"
    assert run("lexicon", "add", str(tmp_path / "NWL18.kwg")).exit_code == 0
    judged = run("judge", "--lexicon", "NWL18", "qi", "za")
    assert (judged.exit_code, judged.stdout, judged.stderr) == (0, "ACCEPTABLE\n", "")


@pytest.mark.parametrize("sums, reverse", [
    ("64295\n37642\n", "CSW19-R.dwg"),  # the first value edited
    ("37642\n64294\n", "CSW19-R.dwg"),  # the two lines swapped
    ("64294\n", "CSW19-R.dwg"),  # a line missing
    ("64294\n37642\n", "CSW19.dwg"),  # the forward graph put where the reversed one goes
])
def test_csw19_with_its_companions_altered_is_refused(tmp_path, sums, reverse):
    path = place(tmp_path, "CSW19.dwg", Path(real_list(os.path.join("formats", "CSW19.dwg")))
                 .read_bytes(), companions=True)
    (tmp_path / "CSW19-Checksums.txt").write_text(sums)
    shutil.copyfile(real_list(os.path.join("formats", reverse)), tmp_path / "CSW19-R.dwg")
    assert judged_as_original_or_refused(path, "CSW19") == "refused"
