"""`adjudicator kiosk` started: supervised (children forked or spawned), or as the kiosk child."""

from __future__ import annotations

import sys


# Imported by a kiosk child on its way to the first paint besides kiosk.app's own imports
# (lexicon look-up by name, the child's set-up, what Textual imports as it runs): preloaded too.
# (hashlib: a child checks its lists' checksums and words just after its first paint.)
PRELOADED = ("adjudicator.lexicon.library", "adjudicator.lexicon.store", "ctypes", "faulthandler",
             "hashlib", "textual.layouts.factory", "textual.layouts.horizontal",
             "textual.layouts.stream", "textual.scrollbar", "textual.pilot",
             "textual.drivers.headless_driver")


def run_kiosk(config_path: str | None, mode: str | None, session: str) -> int:
    """Start the locked kiosk full-screen, supervised; its exit code. Errors: AdjudicatorError.

    This process supervises (adjudicator/supervisor/forked.py): it runs the kiosk in a forked child,
    started again on Ready if it ever dies. The first child is forked at once, reads the config
    and imports the kiosk; once it has painted, this process imports the kiosk too, so that each
    later child is forked with everything imported. Windows has no fork: there each child is a
    new process with the kiosk's own command line (adjudicator/supervisor/spawned.py).
    """
    import os

    from adjudicator.supervisor.child import CHILD_ENV, SPAWN_ENV, ChildRun

    spawns = sys.platform == "win32" or bool(os.environ.get(SPAWN_ENV))  # (tests spawn on Linux)
    if os.environ.get(CHILD_ENV):  # the app itself, in this process (a spawned child's too)
        with ChildRun(held=spawns) as child:  # spawned: its output held, its end a code
            child.code = run_app(config_path, mode, session)
        return child.code
    if not spawns:
        from adjudicator.supervisor.forked import Supervisor

        return Supervisor(lambda: run_app(config_path, mode, session),
                          lambda: _checked_config(config_path, mode), prepare=preload_kiosk).run()
    from adjudicator.supervisor.spawned import SpawnSupervisor, child_command

    return SpawnSupervisor(child_command(config_path, mode, session)).run()


def _checked_config(config_path: str | None, mode: str | None, restarted: bool = False):
    """The config, read and its journal's folder checked; nothing is started or shown yet.
    RESTARTED (a child started again after one that ran): a journal gone bad is not refused
    here but said on Ready (the station judges on, NOT RECORDED)."""
    from adjudicator.files.destination import check_journal
    from adjudicator.errors import FileAccessError

    config = _config(config_path, mode)  # ConfigError (exit 6) names the key
    try:
        check_journal(config.journal)  # its folder not there (a drive not mounted): exit 4
    except FileAccessError:
        if not restarted:
            raise
    return config


def _config(config_path: str | None, mode: str | None):
    from adjudicator.config.station import load_config

    config = load_config(config_path)
    return config.with_changes(mode=mode) if mode else config


def preload_kiosk() -> None:
    """In the supervisor, once, after the first child's first paint: import what the kiosk needs
    before its first paint (Textual, the kiosk app, its Ready screen and terminal driver, the
    lexicon and journal modules). Every later child forked from here has them already: a
    restarted child paints at once (issue 21). Nothing is opened or started here."""
    import gc
    import importlib

    gc.disable()  # thousands of objects that live as long as the kiosk: no collection passes
    try:
        import kiosk.app  # noqa: F401 - Textual only here: the core never imports it
        import kiosk.terminal  # noqa: F401

        for name in PRELOADED:
            try:
                importlib.import_module(name)
            except ImportError:  # another Textual's layout of modules: the child imports it
                pass
        from rich.cells import cell_len

        cell_len("✔")  # loads Rich's character-width table (a module picked at run time)
        from adjudicator.supervisor.preload import preload_package

        preload_package()
    finally:
        gc.freeze()  # kept out of every later collection, in here and in each child
        gc.enable()


def run_app(config_path: str | None, mode: str | None, session: str) -> int:
    """The kiosk app itself, to its end (in the supervisor's child): its exit code.

    Each child reads the config file: a restarted kiosk starts with what the director saved.
    A stop signal (TERM, HUP, INT) ends the app as the director's Quit does, with 128 + its
    number.
    """
    import gc

    from adjudicator.supervisor.restarts import EXIT_CRASHED
    from adjudicator.station.service import open_station
    import os

    from adjudicator.supervisor.child import RESTARTED_ENV, child_ready_callback, child_started

    # Start-up builds thousands of objects that live as long as the kiosk: the garbage collector
    # would walk them again and again before the first paint. The app collects once, after it.
    gc.disable()
    try:
        # refused: said before anything is shown; started again after a child that ran, a
        # journal gone bad is said on Ready instead (the station judges on, NOT RECORDED)
        config = _checked_config(config_path, mode, restarted=bool(os.environ.get(RESTARTED_ENV)))
        child_started(config.journal)  # the supervisor learns it; error output to the kiosk log
        station = open_station(config, session=session, defer_journal=True,
                               check_words=False)  # LexiconError: exit 3
        from kiosk.app import KioskApp  # Textual only here: the core never imports it

        app = KioskApp(station)
        app.on_first_paint = child_ready_callback()
        stopped_by = app.run_until_signalled()
    finally:
        gc.enable()
    if stopped_by:
        return 128 + stopped_by
    if app.refused is not None:  # a list whose words are not its header's: as before the paint
        raise app.refused
    if app.return_code:  # Textual reports a crash as 1: UNACCEPTABLE's code, never passed on
        print("adjudicator: the kiosk stopped unexpectedly (see above)", file=sys.stderr)
        return EXIT_CRASHED  # the supervisor starts it again
    return 0
