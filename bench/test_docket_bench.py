"""A slip at the printer after its verdict (issue 28, item 2): the runner's desk judges, records
and queues the slip (station service + print desk + print queue, as the kiosk does); the time is
from the verdict (judge() returned, the row committed) to the slip's last byte (the cut) at the
device. The USB printer-class transport (lpdev.py, against tests/docket/fake_lp.py's device on a
socketpair) against the serial path (pyserial on tests/docket/fake_printer.py's pty), measured in
the same run, slips interleaved. Both printers answer DLE EOT 1-4 before each slip.

Slips: ADJUDICATOR_BENCH_SLIPS (default 100 each).
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "docket"))

from benchutil import report  # noqa: E402
from fake_lp import PATH, FakeLpDevice  # noqa: E402
from fake_printer import FakePrinter  # noqa: E402

from adjudicator.config.station import Config, PrinterSettings  # noqa: E402
from adjudicator.docket import lpdev  # noqa: E402
from adjudicator.docket.encoder import CUT  # noqa: E402
from adjudicator.lexicon.compile import compile_sources
from adjudicator.lexicon.compiled import Lexicon  # noqa: E402
from adjudicator.station.printdesk import PrintDesk  # noqa: E402
from adjudicator.station.service import open_station  # noqa: E402

SLIPS = int(os.environ.get("ADJUDICATOR_BENCH_SLIPS", "100"))
GOAL_MS = 50.0


class Timed(FakePrinter):
    """A fake printer that notes when a slip's cut arrives."""

    def __init__(self, *args, **kwargs):
        self.cut_at: float | None = None
        self.cut = threading.Event()
        super().__init__(*args, **kwargs)

    def _triggers(self) -> bool:
        if self.cut_at is None and self.data.endswith(CUT):
            self.cut_at = time.perf_counter()
            self.cut.set()
        return super()._triggers()


def desk(tmp_path, name: str, url: str, lexicon):
    config = replace(Config(station=f"Runner {name}", mode="runner",
                            journal=str(tmp_path / f"{name}.db")),
                     printer=PrinterSettings(url=url, baudrate=115200, write_timeout=2.0,
                                             columns=42))
    station = open_station(config, lexicon, link="none")
    return station, PrintDesk(station)


def one_slip(station, print_desk, printer: Timed) -> float:
    """Milliseconds from the verdict to the cut at the printer."""
    printer.take()
    printer.cut_at = None
    printer.cut.clear()
    outcome = station.judge(("QI", "ZA"), table="7")
    verdict_at = time.perf_counter()
    print_desk.print_outcome(outcome)
    assert printer.cut.wait(10), "the slip never reached the printer"
    return (printer.cut_at - verdict_at) * 1000


def test_slip_at_a_usb_printer_device_after_the_verdict(tmp_path, monkeypatch):
    words = tmp_path / "words.txt"
    words.write_text("QI\nZA\n")
    compile_sources([str(words)], str(tmp_path / "tiny.lex"))
    lexicon = Lexicon.load(str(tmp_path / "tiny.lex"))

    usb = FakeLpDevice("ok", printer_class=Timed)
    monkeypatch.setattr(lpdev, "OPS", usb)
    serial_printer = Timed("ok")
    usb_desk = desk(tmp_path, "usb", PATH, lexicon)
    serial_desk = desk(tmp_path, "serial", serial_printer.path, lexicon)
    times = {"usb": [], "serial": []}
    try:
        for _ in range(SLIPS):  # interleaved: the machine's load falls on both alike
            times["usb"].append(one_slip(*usb_desk, usb.printer))
            times["serial"].append(one_slip(*serial_desk, serial_printer))
    finally:
        for station, print_desk in (usb_desk, serial_desk):
            print_desk.close()
            station.close()
        usb.shut()
        serial_printer.close()
    stats = {k: (statistics.median(v), sorted(v)[int(len(v) * 0.95) - 1], max(v))
             for k, v in times.items()}
    (u50, u95, umax), (s50, s95, smax) = stats["usb"], stats["serial"]
    report("slip at a USB printer device",
           f"p50 {u50:.1f} ms, p95 {u95:.1f} ms, max {umax:.1f} ms",
           f"{u50 / s50:.2f}x the serial path's p50 ({s50:.1f} ms; p95 {s95:.1f} ms, max "
           f"{smax:.1f} ms; lower is better); {SLIPS} slips each, goal <= {GOAL_MS:g} ms")
    assert u95 <= GOAL_MS, f"p95 {u95:.1f} ms from the verdict to the slip at the device"
