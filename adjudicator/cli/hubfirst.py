"""A one-shot `judge` on a joined machine asks its hub for the event before it judges (issue 40)."""

from __future__ import annotations

import sys

from ..config import Config, load_config
from ..lists import TableLists, lists_for
from ..station import Station

ASK_WAIT = 1.5  # seconds the hub has to answer before a one-shot judge judges without it


def joined(cfg: Config) -> bool:
    """CONFIG names a hub to follow (its two lines: `join` writes them, or pasted by hand)."""
    return bool(cfg.hub and cfg.hub_token)


def ask_first(service: Station, push_follows: bool = False) -> bool:
    """SERVICE's hub asked for its event (one heartbeat, ASK_WAIT seconds at most whatever the
    hub does). A newer event is taken now, as a kiosk takes it at Ready (follow.py: lists
    fetched from the hub, the config written, the journal noted; one path for every surface),
    and said on stderr. A hub that does not answer: one line saying which event version
    judges (the config's). PUSH_FOLLOWS (`judge --config`): the rows and a heartbeat are sent
    after the verdict (not when the hub did not answer here: the line says where they wait);
    without it, a change taken is told to the hub at once (what judges now, its version), so
    the page shows no stale list or version of this station. True when the hub answered."""
    from ..link.forward import Forwarder
    from ..link.status import station_status

    cfg = service.config
    forwarder = Forwarder(cfg.journal, cfg.hub, cfg.hub_token, status=station_status(service),
                          timeout=ASK_WAIT, pin=cfg.hub_fingerprint)
    service.takes_at_once = True  # no screen, no challenge under way: taken as it comes
    forwarder.on_event = service.follow
    forwarder.on_name = service.renamed
    following = service.following
    said_before = (following.note, following.note_until)
    version = following.version
    try:
        forwarder.ask(ASK_WAIT)
    except Exception as e:  # noqa: BLE001 - whatever the hub does, the verdict is given
        forwarder.stop()
        why = str(e) if str(e).startswith("the hub") else (
            f"the hub {cfg.hub} could not be asked ({type(e).__name__})")
        wait = (f"; the rows wait in {cfg.journal} (adjudicator journal push --config "
                f"{cfg.path})" if push_follows else "")
        sys.stderr.write(f"adjudicator: {why}: judging with {in_force(cfg)}{wait}\n")
        return False
    if following.version != version and not push_follows:
        try:  # what judges now, told at once: no stale list or version on the hub's page
            forwarder.ask(ASK_WAIT)
        except Exception:  # noqa: BLE001 - the change is taken; the next call tells it
            pass
    forwarder.stop()
    if forwarder.problem:  # the event came and could not be taken: the config's judges
        sys.stderr.write(f"adjudicator: {forwarder.problem}: judging with "
                         f"{in_force(service.config)}\n")
    elif (following.note, following.note_until) != said_before and following.note:
        sys.stderr.write(f"adjudicator: {following.note}\n")
    return True


def in_force(cfg: Config) -> str:
    """Which event judges, as the config has it: 'event version 7, as station.toml has it'."""
    if cfg.event_version:
        return f"event version {cfg.event_version}, as {cfg.path} has it"
    return f"the lists {cfg.path} names (no event version from the hub yet)"


def lists_now(cfg: Config | None = None) -> tuple[TableLists, str]:
    """(lists by table, config path) of the station on this machine (the user config, or
    $ADJUDICATOR_CONFIG) for plain `judge`, made as every surface makes them (lists.lists_for);
    on a joined machine its hub asked first, its newer event taken (ask_first)."""
    cfg = cfg or load_config()  # ConfigError (exit 6) names the bad key, as the kiosk would
    lists = lists_for(cfg)
    if not joined(cfg):
        return lists, cfg.path
    service = Station(cfg, lists)  # no journal of its own: nothing is recorded here
    ask_first(service)
    return service.lists, service.config.path
