"""The screen's thread while the banker turns phones on and off: the longest frame and its CPU time.

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python benchmarks/phones_on.py [RUNS]

800×480, a game open, a banker PIN set; the phones' dialog open. Each run: the PIN typed and OK
tapped, then frames until the dialog shows the QR code (the web process listening); then the
switch again, the PIN, OK, frames until the phones are off. For each: the longest single frame
(wall clock, and the main thread's CPU time in it, ``time.thread_time``) and the main thread's
CPU time from the tap of OK to the end (the PIN's scrypt, the process's start, the code: where
they run on it, they show in these). The phones listen on a free port (``ui.phones.PORT = 0``).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]
PIN = "2468"


def find(tap_id: str) -> Any:
    from kivy.core.window import Window

    for root in Window.children:
        for widget in root.walk(restrict=True):
            if getattr(widget, "tap_id", None) == tap_id:
                return widget
    raise LookupError(tap_id)


def press(tap_id: str) -> None:
    find(tap_id).dispatch("on_release")


def measured(done: Callable[[], bool], most: float = 60.0) -> tuple[float, float, float]:
    """Tap OK, then frames until ``done()``: the longest frame's wall and CPU seconds, and all the CPU."""
    from kivy.base import EventLoop

    longest = (0.0, 0.0)
    cpu_start = time.thread_time()
    deadline = time.monotonic() + most
    frames = [lambda: press("pad:ok")]
    while True:
        wall, cpu = time.perf_counter(), time.thread_time()
        if frames:
            frames.pop()()
        EventLoop.idle()
        longest = max(longest, (time.perf_counter() - wall, time.thread_time() - cpu))
        if done():
            break
        if time.monotonic() > deadline:
            raise RuntimeError("not done in time")
        time.sleep(0.002)
    return longest[0], longest[1], time.thread_time() - cpu_start


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    from ui import launch

    launch.configure((800, 480))
    from kivy.base import EventLoop

    import ui.phones
    from ui.app import CompanionApp
    from ui.phones import PhonesView

    ui.phones.PORT = 0
    work = Path(tempfile.mkdtemp(prefix="phones-on-"))
    app = CompanionApp(work / "games.db", settings_path=work / "settings.json")
    app._run_prepare()
    app.settings.set_pin(PIN)
    app.session.new_game({"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba"]})
    app.manager.current = "table"
    for _ in range(10):
        EventLoop.idle()
    view = PhonesView()
    view.open()
    on: list[tuple[float, float, float]] = []
    off: list[tuple[float, float, float]] = []
    for _ in range(runs):
        for wanted, out in ((True, on), (False, off)):
            press("phones:toggle")
            EventLoop.idle()
            for digit in PIN:
                press(f"pad:{digit}")
            out.append(measured((lambda: view.qr is not None) if wanted else (lambda: not app.phones.on)))
            for _ in range(5):
                EventLoop.idle()
    app.phones.stop()
    print(f"{'':40} {'median':>9} {'max':>9}")
    for name, rows in (("on", on), ("off", off)):
        for index, what in enumerate(("longest frame, wall", "longest frame, main thread CPU", "OK to done, main thread CPU")):
            values = [row[index] * 1000 for row in rows]
            print(f"{name + ': ' + what:40} {statistics.median(values):8.1f}ms {max(values):8.1f}ms")


if __name__ == "__main__":
    main()
