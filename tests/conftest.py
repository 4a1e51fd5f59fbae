"""Shared fixtures: tiny lexicons built inside the tests, and where the real lists are."""

from __future__ import annotations

import ssl
import urllib.request

import pytest
from hypothesis import settings

from adjudicator.lexicon.names import claim_of_name
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import FORMAT_VERSION, Lexicon, fingerprint_words

# No per-example time limit: CI runs 4 workers on 2 cores, and a property test once failed there
# only because one example took longer than Hypothesis's 200 ms default (the examples and their
# checks are unchanged; a test that sets its own deadline keeps it)
settings.register_profile("adjudicator", deadline=None)
settings.load_profile("adjudicator")

# A test's own probes of a hub (urllib.request.urlopen of hub.url: its join, its lists, the
# director's routes) take the hub's self-made certificate unchecked; the stations' link never
# uses this opener (link/deadline.py builds its own, pinned: tests/hub/test_tls.py).
urllib.request.install_opener(urllib.request.build_opener(
    urllib.request.HTTPSHandler(context=ssl._create_unverified_context())))


@pytest.fixture
def make_lexicon(tmp_path):
    """Build a compiled lexicon from a few words: make_lexicon(["QI", "ZA"], name="TINY")."""
    counter = iter(range(10_000))

    def make(words, name: str = "TINY") -> Lexicon:
        n = next(counter)
        src = tmp_path / f"{name.lower()}-{n}.txt"
        src.write_text("\n".join(words) + "\n")
        out = tmp_path / f"{name.lower()}-{n}.lex"
        if claim_of_name(name, "") is not None:
            # a tiny list labelled CSW24 for the rows a hub shows: no path of the program makes
            # one any more (issue 29), so the object is built by hand, never loaded from a file
            import marisa_trie

            header = {"format": FORMAT_VERSION, "name": name, "word_count": len(set(words)),
                      "fingerprint": fingerprint_words(set(words)), "sources": []}
            return Lexicon(str(out), header, marisa_trie.Trie(words))
        compile_sources([str(src)], str(out), name=name)
        return Lexicon.load(str(out))

    return make


@pytest.fixture
def run():
    """The CLI in-process: run("judge", "qi", input=...) -> click's Result (errors not caught)."""
    from click.testing import CliRunner

    from adjudicator.cli import main

    runner = CliRunner()
    return lambda *args, input=None: runner.invoke(main, list(args), input=input,
                                                   catch_exceptions=False)


