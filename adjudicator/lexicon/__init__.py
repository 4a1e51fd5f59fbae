"""Word lists: read, compiled, recognised, named, shelved and loaded (compiled.Lexicon judges)."""
