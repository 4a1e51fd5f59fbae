"""The real Zyzzyva, Quackle and KWG files (issue 22): each added with one command, recognised as
its official list, judging exactly like its text list; their mutants read or refused, no crash.

The files live in $ADJUDICATOR_TEST_LEXICONS/formats (copyrighted: never in the project).
"""

import os
import random
import shutil

import pytest

from adjudicator.errors import EXIT_LEXICON, LexiconError
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.lexicon.wordlist import read_source
from realdata import real_list

SAMPLES = {  # file in formats/: (its text list, official id)
    "CSW19.dwg": ("CSW19.txt", "CSW19"),
    "NWL2018.dawg": ("NWL2018.txt", "NWL2018"),
    "TWL06.dawg": ("TWL06.txt", "TWL06"),
    "NWL2018.kwg": ("NWL2018.txt", "NWL2018"),
}
FUZZ_CASES = int(os.environ.get(
    "ADJUDICATOR_FUZZ_CASES", "80" if os.environ.get("ADJUDICATOR_FULL") == "1" else "6"))  # per sample; more when asked


def sample(name: str) -> str:
    return real_list(os.path.join("formats", name))


def near_misses(words: list[str], rng: random.Random, count: int = 20000) -> set[str]:
    """Words one letter away (changed, added, dropped, swapped) from real words."""
    out = set()
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for word in rng.sample(words, min(count, len(words))):
        i = rng.randrange(len(word))
        out.add(word[:i] + rng.choice(letters) + word[i + 1:])
        out.add(word[:i] + rng.choice(letters) + word[i:])
        if len(word) > 2:
            out.add(word[:i] + word[i + 1:])
        out.add(word[::-1])
    return {w for w in out if 2 <= len(w) <= 15}


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_is_added_with_one_command_and_judges_like_its_text_list(tmp_path, run, name):
    path = sample(name)
    text_name, official = SAMPLES[name]
    result = run("lexicon", "add", path)
    assert result.exit_code == 0, result.stderr
    assert f"{official} — " in result.stdout and "verified" in result.stdout
    assert "UNRECOGNISED" not in result.stdout
    shelved = Lexicon.load(os.path.join(os.environ["ADJUDICATOR_SHELF"], f"{official}.lex"))
    assert shelved.identity.known is not None and shelved.identity.known.id == official
    text = compile_sources([real_list(text_name)], str(tmp_path / "text.lex"))
    from_text = Lexicon.load(text.path)
    assert shelved.fingerprint == from_text.fingerprint
    words = list(from_text)
    misses = sorted(near_misses(words, random.Random(name)) - set(words))
    assert len(misses) > 20000  # not words: each must be judged unacceptable by both
    assert all(w in shelved for w in words)
    assert not any(w in shelved for w in misses)
    assert not any(w in from_text for w in misses)


def test_csw19_dwg_companions_are_verified(tmp_path):
    report = read_source(sample("CSW19.dwg"))
    assert report.notes == ["checksums match CSW19-Checksums.txt",  # CSW19 by fingerprint:
                            ("CSW19-R.dwg not walked: the words are CSW19 exactly (by "
                             "fingerprint)")]  # its reversed graph is walked for other lists
    copy = tmp_path / "renamed.bin"  # a renamed copy: read from its content, nothing to check
    shutil.copyfile(sample("CSW19.dwg"), copy)
    report = read_source(str(copy))
    assert len(report.words) == 279_496 and report.notes == [
        "not checked: renamed-Checksums.txt and renamed-R.dwg were not beside it"]


def test_csw19_reversed_graph_alone_is_refused(run):
    result = run("lexicon", "add", sample("CSW19-R.dwg"))
    assert result.exit_code == EXIT_LEXICON
    assert "spelled backwards" in result.stderr and result.stderr.count("\n") == 1
    assert f"add {sample('CSW19.dwg')} instead" in result.stderr


@pytest.mark.parametrize("which", ["forward", "reverse"])
def test_csw19_with_a_damaged_companion_is_refused(tmp_path, run, which):
    for name in ("CSW19.dwg", "CSW19-R.dwg", "CSW19-Checksums.txt"):
        shutil.copyfile(sample(name), tmp_path / name)
    target = tmp_path / ("CSW19.dwg" if which == "forward" else "CSW19-R.dwg")
    data = bytearray(target.read_bytes())
    data[5000] ^= 0x01  # inside the checksummed first N bytes
    target.write_bytes(bytes(data))
    result = run("lexicon", "add", str(tmp_path / "CSW19.dwg"))
    assert result.exit_code == EXIT_LEXICON
    expected = ("its checksum does not match the first value" if which == "forward" else
                "the checksum of CSW19-R.dwg does not match the second value")
    assert expected in result.stderr
    assert not os.path.isdir(os.environ["ADJUDICATOR_SHELF"]) or not [
        f for f in os.listdir(os.environ["ADJUDICATOR_SHELF"]) if f.endswith(".lex")]


@pytest.mark.parametrize("name,offset", [("CSW19.dwg", 4 + 4 * 1000 + 3),  # a letter byte
                                         ("NWL2018.dawg", 73 + 7 * 1000 + 3),
                                         ("NWL2018.kwg", None)])
def test_a_flipped_bit_in_a_real_file_is_refused_and_nothing_shelved(tmp_path, run, name, offset):
    data = bytearray(open(sample(name), "rb").read())
    if offset is None:  # KWG: a tile in the word graph's root list (the rest may be GADDAG)
        offset = 4 * (int.from_bytes(data[0:4], "little") & 0x3FFFFF) + 4 * 3 + 3
    data[offset] ^= 0x01
    path = tmp_path / name  # alone: no companion to check it against
    path.write_bytes(bytes(data))
    result = run("lexicon", "add", str(path))
    assert result.exit_code == EXIT_LEXICON, result.stdout
    assert result.stderr.startswith("adjudicator: ") and result.stderr.count("\n") == 1
    assert str(path) in result.stderr
    shelf = os.environ["ADJUDICATOR_SHELF"]
    assert not os.path.isdir(shelf) or not [f for f in os.listdir(shelf) if f.endswith(".lex")]


def mutate(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    kind = rng.randrange(5)
    if kind == 0:  # flip one bit
        i = rng.randrange(len(data))
        data[i] ^= 1 << rng.randrange(8)
    elif kind == 1:  # cut short
        del data[rng.randrange(1, len(data)):]
    elif kind == 2:  # overwrite a few bytes
        i = rng.randrange(len(data) - 8)
        data[i:i + 4] = rng.randbytes(4)
    elif kind == 3:  # a child pointer sent somewhere else
        i = rng.randrange(0, len(data) - 4, 4)
        data[i:i + 3] = rng.randbytes(3)
    else:  # a stretch copied over another
        i, j = rng.randrange(len(data) - 64), rng.randrange(len(data) - 64)
        data[j:j + 64] = data[i:i + 64]
    return bytes(data)


@pytest.mark.parametrize("name", SAMPLES)
def test_mutants_of_real_files_read_to_words_or_are_refused(tmp_path, name):
    original = open(sample(name), "rb").read()
    rng = random.Random(f"fuzz-{name}")
    path = tmp_path / name  # no companions beside it: the graph itself is fuzzed
    for _ in range(FUZZ_CASES):
        path.write_bytes(mutate(original, rng))
        try:
            report = read_source(str(path))
        except LexiconError as e:
            assert str(e).startswith(str(path)) and "\n" not in str(e)
            continue
        assert all(2 <= len(w) <= 15 and w.isalpha() and w.isupper() and w.isascii()
                   for w in report.words)
