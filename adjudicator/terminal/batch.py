"""`judge --batch` without a journal: every line's words looked up a block of lines at a time."""

from __future__ import annotations

import gc
import os
import sys
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate, chain, compress, count, repeat
from operator import not_

from adjudicator.text.entry import MAX_WORDS, is_plain
from adjudicator.errors import EXIT_ENTRY
from adjudicator.judging.verdict import lookup
from adjudicator.terminal.batch_lines import ACCEPTABLE, MAX_LINE_CHARS, UNACCEPTABLE, Entries, close_source, open_source

# From the start in a file of SET_FILE_BYTES or more (about 60,000 lines), else after SET_AFTER
# lines, a batch looks its words up in a set made from the list (Lexicon.word_set: about 70 ms
# for CSW, paid back after about 80,000 lines), not in the trie.
SET_AFTER = 50_000
SET_FILE_BYTES = 1 << 20


def run_batch(lex, source: str, opened=None, out=None) -> int:
    """Stream challenges from SOURCE; one output line per input line; exit 0, or 2 if any invalid.

    Lines end only at LF or CRLF (batchlines.BatchLines). A file is read and answered a block at a
    time; from a pipe or terminal each verdict is written as soon as its line is judged. Every
    word of every line is looked up (no early exit: time tells nothing of which word). OUT:
    where the verdicts go (standard output); OPENED() is called once SOURCE is open.
    """
    stream = open_source(source)
    if opened is not None:
        opened()
    out = out or sys.stdout
    write, flush = out.write, out.flush
    streaming = stream.streaming
    contains = lookup(lex)
    faster = getattr(lex, "word_set", None)
    entries = Entries()
    judged = SET_AFTER if _file_size(stream) >= SET_FILE_BYTES else 0
    collecting = gc.isenabled()
    gc.disable()  # the loop makes no reference cycle; a block's lists of words made the
    # collector walk them, and the word set's 280,000 entries, again and again (a tenth of it)
    try:
        for block in stream.blocks():
            if faster is not None and judged >= SET_AFTER:
                contains, faster = faster().__contains__, None
            judged += len(block)
            if stream.plain:  # ASCII, nothing split but at a space, tab, comma: at once
                write("".join(_plain_block(block, contains, entries)))
            else:
                write("".join([_line(line, contains, entries) for line in block]))
            if streaming:
                flush()  # a runner at a pipe sees each verdict as soon as it is judged
    finally:
        if collecting:
            gc.enable()
        close_source(source, stream)
    flush()
    return EXIT_ENTRY if entries.invalid else 0


def _plain_block(block: list[str], contains, entries: Entries) -> list[str]:
    """The answers to a block of ASCII lines without a control character but tab. The block is
    upper-cased and split into its words at once, and every word looked up in one pass: a
    line whose words are 1-8, all in the list (so letters A-Z), with only spaces, tabs and
    commas between them is ACCEPTABLE, parse_entry's very words; any other line is read again
    on its own (_line), as parse_entry reads it."""
    words = list(map(str.split, "\n".join(block).upper().replace(",", " ").split("\n")))
    counts = list(map(len, words))
    found = list(map(contains, chain.from_iterable(words)))  # each word: in the list or not
    answers = [ACCEPTABLE] * len(block)
    odd: set[int] = set()
    if min(counts) == 0 or max(counts) > MAX_WORDS:
        odd.update(i for i, n in enumerate(counts) if not 0 < n <= MAX_WORDS)
    if max(map(len, block)) > MAX_LINE_CHARS:
        odd.update(i for i, line in enumerate(block) if len(line) > MAX_LINE_CHARS)
    ends = list(accumulate(counts))  # the index of the word after each line's last
    missing = set(map(bisect_right, repeat(ends), compress(count(), map(not_, found))))
    for i in missing:  # a line with a word not in the list: UNACCEPTABLE, or INVALID when a
        # token is no word at all (parse_entry's answer, naming it)
        answers[i] = UNACCEPTABLE if i not in odd and is_plain(block[i]) else _line(
            block[i], contains, entries)
    for i in odd - missing:
        answers[i] = _line(block[i], contains, entries)
    return answers


def _line(line: str, contains, entries: Entries) -> str:
    """One line's answer: parse_entry's fast path inlined for a plain line (entry.is_plain),
    else parse_entry itself (INVALID naming what is wrong); every word looked up."""
    if is_plain(line) and len(line) <= MAX_LINE_CHARS:
        words: Sequence[str] = line.upper().replace(",", " ").split()
    else:
        parsed = entries.parse(line)
        if isinstance(parsed, str):  # its INVALID answer
            return parsed
        words = parsed
    return ACCEPTABLE if sum(map(contains, words)) == len(words) else UNACCEPTABLE


def _file_size(stream) -> int:
    """The batch file's size; 0 for a pipe or a terminal (its lines still to come)."""
    if stream.streaming:
        return 0
    try:
        return os.fstat(stream.raw.fileno()).st_size
    except (OSError, AttributeError, ValueError):
        return 0
