"""`python -m adjudicator`: the same as the `adjudicator` command."""

from adjudicator.command import main

main()
