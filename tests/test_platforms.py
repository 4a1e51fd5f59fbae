"""Windows and macOS, checked on Linux (issue 35): nothing a platform lacks is used without a
`sys.platform` guard in adjudicator/ and kiosk/, and no module imports a POSIX-only module at
its top level outside one.

mypy knows, through typeshed, what each platform's os, signal, select, fcntl, termios and
resource hold. Run with `--platform win32` and `--platform darwin`, every error it gives that
the same run with `--platform linux` does not give is a name the platform lacks, used where
nothing guards it (a `sys.platform` test mypy understands). Other type errors are the same on
every platform and are not counted here.
"""

from __future__ import annotations

import ast
import os
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("adjudicator", "kiosk")
POSIX_ONLY = {"fcntl", "termios", "resource", "pty", "tty", "grp", "pwd"}
# Errors for a platform that are known and left to another change, keyed by file and message
# (never by line): none.
KNOWN: set[tuple[str, str]] = set()
ERROR = re.compile(r"(?P<file>[^:]+):(?P<line>\d+): error: (?P<message>.*?)(  \[[a-z-]+\])?$")


def mypy_errors(platform: str, cache: Path) -> set[tuple[str, str, str]]:
    """(file, line, message) of every error mypy gives for PLATFORM over the packages."""
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--platform", platform, "--ignore-missing-imports",
         "--no-error-summary", "--hide-error-context", "--show-error-codes",
         "--no-color-output", "--cache-dir", str(cache / platform), *PACKAGES],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode in (0, 1), out.stderr or out.stdout  # 2: mypy itself failed
    errors = set()
    for line in out.stdout.splitlines():
        found = ERROR.match(line)
        if found:
            errors.add((found["file"].replace("\\", "/"), found["line"], found["message"]))
    return errors


@pytest.fixture(scope="module")
def linux_errors(tmp_path_factory):
    pytest.importorskip("mypy", reason="mypy is in the test extras: pip install -e '.[test]'")
    return mypy_errors("linux", tmp_path_factory.mktemp("mypy"))


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_nothing_a_platform_lacks_is_used_without_a_guard(platform, linux_errors,
                                                          tmp_path_factory):
    """Issue 35: `mypy --platform win32` found 78 such uses in 10 modules, `--platform darwin`
    3 (os.waitid, os.pidfd_open, signal.SIGRTMAX in the kiosk's supervisor)."""
    errors = mypy_errors(platform, tmp_path_factory.mktemp("mypy")) - linux_errors
    missing = sorted(f"{file}:{line}: {message}" for file, line, message in errors
                     if (file, message) not in KNOWN)
    assert not missing, f"{platform} lacks these, used without a sys.platform guard:\n" + \
        "\n".join(missing)


def test_the_comparison_finds_an_unguarded_name(tmp_path):
    """The check above can fail: a module using os.fork and signal.SIGHUP unguarded gives
    errors for win32 that linux does not give; behind a guard it gives none."""
    pytest.importorskip("mypy", reason="mypy is in the test extras")
    bare = "import os\nimport signal\n\ndef f() -> int:\n    return os.fork() + signal.SIGHUP\n"
    guarded = ("import os\nimport signal\nimport sys\n\ndef f() -> int:\n"
               "    if sys.platform == 'win32':\n        return 0\n"
               "    else:\n        return os.fork() + signal.SIGHUP\n")
    found = {}
    for name, text in (("bare", bare), ("guarded", guarded)):
        (tmp_path / f"{name}.py").write_text(text)
        runs = {}
        for platform in ("linux", "win32"):
            out = subprocess.run(
                [sys.executable, "-m", "mypy", "--platform", platform, "--no-error-summary",
                 "--cache-dir", str(tmp_path / "cache" / platform), f"{name}.py"],
                cwd=tmp_path, capture_output=True, text=True, timeout=300)
            runs[platform] = set(out.stdout.splitlines())
        found[name] = runs["win32"] - runs["linux"]
    assert any('no attribute "fork"' in e for e in found["bare"]), found
    assert any('no attribute "SIGHUP"' in e for e in found["bare"]), found
    assert found["guarded"] == set()


