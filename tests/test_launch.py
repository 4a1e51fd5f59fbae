"""The `adjudicator` entry: a plain kiosk line starts without click, and reads exactly as click would."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.cli.kiosk import kiosk_cmd
from adjudicator.errors import EXIT_CONFIG, EXIT_ENTRY, EXIT_IO, ConfigError
from adjudicator.supervisor.options import KIOSK_OPTIONS, plain_kiosk_args
from adjudicator.supervisor.restarts import EXIT_CRASHED
from adjudicator.supervisor.child import ChildRun

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPTIONS = [option for option, _ in KIOSK_OPTIONS]
TOKENS = OPTIONS + ["station", "runner", "smart-device", "Runner", "a.toml", "table 12", "",
                    "-", "-x", "--help", "-h", "--mode=runner", "--config=c.toml",
                    "--session=", "--sess", "--", "kiosk"]


def click_params(args: list[str]) -> dict | None:
    """What click's kiosk command would be called with, or None when click refuses the line."""
    try:
        with kiosk_cmd.make_context("kiosk", list(args), resilient_parsing=False) as ctx:
            return dict(ctx.params)
    except (click.exceptions.Exit, click.UsageError):
        return None


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=7))
def test_a_line_taken_without_click_means_what_click_would_make_of_it(rest):
    fast = plain_kiosk_args(["kiosk", *rest])
    if fast is not None:
        assert fast == click_params(rest)


@pytest.mark.parametrize("rest", [
    [],
    ["--config", "/etc/adjudicator/station1.toml"],
    ["--config=/etc/station.toml", "--mode", "runner"],
    ["--mode", "smart-device", "--session", "table-12", "--config", "c.toml"],
    ["--session", "phone 3"],
])
def test_the_lines_a_station_boots_with_are_taken_without_click(rest):
    fast = plain_kiosk_args(["kiosk", *rest])
    assert fast is not None and fast == click_params(rest)


@pytest.mark.parametrize("args", [
    [], ["judge", "qi"], ["--version"], ["kiosk", "--help"], ["kiosk", "-h"],
    ["kiosk", "--config"], ["kiosk", "--mode", "bogus"], ["kiosk", "--mode", "Runner"],
    ["kiosk", "--config", "a", "--config", "b"], ["kiosk", "--conf", "a"], ["kiosk", "extra"],
    ["kiosk", "--config", "--mode"], ["kiosk", "--session="],
])
def test_everything_else_is_left_to_click(args):
    assert plain_kiosk_args(args) is None


def _run(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=60)


def test_plain_kiosk_line_never_loads_click_and_keeps_the_exit_codes(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('mode = "x"\n')
    out = _run(
        "import sys\n"
        "from adjudicator.command import main\n"
        "try:\n"
        f"    main(['kiosk', '--config', {str(bad)!r}])\n"
        "except SystemExit as e:\n"
        "    print(e.code, 'click' in sys.modules)\n"
    )
    assert out.stdout.split() == [str(EXIT_CONFIG), "False"], out.stderr
    assert out.stderr.startswith("adjudicator: ") and "key mode" in out.stderr
    assert out.stderr.count("\n") == 1  # one line, as from click's commands


def test_a_mistaken_kiosk_line_gets_clicks_answer(tmp_path):
    out = subprocess.run([sys.executable, "-m", "adjudicator", "kiosk", "--mode", "bogus"],
                         capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=REPO),
                         timeout=60)
    assert out.returncode == EXIT_ENTRY
    assert "Invalid value for '--mode'" in out.stderr and "adjudicator kiosk --help" in out.stderr


def test_the_supervisor_imports_the_kiosk_once_and_runs_no_thread_when_it_forks():
    """Issue 21: each kiosk child is forked from a supervisor that already imported Textual and
    the kiosk (a second interpreter start made the cold start 1.3x a bare Textual app); a fork
    copies no thread, only the locks one might hold, so none may run, and nothing may be open
    that parent and child would share (the journal's SQLite connection, the lexicon's map)."""
    out = _run(
        "import os, sys, threading\n"
        "from adjudicator.launch import preload_kiosk\n"
        "before = sorted(os.listdir('/proc/self/fd'))\n"
        "preload_kiosk()\n"
        "print(threading.active_count(), all(m in sys.modules for m in\n"
        "      ('textual.app', 'kiosk.app', 'kiosk.screens.ready', 'kiosk.terminal',\n"
        "       'adjudicator.lexicon.library', 'marisa_trie')))\n"
        "print(sorted(os.listdir('/proc/self/fd')) == before)\n"
    )
    assert out.stdout.split() == ["1", "True", "True"], out.stderr


