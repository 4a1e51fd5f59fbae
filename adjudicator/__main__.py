"""`python -m adjudicator`: the same as the `adjudicator` command."""

from .launch import main

main()