@pytest.fixture
def tiny(tmp_path):
    """A four-word source list: QI ZA CAT XU (kiosk/ and test_verdict have a compiled `tiny`)."""
    path = tmp_path / "tiny.txt"
    path.write_text("QI\nZA\nCAT\nXU\n")
    return str(path)


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path, monkeypatch):
    """Keep caches, config and journals of every test inside its own tmp folder."""
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("ADJUDICATOR_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("ADJUDICATOR_JOURNAL", str(tmp_path / "journal.db"))
    monkeypatch.setenv("ADJUDICATOR_SHELF", str(tmp_path / "shelf"))  # never the real home
    monkeypatch.delenv("ADJUDICATOR_LEXICONS", raising=False)


# The fast lane: `python -m pytest -m "not slow"` leaves out every test marked here, by what it
# drives rather than by a mark in its file (no test file carries one): a browser (the phone page,
# the director's page, in any engine), a kiosk on a pseudo-terminal (pty_driver.PtyApp), or a
# run measured at more than a few seconds on its own (LONG). The full suite, what CI runs, is all
# of them. Each kind has its own marker too: `-m browser`, `-m pty`, `-m long`.
BROWSER_FIXTURES = {"browser", "engine"}  # web_helpers.browser (chromium), engines.engine (three)
BROWSER = {  # tests that start an engine themselves, without those fixtures
    ("tests/web/test_phone_verdict_engines.py::"
     "test_at_200_percent_every_button_and_the_whole_word_are_on_screen"),
}
LONG = {  # a file (every test in it) or one test; each took seconds alone, under load, in 2026-11
    # the hub, its stations and their links as processes: faults, kills, restarts, crowds
    "tests/hub/test_crowds.py",
    "tests/hub/test_deadlines.py",
    "tests/hub/test_event_real.py",
    "tests/hub/test_event_two_lists.py",
    "tests/hub/test_faults.py",
    "tests/hub/test_hall_crowding.py",
    "tests/hub/test_judge_follows.py",
    "tests/hub/test_link_faults.py",
    "tests/hub/test_rename.py",
    "tests/hub/test_restart.py",
    "tests/hub/test_slow_clients.py",
    "tests/hub/test_tsh.py",
    "tests/hub/test_tsh_hostile.py",
    "tests/hub/test_tsh_real.py",
    "tests/hub/test_waiting.py",
    # the journal under kills, lost files and locks held by other processes
    "tests/journal/test_journal_contention.py",
    "tests/journal/test_journal_crash.py",  # 43-59 s: a kill campaign against a station
    "tests/journal/test_journal_loss_scenarios.py",
    ("tests/journal/test_journal_pipe.py::"
     "test_a_verdict_read_from_the_pipe_is_in_the_journal_even_after_kill_9"),
    # whole Textual screens driven key by key at several sizes
    "tests/docket/test_docket_runner_kiosk.py",
    "tests/docket/test_docket_runner_unprinted.py",
    "tests/kiosk/test_kiosk_bigtext.py",
    "tests/kiosk/test_kiosk_director.py",
    "tests/kiosk/test_kiosk_director_lists.py",
    "tests/kiosk/test_kiosk_divisions.py",
    "tests/kiosk/test_kiosk_double_submit.py",
    "tests/kiosk/test_kiosk_every_screen.py",
    "tests/kiosk/test_kiosk_flow.py",
    "tests/kiosk/test_kiosk_focus_keys.py",
    "tests/kiosk/test_kiosk_follow.py",
    "tests/kiosk/test_kiosk_follow_divisions.py",
    "tests/kiosk/test_kiosk_lockdown.py",  # a click at every cell of a grid
    "tests/kiosk/test_kiosk_snapshots.py",  # 43 screens compared with their accepted pictures
    "tests/kiosk/test_kiosk_verdict_keys.py",
    "tests/kiosk/test_kiosk_config.py::test_kiosk_refuses_to_start_on_invalid_config",
    ("tests/kiosk/test_kiosk_locked_journal.py::"
     "test_a_locked_journal_says_recording_then_not_recorded_with_no_verdict"),
    "tests/kiosk/test_kiosk_terminal.py::test_however_the_reads_cut_the_input_it_splits_the_same",
    # mypy over the tree for three systems; the real lists, read whole and mutated
    "tests/test_platforms.py",
    "tests/test_readers_mutants.py",
    "tests/test_readers_real.py",
    "tests/test_real_lists.py",
    "tests/test_lexicon_scan.py::test_scan_names_the_official_list_of_a_real_zyzzyva_install",
    ("tests/test_readers_checks.py::"
     "test_a_database_whose_words_are_computed_huge_is_refused_in_bounded_memory"),
    # every command as a process against closed, full and unwritable outputs; big inputs
    "tests/test_cli_exits.py::test_every_command_with_its_output_closed_full_or_unwritable",
    "tests/test_cli_exits.py::test_the_output_test_runs_every_command",
    ("tests/test_batch_lines.py::"
     "test_a_100_mb_line_is_invalid_in_flat_memory_and_the_next_lines_are_judged"),
    "tests/test_batch_lines.py::test_a_line_too_long_to_be_a_play_is_held_by_its_start_only",
    "tests/test_batch_blocks.py::test_any_lines_any_separators",
    "tests/test_cli.py::test_batch_matches_a_plain_line_splitter_and_a_plain_set",
    "tests/test_launch.py::test_a_child_that_dies_says_why_in_the_log_and_never_on_the_terminal",
    "tests/test_launch.py::test_a_line_taken_without_click_means_what_click_would_make_of_it",
    ("tests/test_launch.py::"
     "test_the_supervisor_imports_the_kiosk_once_and_runs_no_thread_when_it_forks"),
    "tests/test_cli_exits.py::test_ctrl_c_exits_130_not_an_io_code",
    "tests/test_cli_exits.py::test_a_closed_pipe_ends_quietly_never_with_1",
    "tests/test_cli_paths.py::test_a_journal_whose_folder_is_not_there_is_refused_not_made",
    "tests/test_lexicon_in_memory.py::test_judge_batch_whole_process_keeps_its_verdicts",
    "tests/test_default_lexicon.py::test_shipped_file_equals_a_fresh_compile",
    "tests/test_readers.py::test_fuzzed_tiny_files_read_or_are_refused",
    "tests/journal/test_journal_chain.py::test_canonical_is_exactly_the_documented_json",
    "tests/kiosk/test_kiosk_pin.py::test_gate_locks_after_five_wrong_tries_for_sixty_seconds",
    "tests/hub/test_odd_peers.py::test_hub_toml_keeps_its_size_across_saves",
    "tests/journal/test_journal_streaming.py",  # exports and merges in bounded memory
    ("tests/journal/test_journal_failures.py::"
     "test_cli_judge_shows_the_verdict_even_when_the_journal_is_locked"),
    # a hub and its stations as processes
    "tests/docs/test_event_walk.py",  # docs/event.md walked: a hub, stations, phones, the end
    "tests/docs/test_hub_outputs.py::test_hub_md_start_commands_take_their_options",
    ("tests/docs/test_hub_outputs.py::"
     "test_a_hub_without_an_event_prints_what_hub_md_shows_and_a_hub_made_anew_is_refused"),
    "tests/hub/test_hub_cli.py",
    "tests/hub/test_follow.py",
    "tests/hub/test_forwarding.py",
    "tests/hub/test_event_inside.py",
    "tests/hub/test_accept_once.py",
    "tests/hub/test_odd_tables.py::test_a_division_table_is_what_it_was",
    "tests/hub/test_phone_retry.py",
    "tests/web/test_phone_server.py",
    "tests/web/test_serve_access.py::test_rotating_the_token_locks_out_old_links_without_a_restart",
    ("tests/web/test_serve_access.py::"
     "test_a_websocket_from_another_site_is_refused_even_with_the_token"),
}


def _kinds(item) -> list[str]:
    kinds = []
    path, test = item.nodeid.split("::")[0], item.nodeid.split("[")[0]
    if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())) or test in BROWSER:
        kinds.append("browser")
    module = getattr(item, "module", None)
    code = getattr(getattr(item, "function", None), "__code__", None)
    if (module is not None and hasattr(module, "PtyApp")) or (
            code is not None and "PtyApp" in code.co_varnames):
        kinds.append("pty")
    if path in LONG or test in LONG:
        kinds.append("long")
    return kinds


def pytest_collection_modifyitems(config, items):
    for item in items:
        kinds = _kinds(item)
        for kind in kinds:
            item.add_marker(kind)
        if kinds:
            item.add_marker("slow")
