"""`adjudicator hub` (the director's live view) and `adjudicator journal push` (send what waits)."""

from __future__ import annotations

import sys

import click


@click.command("hub")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Address to listen on (0.0.0.0: every station on the venue network).")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on, over TLS with the hub's own certificate (0: any "
                   "free port).")
@click.option("--director-port", default=None, type=click.IntRange(0, 65535),
              help="Port of the director's page on 127.0.0.1, this machine only  [default: "
                   "--port + 1; 0 with --port 0]")
@click.option("--director-from-anywhere", is_flag=True,
              help="Also answer the director's page and API from other machines (over the "
                   "same TLS, with the director's key); without it they answer on this "
                   "machine only.")
@click.option("--config", "config_path", default="hub.toml", show_default=True, metavar="PATH",
              help="The hub's config: `journal` (the merged journal file), optionally `tsh` "
                   "(tsh's html/tourney.js: players' names at each table), and the event: "
                   "[event] (its name, the director's PIN) and one [[division]] each (its "
                   "list, challenge rule and tables; docs/event.md); written with journal = "
                   "\"hub.db\" when missing.")
def hub_cmd(host: str, port: int, config_path: str, director_port: int | None,
            director_from_anywhere: bool) -> None:
    """The director's hub: every station's challenges, live, on one page.

    Prints the event (hub.toml's [event] and [[division]]: each division's list and rule), the
    three lines to paste into each station's config, the `adjudicator join` line (and its QR
    code; both carry the SHA-256 of the hub's certificate, made beside its journal at the first
    start: stations trust that certificate only), and last the director's address on this
    machine (with its key: keep it to yourself). Stations then
    forward every row they record; the hub keeps them all, once, in its own journal
    (`adjudicator journal verify/export` read it).
    The tokens are kept in that journal: a restarted hub takes the same stations.

    \b
    Examples:
      adjudicator hub --config hub.toml
      adjudicator hub --host 192.168.1.20 --port 8080 --config /srv/event/hub.toml
    """
    import asyncio

    from adjudicator.hub.run import serve
    from adjudicator.hub.settings import load_hub_config
    from adjudicator.net.announce import base_url

    cfg, created = load_hub_config(config_path)
    if created:
        click.echo(f"Wrote {cfg.path} (journal = \"hub.db\").")

    if director_port is None:
        director_port = port + 1 if 0 < port < 65535 else 0

    def ready(hub, bound: int) -> None:
        base = base_url(host, bound, "https")
        fingerprint = hub.certificate.fingerprint
        join = f"{base}/join?code={hub.join_code}#sha256={fingerprint}"  # no & for a shell
        before, after = startup_lines(getattr(hub, "event", None), cfg.journal, cfg.path, base,
                                      hub.station_token, hub.director_token, join, fingerprint,
                                      f"http://127.0.0.1:{hub.director_port}",
                                      director_from_anywhere)
        click.echo("\n".join(before))
        print_qr(join)  # the director's page last: on screen after the QR code (24 lines)
        click.echo("\n".join(after))
        sys.stdout.flush()

    event, lists, from_tsh = cfg.event, {}, frozenset()
    if cfg.tsh:
        from adjudicator.hub.tsh import read_tourney

        tourney = read_tourney(cfg.tsh)  # a wrong path or file is said now, in one line (exit 6)
        click.echo(f"Players' names from tsh: {cfg.tsh} (read only, never written)")
        if event is not None:
            from adjudicator.hub.event_setup import with_tsh_tables

            untabled = {d.name for d in event.divisions if not d.tables}
            event = with_tsh_tables(event, tourney)  # tsh's tables where a division has none
            from_tsh = frozenset(d.name for d in event.divisions
                                 if d.name in untabled and d.tables)
    if event is not None:
        from adjudicator.hub.event_setup import pin_lists

        event, lists = pin_lists(event, cfg.path)  # a list not found, unofficial: exit 6
    import signal

    stopped_by = asyncio.run(serve(cfg.journal, host, port, ready, cfg.tsh, event=event,
                                   lists=lists, config_path=cfg.path,
                                   tables_from_tsh=from_tsh, director_port=director_port,
                                   director_from_anywhere=director_from_anywhere))
    if stopped_by == signal.SIGINT:  # Ctrl-C: 130 and one line, as `serve` (README)
        raise KeyboardInterrupt
    if stopped_by:  # a shutdown (SIGTERM) or a closed terminal (SIGHUP): exit 0, as `serve`
        click.echo(f"adjudicator: stopped ({signal.Signals(stopped_by).name}): every "
                   "connection closed, the hub's journal closed", err=True)


def startup_lines(event, journal: str, config_path: str, base: str, station_token: str,
                  director_token: str, join: str, fingerprint: str, director_base: str,
                  from_anywhere: bool = False) -> tuple[list[str], list[str]]:
    """What `adjudicator hub` says at start, before and after the QR code of the join address
    (docs/event.md shows it whole; tests/hub/test_startup_lines.py holds them equal). BASE:
    the stations' https address; FINGERPRINT: the SHA-256 of the hub's certificate;
    DIRECTOR_BASE: the director's page on this machine; FROM_ANYWHERE: also served to others."""
    from adjudicator.event.divisions import event_lines
    from adjudicator.event.pin import SHORT_PIN, short_pin
    from adjudicator.text.visible import visible

    lines = [visible(line) for line in event_lines(event)]  # name, each division's list
    if event is None or not event.divisions:
        lines.append("No event set: add [event] and [[division]] to the hub's config "
                     "(docs/event.md), or set it on the director's page")
    else:
        pin = ("director PIN set" if event.pin_hash else
               f"no director PIN: adjudicator set-pin --config {config_path}")
        lines.append(f"Event version {event.version}; {pin}")
        if short_pin(event.pin_hash):
            lines.append(f"Warning: {SHORT_PIN} (adjudicator set-pin --config {config_path}, "
                         "or on the director's page)")
    lines += [f"Hub journal: {journal}",
              f"Stations trust this hub's certificate only: SHA-256 {fingerprint}",
              "Paste these three lines into each station's config:",
              f"  hub = \"{base}\"",
              f"  hub_fingerprint = \"{fingerprint}\"",
              f"  hub_token = \"{station_token}\"",
              "Or, on each station (writes its whole config, fetches the event's lists):",
              f"  adjudicator join {join}"]
    after = ["Director's page, on this machine only (yours: anyone with it sees every challenge):",
             f"  {director_base}/?key={director_token}"]
    if from_anywhere:
        after += ["--director-from-anywhere: the director's page and API also answer other "
                  "machines, over TLS (the browser warns of a certificate it does not know: "
                  "it is the hub's if its SHA-256 is the one above):",
                  f"  {base}/?key={director_token}"]
    return lines, after


def print_qr(url: str) -> None:
    """URL as a QR code in block characters (a phone's camera opens it on a laptop to copy)."""
    import io

    import segno

    out = io.StringIO()
    try:
        segno.make(url, error="m").terminal(out=out, compact=True)
    except (UnicodeEncodeError, ValueError):
        return
    try:
        click.echo(out.getvalue(), nl=False)
    except UnicodeEncodeError:
        click.echo("  (this terminal cannot draw the QR code; type the join line above)")


COMMANDS = [hub_cmd]
