"""`adjudicator` with small lists standing in for official ones ($WALK_STAND_INS, JSON: each a
known.toml entry): an event takes only official lists, and a test cannot ship CSW19 or NWL2020.
Everything else is the program as it is; tests/docs/test_event_walk.py runs it when the real
lists are not at hand."""

import json
import os

from adjudicator.lexicon import known

table = known.known_lexicons()  # the one table every look-up reads (cached): changed in place
for entry in json.loads(os.environ["WALK_STAND_INS"]):
    for fingerprint in [fp for fp, k in table.items() if k.id == entry["id"]]:
        del table[fingerprint]
    table[entry["fingerprint"]] = known.KnownLexicon(**entry)

from adjudicator.command import main  # noqa: E402 - after the table is set

main()
