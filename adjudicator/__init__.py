"""adjudicator: a word judge for Scrabble tournaments (headless core; never imports Textual)."""

__version__ = "0.1.0"
