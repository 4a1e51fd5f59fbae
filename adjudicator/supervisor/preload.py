"""Take every module a kiosk may import into memory, so a reinstalled package is never read."""

from __future__ import annotations


# What a kiosk child never imports: the servers' side (aiohttp) and the click command line.
NOT_PRELOADED = ("cli", "hub", "phone", "net", "__main__")


def preload_package() -> None:
    """Every module of adjudicator and kiosk a kiosk child may import (director mode, printing,
    the journal, the hub link), and the known lists' manifest, taken into the supervisor: a
    child forked later reads none of the package from disk, so reinstalling or removing the
    package while the station runs never stops a restart (issue 27: a restarted child failed
    on "No module named 'adjudicator.journal'" after `pip install` replaced the package)."""
    import importlib
    import pkgutil

    for package in map(importlib.import_module, ("adjudicator", "kiosk")):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + ".",
                                            onerror=lambda _name: None):
            if module.name.split(".")[1] in NOT_PRELOADED:
                continue
            try:
                loaded = importlib.import_module(module.name)
                data = getattr(loaded, "preload_data", None)
                if callable(data):  # files it reads when first used (the kiosk's fonts)
                    data()
            except Exception:  # noqa: BLE001, S112 - one that cannot load: the child says why
                continue
    from adjudicator.lexicon.known import known_lexicons

    known_lexicons()  # lexicons/known.toml, read once: every child identifies lists from it
