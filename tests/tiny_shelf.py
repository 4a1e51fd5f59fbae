"""A tiny word list compiled onto a shelf folder as NAME.lex, as a station finds it by name."""

from __future__ import annotations

from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon


def shelve(folder, name: str, words) -> Lexicon:
    """WORDS compiled into FOLDER/NAME.lex (the folder made if need be), loaded."""
    folder.mkdir(parents=True, exist_ok=True)
    src = folder / f"{name}.txt.src"
    src.write_text("\n".join(words) + "\n")
    compile_sources([str(src)], str(folder / f"{name}.lex"), name=name)
    src.unlink()
    return Lexicon.load(str(folder / f"{name}.lex"))
