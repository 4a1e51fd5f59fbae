"""The challenge station on a locked Textual screen (the core `adjudicator` never imports it)."""
