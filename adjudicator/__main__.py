"""`python -m adjudicator`: the same as the `adjudicator` command."""

from .cli import main

main(prog_name="adjudicator")
