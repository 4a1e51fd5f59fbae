"""Issue 40: `judge --batch` answers a block of plain lines at once (adjudicator/terminal/batch.py) and, in a long
batch, looks its words up in a set made from the list. Every answer must be the one a line gets
on its own: parse_entry's INVALID naming what is wrong, else the verdict of adjudicate."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.terminal import batch
from adjudicator.text.entry import parse_entry
from adjudicator.errors import AdjudicatorError
from adjudicator.judging.verdict import adjudicate

WORDS = ["QI", "ZA", "CAT", "XU", "AA", "ABCDEFGHIJKLMNO"]
TOKENS = WORDS + ["qi", "Za", "cat", "ZZQ", "Q", "ABCDEFGHIJKLMNOP", "CAT5", "CAFÉ", "ﬁne", ""]
SEPARATORS = [" ", ",", "\t", ", ", "  ", "\u00a0", "\x0b", "\x0c", "\x1c", "\x1f", "\r",
              "\u2028", "\x85", "\u200b", "-", "5", "\x00", "\x7f"]


def expected(lexicon, line: str) -> str:
    """The answer of one line judged on its own, as the kiosk and judge WORDS read it."""
    if len(line) > batch.MAX_LINE_CHARS:
        return "TOO LONG"
    try:
        words = parse_entry(line)
    except AdjudicatorError as e:
        return f"INVALID: {e}"
    return adjudicate(lexicon, words).word


def answers(run, path, lines) -> list[str]:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("judge", "--lexicon", str(path.parent / "tiny.lex"), "--batch", str(path))
    got = result.stdout.split("\n")[:-1]
    return ["TOO LONG" if a.startswith("INVALID: the line is longer") else a for a in got]


@pytest.fixture
def tiny(tmp_path, make_lexicon):
    lex = make_lexicon(WORDS)
    (tmp_path / "tiny.lex").write_bytes(Path(lex.path).read_bytes())
    return lex


def random_lines(seed: int, n: int, plain: bool) -> list[str]:
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        parts = [rng.choice(TOKENS[:12] if plain else TOKENS) for _ in range(rng.randint(0, 10))]
        seps = [" ", ",", "\t", ", "] if plain else SEPARATORS
        # a CR just before the LF would end the line there (CRLF): not this test's business
        lines.append("".join(p + rng.choice(seps) for p in parts).rstrip("\r"))
    if not plain:
        lines.append("qi " * 400)  # longer than a play: INVALID, even made of words
    return lines


@pytest.mark.parametrize("plain", [True, False], ids=["plain-blocks", "any-line"])
@pytest.mark.parametrize("set_after", [0, 10**9], ids=["word-set", "trie"])
def test_every_line_gets_the_answer_it_gets_alone(run, tmp_path, tiny, monkeypatch, plain,
                                                   set_after):
    monkeypatch.setattr(batch, "SET_AFTER", set_after)
    lines = random_lines(7, 3000, plain)
    got = answers(run, tmp_path / "b.txt", lines)
    assert got == [expected(tiny, line) for line in lines]
    assert ("ACCEPTABLE" in got and "UNACCEPTABLE" in got
            and any(a.startswith("INVALID") for a in got))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.tuples(st.sampled_from(TOKENS), st.sampled_from(SEPARATORS)),
                         max_size=10), min_size=1, max_size=30))
def test_any_lines_any_separators(tmp_path_factory, make_lexicon, lines):
    from click.testing import CliRunner

    from adjudicator.cli import main

    folder = tmp_path_factory.mktemp("b")
    lex = make_lexicon(WORDS)
    (folder / "tiny.lex").write_bytes(Path(lex.path).read_bytes())
    text = ["".join(t + s for t, s in line) for line in lines]
    text = [t.rstrip("\r") for t in text]  # a CR before the LF ends the line: not this test's
    runner = CliRunner()
    run = lambda *a: runner.invoke(main, list(a), catch_exceptions=False)
    assert answers(run, folder / "b.txt", text) == [expected(lex, t) for t in text]