def test_the_first_child_is_forked_before_the_imports_and_each_restart_after_them(tmp_path):
    """Issue 21: the first kiosk child is forked at once, reads the config and imports the kiosk
    itself (a child forked from a supervisor holding Textual copied every page it touched: 10
    ms more to its first paint), and tells the supervisor its journal; the supervisor reads no
    config meanwhile. Once it has painted the supervisor imports, and every restarted child is
    forked with that done; a first child that never painted gets it done before the next
    fork. The children here say whether the supervisor had prepared when they were forked."""
    journal = tmp_path / "j.db"
    out = _run(
        "import os, sys\n"
        "from adjudicator.supervisor.forked import EXIT_CRASHED, Supervisor\n"
        "from adjudicator.supervisor.child import child_ready_callback, child_started\n"
        "prepared = []\n"
        f"LOG = {str(tmp_path / 'children')!r}\n"
        "def seen():\n"
        "    return open(LOG).read().split() if os.path.exists(LOG) else []\n"
        "def child():\n"
        "    open(LOG, 'a').write('started ')\n"
        f"    child_started({str(journal)!r})\n"
        "    step = plan[len(seen()) - 1]\n"
        "    print(step, 'prepared' if prepared else 'bare', flush=True)\n"
        "    if step == 'paints':\n"
        "        child_ready_callback()()\n"
        "    return 0 if step == 'last' else EXIT_CRASHED\n"
        "for plan in (['paints', 'last'], ['dies', 'dies', 'last']):\n"
        "    os.path.exists(LOG) and os.remove(LOG)\n"
        "    prepared.clear()\n"
        "    supervisor = Supervisor(child, lambda: print('the supervisor read the config'),\n"
        "                            prepare=lambda: prepared.append(1))\n"
        "    print('exit', supervisor.run(), supervisor.journal_path == "
        f"{str(journal)!r}, flush=True)\n"
    )
    assert out.stdout.split("\n") == [
        "paints bare", "last prepared", "exit 0 True",
        "dies bare", "dies prepared", "last prepared", "exit 0 True", ""], out.stderr


def test_a_config_the_first_child_refuses_is_said_by_the_supervisor_and_nothing_else(tmp_path):
    """The first child reads the config before it shows anything; a mistake in it is one line,
    said by the supervisor once the terminal is its own, with the child's exit code; the child
    goes no further."""
    out = _run(
        "import os\n"
        "from adjudicator.errors import ConfigError\n"
        "from adjudicator.supervisor.forked import Supervisor\n"
        f"MARK = {str(tmp_path / 'went-on')!r}\n"
        "def child():\n"
        "    raise ConfigError('station.toml: key mode: bogus')\n"
        "    open(MARK, 'w').close()\n"
        "print('exit', Supervisor(child).run(), flush=True)\n"
        "print('children left:', open(f'/proc/{os.getpid()}/task/{os.getpid()}/children')"
        ".read().split())\n"
        "print('went on:', os.path.exists(MARK))\n"
    )
    assert out.stdout.splitlines() == ["exit 6", "children left: []", "went on: False"]
    assert out.stderr == "adjudicator: station.toml: key mode: bogus\n"


def test_a_child_that_dies_says_why_in_the_log_and_never_on_the_terminal(tmp_path):
    """A broken install (the kiosk's import fails) once the child has read its config: every
    child's traceback is in the log, none on the terminal, where the supervisor says one line
    after its tries. One that dies before it knew its log (the config module itself broken)
    has its last words shown once, by the supervisor, after its tries."""
    journal = tmp_path / "j.db"
    out = _run(
        "from adjudicator.supervisor.forked import Supervisor\n"
        "from adjudicator.supervisor.child import child_started\n"
        "def child():\n"
        f"    child_started({str(journal)!r})\n"
        "    raise ImportError('test: a broken install')\n"
        "def early():\n"
        "    raise ImportError('test: broken before the config')\n"
        "print(Supervisor(child).run(), Supervisor(early).run())\n"
    )
    log = (tmp_path / "j.db.kiosk.log").read_text()
    assert log.count("ImportError: test: a broken install") == 5
    first, rest = out.stderr.split("\n", 1)
    # no traceback on the terminal; the one line names the real error (issue 27)
    assert "a broken install" not in rest and "Traceback" not in first
    assert first == ("adjudicator: the kiosk could not start (stopped on an error, 5 times in a "
                     "row): ImportError: test: a broken install; see " + str(journal)
                     + ".kiosk.log"), out.stderr
    assert rest.count("ImportError: test: broken before the config") == 2  # above, and the line
    assert rest.rstrip().endswith("5 times in a row): ImportError: test: broken before the "
                                  "config; its last words are above")
    assert out.stdout.split() == ["4", "4"]


def test_an_unheld_child_run_lets_a_refusal_reach_its_caller():
    """The app run unsupervised (CHILD_ENV, no supervisor): its refusal reaches the entry, which
    says it with its exit code (command.py)."""

    with pytest.raises(ConfigError):
        with ChildRun(held=False):
            raise ConfigError("station.toml: key mode: bogus")


@pytest.mark.parametrize("error, code, said", [
    (ConfigError("station.toml: key mode: bogus"), EXIT_CONFIG,
     "adjudicator: station.toml: key mode: bogus"),
    (SystemExit(None), 0, ""),
    (SystemExit("odd"), EXIT_IO, ""),
    (RuntimeError("test: the kiosk died"), EXIT_CRASHED, "RuntimeError: test: the kiosk died"),
])
def test_a_held_child_run_ends_in_a_code_for_its_supervisor(monkeypatch, error, code, said):
    """A spawned child (as a forked one): whatever ends it is an exit code, and what it said is
    held for its supervisor (here: kept, as no supervisor listens), never on the terminal."""

    monkeypatch.setattr(sys, "stderr", sys.stderr)  # put back after the test
    with ChildRun(held=True) as child:
        raise error
    assert child.code == code
    assert said in sys.stderr.getvalue()
