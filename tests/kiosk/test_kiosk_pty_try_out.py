"""A station with no PIN, through a real pty as a director meets it (issue 27 item 6): Ready
says it is a try-out, F12 opens director mode naming the config the station reads, and
`adjudicator set-pin` on that config is taken at the next F12, without a restart."""

from __future__ import annotations

import subprocess
import sys

from pty_driver import PtyApp, child_env, kiosk_argv, station_config
from pty_screen import Shown

F12, ESCAPE = b"\x1b[24~", b"\x1b"
PIN = "2468"


def test_a_try_out_station_can_be_left_and_locked_while_it_runs(tmp_path):
    config, _journal = station_config(tmp_path)
    env = child_env(ADJUDICATOR_CACHE=str(tmp_path / "cache"))
    app = PtyApp(kiosk_argv(config), env, cols=120, rows=40)
    try:
        shown = Shown(app, cols=120, rows=40)
        shown.wait("not locked: no director PIN")
        app.write(F12)  # no PIN: director mode, not a box saying there is none
        # every line read is waited for: Textual paints a screen in parts, so "DIRECTOR ·" can be
        # on the screen before the lines under it are
        shown.wait("DIRECTOR ·", "set-pin --config", "NOT LOCKED")
        app.write(ESCAPE)
        shown.wait("not locked: no director PIN", absent="DIRECTOR ·")
        done = subprocess.run([sys.executable, "-m", "adjudicator", "set-pin", "--config",
                               config], input=f"{PIN}\n{PIN}\n", text=True, env=env,
                              capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr
        app.write(F12)  # the same station, not restarted: the PIN is asked now
        shown.wait("Enter the director's PIN")
        app.write(PIN.encode() + b"\r")
        shown.wait("DIRECTOR ·", absent="Enter the director's PIN")
        assert not shown.has("NOT LOCKED")
    finally:
        app.close()
