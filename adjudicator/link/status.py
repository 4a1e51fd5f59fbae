"""What a heartbeat says besides its last row: mode, lists by division, printer, PIN, version."""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.wire import MAX_LISTS, list_entry


def config_status(cfg) -> Callable[[], dict]:
    """For a one-shot push: what the config says (no lexicon is loaded to say its fingerprint)."""
    return lambda: {"mode": cfg.mode}


def station_status(station) -> Callable[[], dict]:
    """For a running station service: its lexicon as loaded now, its printer as last heard."""
    def status() -> dict:
        lexicon = station.lexicon
        printer = getattr(station, "printer_state", "") or (
            "ready" if station.config.printer.enabled else "none")
        config = station.config
        return {"station": config.station, "mode": config.mode,
                "lexicon": str(lexicon.name), "fingerprint": str(lexicon.fingerprint),
                "printer": printer, "divisions": ",".join(config.divisions),
                "locked": "yes" if config.pin_hash else "no",
                "event_version": str(station.following.version),
                "lists": lists_by_division(station)}
    return status


def lists_by_division(station) -> list[dict]:
    """What judges each division the station serves (wire.check_lists), as its lists by table
    say (adjudicator/station/lists.py): its name, its list's name and fingerprint, its rule; one entry
    with division "" for a station on its own list (its rule "" when none is configured)."""
    lists = station.lists
    return [list_entry(s.division.name, s.lexicon.name, s.lexicon.fingerprint,
                       s.division.challenge_rule.value if lists.by_division or station.rule
                       else "") for s in lists.served[:MAX_LISTS]]


def printer_state(ok: bool, message: str) -> str:
    """A print job's report ('Slip for challenge #12 not printed: paper out. Reload...') as the
    printer's state: 'paper out'; 'ready' after a slip printed (or its warning, 'paper running
    low')."""
    from adjudicator.docket.status import PAPER_LOW

    if ok:
        return PAPER_LOW if PAPER_LOW in message.lower() else "ready"
    reason = message.split(" not printed: ", 1)[-1]
    return reason.split(". ", 1)[0].rstrip(".").strip() or "not printing"
