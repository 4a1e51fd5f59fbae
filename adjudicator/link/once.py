"""A terminal command's one pass with its hub: asked for the event first (issue 40), told after.

A one-shot `judge` on a joined machine asks its hub for the event before it judges (a newer
one is taken at once, as a kiosk takes it at Ready: follow.py); `judge --config` sends its rows
and a heartbeat after its verdicts are written; `journal push` sends every row the hub does not
hold yet (push_journal: no station, no list loaded). Each has a limit whatever the hub does, and a
hub that does not answer costs the verdict nothing: the rows wait in the journal's outbox.
The link is the station's own (station.hub_link: open_station's link "once", attach.py).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from adjudicator.errors import AdjudicatorError

ASK_WAIT = 1.5  # seconds the hub has to answer before a one-shot judge judges without it
HUB_WAIT = 5.0  # seconds `judge --config` gives its hub after the verdict, whatever it does
HUB_REQUEST = 2.0  # seconds one request to `judge --config`'s hub may take, whole
PUSH_LIMIT = 30.0  # seconds `journal push` may take whatever the hub does (docs/hub.md)


def joined(cfg) -> bool:
    """CFG names a hub to follow (its two lines: `join` writes them, or pasted by hand)."""
    return bool(cfg.hub and cfg.hub_token)


def in_force(cfg) -> str:
    """Which event judges, as the config has it: 'event version 7, as station.toml has it'."""
    if cfg.event_version:
        return f"event version {cfg.event_version}, as {cfg.path} has it"
    return f"the lists {cfg.path} names (no event version from the hub yet)"


def ask_first(service, push_follows: bool = False, err: TextIO | None = None) -> bool:
    """SERVICE's hub asked for its event through its link (one heartbeat, ASK_WAIT seconds at
    most whatever the hub does). A newer event is taken now (follow.py: lists fetched from the
    hub, the config written, the journal noted; one path for every surface), and said on ERR.
    A hub that does not answer: one line saying which event version judges (the config's).
    PUSH_FOLLOWS (`judge --config`): the rows and a heartbeat are sent after the verdict (not
    when the hub did not answer here: the line says where they wait); without it, a change
    taken is told to the hub at once (what judges now, its version), so the page shows no
    stale list or version of this station. True when the hub answered."""
    err = err or sys.stderr
    cfg, link, following = service.config, service.hub_link, service.following
    said_before = (following.note, following.note_until)
    version = following.version
    try:
        link.ask(ASK_WAIT)
    except Exception as e:  # noqa: BLE001 - whatever the hub does, the verdict is given
        link.close()
        why = str(e) if str(e).startswith("the hub") else (
            f"the hub {cfg.hub} could not be asked ({type(e).__name__})")
        wait = (f"; the rows wait in {cfg.journal} (adjudicator journal push --config "
                f"{cfg.path})" if push_follows else "")
        err.write(f"adjudicator: {why}: judging with {in_force(cfg)}{wait}\n")
        return False
    if following.version != version and not push_follows:
        try:  # what judges now, told at once: no stale list or version on the hub's page
            link.ask(ASK_WAIT)
        except Exception:  # noqa: BLE001 - the change is taken; the next call tells it
            pass
    link.close()  # the journal is free of its reader while the verdicts are recorded
    if link.problem:  # the event came and could not be taken: the config's judges
        err.write(f"adjudicator: {link.problem}: judging with {in_force(service.config)}\n")
    elif (following.note, following.note_until) != said_before and following.note:
        err.write(f"adjudicator: {following.note}\n")
    return True


@contextmanager
def one_pass(service, ask: bool = True, err: TextIO | None = None) -> Iterator[None]:
    """`judge --config`'s pass with SERVICE's hub, around its verdicts: asked first when ASK
    and the machine is joined (ask_first), told after when it answered (tell_hub: not when the
    verdicts raised), the link stopped whatever happens."""
    try:
        answered = ask_first(service, True, err) if ask and joined(service.config) else True
        yield
        if service.config.hub and answered:
            tell_hub(service, err)
    finally:
        if service.hub_link is not None:
            service.hub_link.stop()


def tell_hub(service, err: TextIO | None = None) -> None:
    """One push to the station's hub through its link, HUB_WAIT seconds at most whatever the
    hub does (a hub answering a byte a second included); a line on ERR when it cannot be
    told, the rows then wait in the journal's outbox. The event the hub's answer carries is
    taken at once when the link follows it (follow.py), as a kiosk takes it at Ready."""
    from adjudicator.link.hubclient import HubUnreachable

    cfg, link = service.config, service.hub_link
    try:
        link.push(limit=HUB_WAIT)
    except Exception as e:  # noqa: BLE001 - the verdict is given: the hub costs it nothing
        why = str(e) if isinstance(e, (HubUnreachable, AdjudicatorError)) else (
            f"the hub {cfg.hub} could not be told ({type(e).__name__})")
        (err or sys.stderr).write(f"adjudicator: {why}; the rows wait in {cfg.journal} "
                                  f"(adjudicator journal push --config {cfg.path})\n")


def push_journal(config_path: str | None):
    """`journal push`: every row the hub does not hold yet sent, PUSH_LIMIT seconds at most;
    (the hub's address, its PushReport). HubUnreachable says the rows wait in the journal;
    ConfigError without a hub; JournalFileError without a journal. No list is loaded: the
    heartbeat says only the mode."""
    import os

    from adjudicator.config.station import load_config
    from adjudicator.errors import ConfigError, JournalFileError
    from adjudicator.link.attach import open_link
    from adjudicator.link.hubclient import HubUnreachable

    cfg = load_config(config_path)
    if not cfg.hub:
        raise ConfigError(f"{cfg.path}: no hub set: paste the two lines `adjudicator hub` "
                          "printed (hub = ..., hub_token = ...)")
    if not os.path.isfile(cfg.journal):
        raise JournalFileError(f"no journal at {cfg.journal}")
    forwarder = open_link(cfg)
    try:
        return cfg.hub, forwarder.push(limit=PUSH_LIMIT)
    except HubUnreachable as e:
        raise HubUnreachable(f"{e}; nothing is lost: the rows wait in {cfg.journal}") from None
    except (AdjudicatorError, KeyboardInterrupt):
        raise
    except Exception as e:  # noqa: BLE001 - whatever the link did: one line, exit 4
        raise HubUnreachable(f"the hub {cfg.hub} could not be told ({type(e).__name__}); "
                             f"nothing is lost: the rows wait in {cfg.journal}") from None
    finally:
        forwarder.stop()
