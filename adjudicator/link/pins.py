"""The hubs a station trusts: each hub's address with the SHA-256 of its certificate, as joined.

A hub has no certificate authority behind it: it signs its own certificate, and `adjudicator join`
takes its fingerprint from the join address (the QR code), as SSH takes a known host. Every
request of the link (deadline.py) asks here first: an https hub is trusted only with the very
certificate pinned for its address (checked right after the handshake, before a byte of the
request is sent); a plain http hub only on this machine (127.0.0.1, ::1, localhost: the hub's own
listener there), since everything else in clear crosses the hall's network; anything else is
refused with one line that says what to run.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import ssl
import threading
from urllib.parse import urlsplit

HEX64 = re.compile(r"[0-9a-f]{64}")
_pins: dict[str, str] = {}
_lock = threading.Lock()


class LinkRefused(ConnectionError):
    """The station will not send to this address (no pin, a wrong certificate, plain http
    across the network): its message is the one line to show."""


def address(url: str) -> str:
    """The key a hub is pinned under: scheme://host:port, lower case."""
    parts = urlsplit(url.strip())
    port = parts.port or (443 if parts.scheme == "https" else 80)
    host = (parts.hostname or "").lower()
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme.lower()}://{host}:{port}"


def normal(fingerprint: str) -> str:
    """FINGERPRINT as pinned (64 lowercase hex, colons and a "sha256:" prefix taken off), or ""
    when it is not a SHA-256."""
    text = fingerprint.strip().lower().removeprefix("sha256:").replace(":", "")
    return text if HEX64.fullmatch(text) else ""


def trust(url: str, fingerprint: str) -> None:
    """Trust the hub at URL with the certificate whose SHA-256 is FINGERPRINT (a station's config,
    a join address); an empty or malformed FINGERPRINT changes nothing."""
    pin = normal(fingerprint or "")
    if pin and url.startswith("https://"):
        with _lock:
            _pins[address(url)] = pin


def pinned(url: str) -> str:
    """The fingerprint trusted for the hub at URL, or ""."""
    with _lock:
        return _pins.get(address(url), "")


def fingerprint_of(der: bytes) -> str:
    return hashlib.sha256(der).hexdigest()


def is_this_machine(host: str) -> bool:
    """True for a loopback host (the hub's own machine), never for a name a network resolves."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def context() -> ssl.SSLContext:
    """A client context for a pinned hub: TLS 1.2 at least; no authority and no name checked
    (a hub has neither), so the pin checked by check() is what trusts the hub."""
    made = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    made.minimum_version = ssl.TLSVersion.TLSv1_2
    made.check_hostname = False
    made.verify_mode = ssl.CERT_NONE
    return made


def allowed(url: str) -> str:
    """The pin to check for URL ("" for plain http on this machine); LinkRefused otherwise."""
    parts = urlsplit(url)
    hub = address(url)
    if parts.scheme == "http":
        if is_this_machine(parts.hostname or ""):
            return ""
        raise LinkRefused(f"the hub {hub.removeprefix('http://')} is set as plain http, which "
                          "everyone on the hall's network can read and forge: run `adjudicator "
                          "join URL` again with the join line the hub prints now (https://..."
                          "#sha256=...)")
    if parts.scheme != "https":
        raise LinkRefused(f"the hub {hub} is not a hub's address (https://H:P)")
    pin = pinned(url)
    if not pin:
        raise LinkRefused(f"the hub {hub} has no certificate fingerprint pinned: set "
                          "hub_fingerprint as `adjudicator hub` prints it, or run `adjudicator "
                          "join URL` again")
    return pin


def check(url: str, pin: str, der: bytes | None) -> None:
    """LinkRefused unless DER (the certificate the peer at URL showed) has the SHA-256 PIN."""
    got = fingerprint_of(der) if der else "none"
    if got != pin:
        raise LinkRefused(f"the hub {address(url)} is refused: it is not the hub this station "
                          f"joined (its certificate's SHA-256 is {got}, the pinned one {pin}): a "
                          "machine in the middle, or a hub made anew (then run `adjudicator "
                          "join URL` again); nothing was sent to it")