def _is_platform_test(node: ast.expr) -> bool:
    """True for a test that names sys.platform (sys.platform == ..., != ..., .startswith(...),
    and such tests joined with and/or/not)."""
    return any(isinstance(n, ast.Attribute) and n.attr == "platform"
               and isinstance(n.value, ast.Name) and n.value.id == "sys"
               for n in ast.walk(node))


def unguarded_imports(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, module) of each import of a POSIX-only module among the module's top-level
    statements (including inside try, with and if blocks) that no `if sys.platform` holds."""
    found: list[tuple[int, str]] = []

    def walk(statements: list[ast.stmt], guarded: bool) -> None:
        for node in statements:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue  # imported when called: not at import time
            if isinstance(node, ast.Import):
                names = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [(node.module or "").split(".")[0]] if not node.level else []
            else:
                names = []
            found.extend((node.lineno, name) for name in names
                         if name in POSIX_ONLY and not guarded)
            if isinstance(node, ast.If):
                inner = guarded or _is_platform_test(node.test)
                walk(node.body, inner)
                walk(node.orelse, inner)
            elif isinstance(node, ast.Try):
                for block in (node.body, node.orelse, node.finalbody,
                              *(h.body for h in node.handlers)):
                    walk(block, guarded)
            elif isinstance(node, (ast.With, ast.For, ast.While)):
                walk(node.body, guarded)
                walk(getattr(node, "orelse", []), guarded)

    walk(tree.body, False)
    return found


def test_no_posix_only_module_is_imported_at_the_top_without_a_guard():
    """fcntl, termios, resource, pty, tty, grp and pwd are not on Windows: a module importing
    one at its top level, outside an `if sys.platform` block, cannot even be imported there
    (net/guard.py did: `adjudicator hub` and `serve` could not start)."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            found += [f"{path.relative_to(ROOT)}:{line}: import {name}"
                      for line, name in unguarded_imports(tree)]
    assert not found, "\n".join(found)


def test_the_import_walk_sees_what_it_must():
    """An import at the top, in a try block, or guarded by something else than sys.platform is
    found; one under `if sys.platform ...` (or its else) or inside a function is not."""
    text = ("import fcntl\n"
            "try:\n    import termios\nexcept ImportError:\n    termios = None\n"
            "if HAVE_PTY:\n    import pty\n"
            "from grp import getgrnam\n"
            "import os.path, tty\n"
            "if sys.platform != 'win32':\n    import resource\nelse:\n    import msvcrt\n"
            "if sys.platform == 'win32':\n    pass\nelse:\n    import pwd\n"
            "def f():\n    import pwd\n")
    assert unguarded_imports(ast.parse(text)) == [
        (1, "fcntl"), (3, "termios"), (7, "pty"), (8, "grp"), (9, "tty")]


# Python as Windows would have it, as far as a Linux process can be: every library outside the
# project imported first (as this system has them), then sys.platform is "win32", the POSIX-only
# modules cannot be imported, and the few names Windows has and Linux lacks exist. The project's
# modules are then imported afresh, each taking its Windows path.
AS_ON_WINDOWS = '''
import importlib, os, signal, sys
import asyncio, subprocess, ctypes, ctypes.wintypes, selectors, mmap, sqlite3, socket, logging
import aiohttp.web, click.testing, platformdirs, serial, serial.urlhandler.protocol_socket
import textual.app, marisa_trie, tomlkit, segno, pyfiglet, rich
for name in ("fcntl", "termios", "resource", "pty", "tty", "grp", "pwd"):
    sys.modules[name] = None  # an import of it fails, as on Windows
for name in [m for m in sys.modules if m.split(".")[0] in ("adjudicator", "kiosk")]:
    del sys.modules[name]
sys.platform = "win32"
signal.SIGBREAK = signal.SIGTTIN  # a number no test here sends
os.O_BINARY, os.O_NOINHERIT = 0, 0
'''


