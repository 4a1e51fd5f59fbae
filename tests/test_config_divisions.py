"""A station's config keeps the event's [[division]] array: written back only when it changed
(comments kept otherwise), read back the same (issue 27: a followed change survives a restart)."""

from __future__ import annotations

import dataclasses

from adjudicator.config.station import load_config
from adjudicator.config.save import save_config

FILE = '''# the desk by the door
station = "Desk 4"
divisions = ["A"]

[[division]]
name = "A"
lexicon = "CSW24"   # the hub pins it
tables = "1-20"

[[division]]
name = "B"
lexicon = "NWL2023"
challenge_rule = "double"
tables = "21-40"
'''


def test_divisions_are_kept_as_written_and_rewritten_only_when_changed(tmp_path):
    path = tmp_path / "station.toml"
    path.write_text(FILE)
    cfg = load_config(str(path))
    save_config(cfg.with_changes(station="Desk 5"))
    text = path.read_text()
    assert "# the desk by the door" in text and 'lexicon = "CSW24"   # the hub pins it' in text
    assert load_config(str(path)).event_divisions == cfg.event_divisions
    changed = (dataclasses.replace(cfg.event_divisions[0], lexicon="CSW21"),
               cfg.event_divisions[1])
    save_config(cfg.with_changes(event_divisions=changed))
    again = load_config(str(path))
    assert again.event_divisions == changed and again.divisions == ("A",)
    assert "# the desk by the door" in path.read_text()
    save_config(again.with_changes(event_divisions=(), divisions=()))
    assert "[[division]]" not in path.read_text()
    assert load_config(str(path)).event_divisions == ()
