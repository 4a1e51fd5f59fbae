"""The phone page as one response: index.html with its CSS and JS inlined (one round trip), and
a Content-Security-Policy that lets nothing else load (no CDN, no font, no other site); the
refusal pages (no token, a limit reached) in the same style; the icon, inline."""

from __future__ import annotations

import base64
import hashlib
import html
from importlib import resources
from urllib.parse import quote

from adjudicator.phone.limits import FULL, TOO_MANY_HERE

# What a phone without the current token is told (403), whatever it asked for.
FORBIDDEN_TITLE = "This word judge needs the current link"
FORBIDDEN_TEXT = (
    ("Ask the tournament director for the current QR code, then scan it again (or open the "
     "link it gives)."),
    ("The link changes when the director makes a new one, each round for example: an old QR "
     "code, link or bookmark no longer opens the judge."),
)
LIMIT_TITLE = "Not now"


def _read(name: str) -> str:
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


class Page:
    """The built page, the refusal pages, the icon and the headers that go with them."""

    def __init__(self) -> None:
        css, js = _read("phone.css"), _read("phone.js")
        self.icon = _read("icon.svg").strip().encode()
        # A data: address, so no browser asks for /favicon.ico (and none travels the network).
        icon_url = "data:image/svg+xml," + quote(self.icon.decode(), safe="")
        html_page = _read("index.html").replace("/*ICON*/", icon_url)
        self.body = html_page.replace("/*CSS*/", css).replace("/*JS*/", js).encode()
        self._notice = _read("notice.html").replace("/*ICON*/", icon_url).replace("/*CSS*/", css)
        self.forbidden = self.notice(FORBIDDEN_TITLE, FORBIDDEN_TEXT)
        self.refusals = {reason: self.notice(LIMIT_TITLE, (reason,))
                         for reason in (FULL, TOO_MANY_HERE)}
        self.csp = ("default-src 'none'; connect-src 'self'; img-src 'self' data:; "
                    f"style-src {_hash(css)}; script-src {_hash(js)}; base-uri 'none'; "
                    "form-action 'none'; frame-ancestors 'none'")
        self.notice_csp = (f"default-src 'none'; img-src data:; style-src {_hash(css)}; "
                           "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

    def notice(self, title: str, paragraphs) -> bytes:
        """A page of its own in the phone page's style: TITLE and PARAGRAPHS, no script."""
        text = "".join(f'<p class="notice-text">{html.escape(p, quote=False)}</p>'
                       for p in paragraphs)
        return (self._notice.replace("{{title}}", html.escape(title, quote=False))
                .replace("{{text}}", text).encode())
