"""The director's page is three kinds of file served by the hub (issue 44 item 4): director.html,
director.css, director*.js, same origin, nothing inline; its Content-Security-Policy lets it load
only those and talk only to its hub. Each file is sized for a person to read."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from importlib import resources

import pytest

from adjudicator.hub.page_routes import FILES


def _get(url: str) -> tuple[int, dict, str]:
    try:
        with urllib.request.urlopen(url, timeout=20) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), ""


def test_the_page_and_its_files_are_served_with_nothing_inline(start_hub):
    hub = start_hub()
    status, headers, html = _get(f"{hub.local_url}/?key={hub.hub.director_token}")
    assert status == 200
    csp = headers["Content-Security-Policy"]
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert headers["X-Frame-Options"] == "DENY" and headers["Cache-Control"] == "no-store"
    assert "<style" not in html and not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert not re.search(r"\son[a-z]+=", html) and "style=" not in html
    linked = set(re.findall(r'(?:src|href)="(director[^"]*)"', html))
    assert linked == set(FILES)
    for name, kind in FILES.items():
        status, headers, text = _get(f"{hub.local_url}/{name}")
        assert status == 200 and headers["Content-Type"].startswith(kind), (name, headers)
        assert headers["X-Content-Type-Options"] == "nosniff" and text.strip()
    assert _get(f"{hub.local_url}/director-none.js")[0] == 404
    assert _get(f"{hub.local_url}/?key=wrong")[0] == 403


@pytest.mark.parametrize("name", ["director.html", *FILES])
def test_each_file_of_the_page_is_sensibly_sized(name):
    lines = resources.files("adjudicator.hub").joinpath(name).read_text("utf-8").splitlines()
    assert len(lines) <= 400, (name, len(lines))
    assert max(len(line) for line in lines) <= 110, name
