"""Fixtures for the browser tests: a tiny-lexicon config, the phone server, Debian's chromium."""

from __future__ import annotations

import os

import pytest
from web_helpers import PHONE, PHONE_DPR, REPO, WORDS, ServeProcess, browser  # noqa: F401

from adjudicator.lexicon.compile import compile_sources

@pytest.fixture
def tiny_config(tmp_path):
    """A tiny lexicon and a journal in tmp; long timers so no verdict clears mid-test."""
    src = tmp_path / "tiny.txt"
    src.write_text("\n".join(WORDS) + "\n")
    lex = tmp_path / "tiny.lex"
    compile_sources([str(src)], str(lex), name="TINY")
    config = tmp_path / "event.toml"
    config.write_text(
        'event = "Web Test Open"\n'
        'station = "Phones"\n'
        f'lexicon = "{lex}"\n'
        f'journal = "{tmp_path / "journal.db"}"\n'
        'challenge_rule = "5-per-word"\n'
        "[timers]\n"
        "entry_idle = 300\n"
        "verdict_hold = 1\n"
        "verdict_clear = 300\n"
    )
    return config


@pytest.fixture
def enable_config(tiny_config):
    """The shipped ENABLE list: its lexicon line and its warning are the longest a verdict shows."""
    text = tiny_config.read_text()
    tiny_config.write_text("\n".join(line for line in text.splitlines()
                                     if not line.startswith("lexicon =")) + "\n")
    return tiny_config


@pytest.fixture
def divisions_config(tiny_config):
    """Two divisions on two tiny lists: every page names its division (the line under test)."""
    folder = tiny_config.parent
    for name, extra in (("ONE", []), ("TWO", ["ZO"])):  # two lists, not one list twice
        (folder / f"{name}.txt").write_text("\n".join(WORDS + extra) + "\n")
        compile_sources([str(folder / f"{name}.txt")], str(folder / f"{name}.lex"), name=name)
    tiny_config.write_text(
        f'event = "Club Open 2026"\nstation = "Phones"\nlexicon_dirs = ["{folder}"]\n'
        f'journal = "{folder / "journal.db"}"\n'
        "[timers]\nverdict_hold = 1\nverdict_clear = 300\nentry_idle = 300\n"
        '[[division]]\nname = "A"\nlexicon = "ONE"\ntables = "1-20"\n'
        'challenge_rule = "5-per-word"\n'
        '[[division]]\nname = "B"\nlexicon = "TWO"\ntables = "21-40"\nchallenge_rule = "double"\n')
    return tiny_config


@pytest.fixture
def start_server(tiny_config):
    """start_server(*args) -> `adjudicator serve --port 0 --config <tiny> ARGS` on 127.0.0.1;
    every server started is stopped after the test."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.pop("ADJUDICATOR_JOURNAL", None)  # the config names the journal
    started: list[ServeProcess] = []

    def start(*args: str) -> ServeProcess:
        started.append(ServeProcess(tiny_config, env, args))
        return started[-1]

    try:
        yield start
    finally:
        for proc in started:
            proc.stop()


@pytest.fixture
def server(start_server):
    """The server most tests use: default options."""
    return start_server()


@pytest.fixture
def new_device(browser):
    """new_device(viewport, dpr, touch) -> a fresh page in a context of its own (cookies too)."""
    contexts = []

    def make(viewport=PHONE, device_scale_factor=PHONE_DPR, has_touch=True, is_mobile=True):
        context = browser.new_context(viewport=viewport, device_scale_factor=device_scale_factor,
                                      has_touch=has_touch, is_mobile=is_mobile)
        context.set_default_timeout(20_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        try:
            context.close()
        except Exception:  # noqa: BLE001 - already closed by the test
            pass
