"""What `adjudicator hub` says at start about the event: its name, each division's list and rule."""

from __future__ import annotations

from adjudicator.event.setup import Event
from adjudicator.lexicon.known import by_id, identify


def event_lines(event: Event | None) -> list[str]:
    """What `adjudicator hub` says at start about the event: its name and each division's list
    (name, edition as published, fingerprint pinned) and rule; [] without an event."""
    if event is None or not (event.name or event.divisions):
        return []
    lines = [f"Event: {event.name or '(no name)'}"]
    for d in event.divisions:
        known = identify(d.fingerprint) if d.fingerprint else by_id(d.lexicon)
        edition = known.title if known else "not an official list"
        pinned = d.fingerprint[:12] if d.fingerprint else "not pinned"
        tables = f" (tables {d.tables_text})" if d.tables else ""
        lines.append(f"Division {d.name}{tables}: {d.lexicon} — {edition} — {pinned} · "
                     f"{d.challenge_rule.value}")
    return lines