def as_on_windows(code: str, tmp_path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), ADJUDICATOR_CACHE=str(tmp_path))
    return subprocess.run([sys.executable, "-c", AS_ON_WINDOWS + code], capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=120,
                          stdin=subprocess.DEVNULL)


def test_the_commands_import_and_run_as_on_windows(tmp_path):
    """Issue 35: `hub` and `serve` could not even start on Windows (net/guard.py imported
    fcntl, resource and termios). Every command's module imports with the POSIX-only modules
    gone and sys.platform "win32"; judge, journal, lexicon and printer run; the hub starts and
    stops on Ctrl-C; the fork supervisor is never imported there (it refuses)."""
    out = as_on_windows(textwrap.dedent(f'''
        names = ["adjudicator.command", "adjudicator.launch", "adjudicator.supervisor.spawned",
                 "adjudicator.supervisor.winconsole", "kiosk.app", "adjudicator.hub.run",
                 "adjudicator.phone.run", "adjudicator.docket"] + [
                 "adjudicator.cli." + c for c in ("hub", "serve", "join", "judge", "lexicons",
                                                  "journal", "printer", "kiosk")]
        for name in names:
            importlib.import_module(name)
        try:
            importlib.import_module("adjudicator.supervisor.forked")
        except ImportError as e:
            print("supervise:", e)
        from adjudicator.cli import main
        journal = {str(tmp_path / "j.db")!r}
        for args in (["judge", "cat", "xu"], ["judge", "--journal", journal, "za"],
                     ["journal", "verify", journal], ["printer", "status", "/dev/usb/lp0"]):
            done = click.testing.CliRunner().invoke(main, args)
            print(args[0], done.exit_code, done.output.splitlines()[-1])
        from adjudicator.hub.run import serve
        got = asyncio.run(serve(journal + ".hub", "127.0.0.1", 0,
                                ready=lambda hub, port: os.kill(os.getpid(), signal.SIGINT)))
        print("hub stopped by", got)
    '''), tmp_path)
    lines = out.stdout.splitlines()
    assert lines[0] == ("supervise: adjudicator.supervisor.forked forks its kiosk child: on Windows, "
                        "adjudicator.supervisor.spawned"), out.stderr
    assert lines[1:4] == ["judge 0 ACCEPTABLE", "judge 1 UNACCEPTABLE",
                          f"journal 0 {tmp_path / 'j.db'}: intact, 1 challenge, head "
                          + lines[3].rsplit(" ", 1)[-1]], out.stderr
    assert lines[4].startswith("printer 7 adjudicator: printer not answering: /dev/usb/lp0 is a "
                               "Linux printer device path, not one Windows has")
    assert lines[5] == f"hub stopped by {int(signal.SIGINT)}" and len(lines) == 6, out.stderr


def test_the_kiosk_app_runs_as_on_windows(tmp_path):
    """The app's own run (kiosk/app.py) takes no POSIX-only path on Windows: Textual's driver
    there is its own (kiosk/terminal.py imports the Linux one: never imported), SIGINT and
    SIGTERM end it, Ctrl-Break (SIGBREAK) is held while it runs and given back after."""
    out = as_on_windows(textwrap.dedent('''
        from kiosk.app import KioskApp
        class Run:
            stop_signal = 0
            _signalled = staticmethod(lambda signum, frame: None)
            def run(self):
                print("held", signal.getsignal(signal.SIGBREAK) == signal.SIG_IGN,
                      "stops", sorted(signal.Signals(s).name for s in
                                      (signal.SIGINT, signal.SIGTERM)
                                      if signal.getsignal(s) is not signal.SIG_DFL
                                      and signal.getsignal(s) is not signal.default_int_handler))
        print("code", KioskApp.run_until_signalled(Run()))
        print("after", signal.getsignal(signal.SIGBREAK) == signal.SIG_IGN,
              "kiosk.terminal" in sys.modules, "textual.drivers.linux_driver" in sys.modules)
    '''), tmp_path)
    assert out.stdout.splitlines() == ["held True stops ['SIGINT', 'SIGTERM']", "code 0",
                                       "after False False False"], out.stderr
