"""What the director sees on start and on rotation: the full URL with its token and a QR code."""

from __future__ import annotations

import socket
from typing import TextIO
from urllib.parse import quote

WILDCARD_HOSTS = ("", "0.0.0.0", "::")


def lan_address() -> str:
    """This machine's address on the venue network (no packet is sent), or 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))  # UDP connect only picks the outgoing interface
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def base_url(host: str, port: int, scheme: str = "http") -> str:
    """Where phones (or, over https, stations) reach the server: a wildcard bind is shown as
    this machine's LAN address."""
    shown = lan_address() if host in WILDCARD_HOSTS else host
    if ":" in shown:  # IPv6 literal
        shown = f"[{shown}]"
    return f"{scheme}://{shown}:{port}"


def token_url(base: str, token: str) -> str:
    """The full URL a phone opens (what the QR code holds)."""
    return f"{base.rstrip('/')}/?token={quote(token, safe='')}"


def print_url(url: str, out: TextIO, *, heading: str) -> None:
    """HEADING, the URL, then the URL as a QR code drawn with block characters."""
    import segno

    out.write(f"{heading}\n  {url}\n")
    try:
        segno.make(url, error="m").terminal(out=out, compact=True)
    except (UnicodeEncodeError, ValueError):  # no block characters here: the URL still shows
        out.write("  (this terminal cannot draw the QR code; type the URL above)\n")
    out.write("Anyone with this URL can adjudicate: show it only to the players and directors.\n")
    out.flush()
