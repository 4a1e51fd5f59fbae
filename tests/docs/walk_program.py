"""`adjudicator` as the event walk runs it: the program as it is, but for two things a test
machine needs. $WALK_STAND_INS (JSON, each a known.toml entry): small lists standing in for
official ones (an event takes only official lists, and a test cannot ship CSW19 or NWL2020).
$WALK_ASK_WAIT: the seconds a one-shot `judge --config` gives its hub before it judges without
it (1.5 at an event, where the hub answers in milliseconds; a test machine running other tests
on its 2 cores can take longer, and the page shows what a station says when the hub answered)."""

import json
import os

from adjudicator.lexicon import known

table = known.known_lexicons()  # the one table every look-up reads (cached): changed in place
for entry in json.loads(os.environ.get("WALK_STAND_INS", "[]")):
    for fingerprint in [fp for fp, k in table.items() if k.id == entry["id"]]:
        del table[fingerprint]
    table[entry["fingerprint"]] = known.KnownLexicon(**entry)
if os.environ.get("WALK_ASK_WAIT"):
    from adjudicator.link import once

    once.ASK_WAIT = float(os.environ["WALK_ASK_WAIT"])

from adjudicator.command import main  # after the table is set

main()
