"""The challenge station on a locked Textual screen (the core package `adjudicator` never imports this)."""
