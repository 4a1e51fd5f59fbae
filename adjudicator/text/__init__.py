"""Text as people type and read it: entries to words, lookalike names, controls made visible."""
