"""How the doc walks read a page and compare what a command printed with what the page shows
(doc_blocks.py): a difference the page would hide is still found."""

from __future__ import annotations

from doc_blocks import differences, run_of, steps
from machines import REPO

PAGE = """## 1. One
<!-- walk: not run (why) -->
```sh
adjudicator kiosk   # a comment
```

```sh
adjudicator hub --config hub.toml
```

   ```
   Hub journal: /srv/event/hub.db
   (the join line as a QR code)
   ```
<!-- walk: accept -->
"""


def test_a_page_is_read_as_its_steps():
    found = steps(PAGE)
    assert [(s.kind, s.not_run, s.section) for s in found] == [
        ("sh", True, "1. One"), ("sh", False, "1. One"), ("out", False, "1. One"),
        ("walk", False, "1. One")]
    assert found[0].commands == ["adjudicator kiosk"]
    assert found[2].lines == ["Hub journal: /srv/event/hub.db", "(the join line as a QR code)"]
    assert found[3].action == "accept"


def test_dots_stand_for_text_without_a_space_and_nothing_else_is_loose():
    shown = ["Hub journal: .../hub.db", "(the join line as a QR code)", "hub = \"...\""]
    assert differences(shown, ["Hub journal: /a/b/hub.db", "▀▀ ▄█", "█▄ ▀", 'hub = "xyz"']) == []
    assert differences(shown, ["Hub journal: /a b/hub.db", "▀▀", 'hub = "xyz"'])  # a space
    assert differences(shown, ["Hub journal: /a/hub.db", 'hub = "xyz"'])  # no QR code
    assert differences(shown, ["Hub journal: /a/hub.db", "▀▀", 'hub = "xyz"', "more"])
    assert differences(["ACCEPTABLE"], ["UNACCEPTABLE"])  # whole lines, not a part of one
    assert run_of(["b", "c"], ["a", "b", "c", "d"]) and not run_of(["b", "d"], ["b", "c", "d"])


def test_event_md_names_every_step_the_walk_takes():
    found = steps((REPO / "docs" / "event.md").read_text(encoding="utf-8"))
    assert [s.action for s in found if s.kind == "walk"] == [
        "accept", "accept", "a phone judges", "Ctrl-C"]
    assert [s.commands[0].split()[1] for s in found if s.kind == "sh" and s.not_run] == [
        "-m", "kiosk"]  # the install, and the kiosk (a terminal): every other block is run
