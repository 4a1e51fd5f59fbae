"""`adjudicator judge` at a terminal: one play or a batch, judged, recorded, told to the hub."""
