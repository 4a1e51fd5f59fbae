"""A compiled list whose checksum is not its bytes' never judges. Loaded for a kiosk's first paint,
its checksum is verified with its words just after the paint (hashlib loads OpenSSL, about 3 ms
of a cold start): on the file as it was opened, before any verdict; everywhere else at load."""

from __future__ import annotations

import os

import pytest

from adjudicator.errors import LexiconError
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon
from adjudicator.lexicon.library import load_lexicon
from adjudicator.judging.verdict import adjudicate
from kiosk_refusal import refused_after_first_paint

MISMATCH = "checksum mismatch, the file is damaged or altered"


def _compiled(folder, name: str, words: list[str]) -> str:
    src = folder / f"{name}.txt"
    src.write_text("\n".join(words) + "\n")
    out = str(folder / f"{name}.lex")
    compile_sources([str(src)], out)
    return out


@pytest.fixture
def damaged(tmp_path) -> str:
    """A compiled list whose stored checksum is no longer its bytes' (its words untouched)."""
    path = _compiled(tmp_path, "club", ["QI", "ZA", "XU"])
    with open(path, "r+b") as f:
        f.seek(-40, os.SEEK_END)  # the footer's 32-byte SHA-256, before its 8-byte magic
        digest = f.read(32)
        f.seek(-40, os.SEEK_END)
        f.write(bytes([digest[0] ^ 0xFF]) + digest[1:])
    return path


def test_it_is_refused_at_load_where_no_paint_waits(damaged):
    with pytest.raises(LexiconError, match=MISMATCH):
        Lexicon.load(damaged)
    with pytest.raises(LexiconError, match=MISMATCH):
        load_lexicon(damaged)


def test_loaded_for_a_first_paint_it_gives_no_verdict(damaged):
    lexicon = load_lexicon(damaged, check_words=False)  # the kiosk's load: its name for Ready
    assert lexicon.name == "CLUB"
    for _ in range(2):  # refused each time, never judged
        with pytest.raises(LexiconError, match=MISMATCH):
            adjudicate(lexicon, ["QI"])


def test_the_kiosk_refuses_it_after_its_first_paint_with_exit_3(damaged, tmp_path):
    config = tmp_path / "desk.toml"
    config.write_text(f'lexicon = "{damaged}"\njournal = "desk.db"\n')
    refused, told = refused_after_first_paint(str(config))
    assert isinstance(refused, LexiconError) and refused.exit_code == 3
    assert MISMATCH in str(refused)
    assert told == []  # its supervisor never hears it started: it is not started again


def test_the_checksum_is_the_file_as_it_was_opened(damaged, tmp_path):
    """A list replaced on disk between the load and the check: the bytes checked are the ones
    that judge (the damaged one is refused though a sound one now has its path; the sound one
    passes though a damaged one now has its path)."""
    sound = _compiled(tmp_path, "sound", ["QI", "ZA", "XU"])
    spare = str(tmp_path / "spare.lex")
    with open(sound, "rb") as f, open(spare, "wb") as out:
        out.write(f.read())

    lexicon = Lexicon.load(damaged, checksum_now=False)
    os.replace(spare, damaged)  # a sound list now at the damaged one's path
    with pytest.raises(LexiconError, match=MISMATCH):
        lexicon.check_words()

    lexicon = Lexicon.load(sound, checksum_now=False)
    os.replace(damaged, sound)  # ... and the first (sound, from spare) moved over this path
    with open(sound, "r+b") as f:  # now damaged in place: the file this path names
        f.seek(-40, os.SEEK_END)
        f.write(b"\0" * 32)
    lexicon.check_words()  # the list that was opened is sound
    assert adjudicate(lexicon, ["QI", "ZA"]).acceptable
