"""`python -m adjudicator`: the same as the `adjudicator` command."""

from .command import main

main()
