"""A play judged: one collective verdict under a challenge rule, and its marks."""
