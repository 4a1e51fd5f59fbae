"""One screen per state of the self-adjudication protocol, plus the director's screens."""
