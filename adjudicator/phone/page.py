"""The phone page as one response: index.html with its CSS and JS inlined (one round trip), and
a Content-Security-Policy that lets nothing else load (no CDN, no font, no other site)."""

from __future__ import annotations

import base64
import hashlib
from importlib import resources

from .limits import FULL, TOO_MANY_HERE


def _read(name: str) -> str:
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


class Page:
    """The built page, the limit page and the headers that go with them."""

    def __init__(self) -> None:
        css, js = _read("phone.css"), _read("phone.js")
        html = _read("index.html")
        self.body = html.replace("/*CSS*/", css).replace("/*JS*/", js).encode()
        template = _read("full.html")
        self.refusals = {reason: template.replace("{{message}}", reason).encode()
                         for reason in (FULL, TOO_MANY_HERE)}
        self.csp = ("default-src 'none'; connect-src 'self'; img-src 'self' data:; "
                    f"style-src {_hash(css)}; script-src {_hash(js)}; base-uri 'none'; "
                    "form-action 'none'; frame-ancestors 'none'")
        self.full_csp = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
