"""Speed of the touchscreen app under a display (Xvfb will do), printed as a table.

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python benchmarks/app.py

- tap → frame: a mouse press and release on a button of the table screen, handed to Kivy
  where its window loop reads the system's input, until the end of the first frame drawn
  with its result; target one 60 Hz frame, 16.7 ms. The taps are Undo twenty times, back
  through the saved game of 400 actions, then Redo twenty times: each shows another state;
- die roll → frame: a roll handed in on another thread (``Table.enqueue_roll``, as the
  electronic die's reader does) at a random moment of a frame, until the end of the
  first frame that shows it. Each of the 40 rolls comes at another turn's start (the game
  taken back a turn further each time) with another face, so its texts are new;
- cold start and resident memory (RSS): a new process until its first interactive frame
  (the app's start screen, its Resume button working), the app (with a saved game of
  200 actions, left on the table screen, and again left on the history screen) against a bare
  Kivy hello-world started the
  same way in the same run; each as a ratio, target ≤ 1.3;
- the app's start until the first frame of the saved game resumed on the screen it was
  left on (the app does this by itself right after its first frame).

Both start from bytecode, as ``./run`` and the Pi's install leave the code (Kivy's own
modules come compiled in its wheel).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SIZE = (800, 480)
STARTS = int(os.environ.get("STARTS", "5"))
SCREENS = ("table", "history")
"""The screens a resumed game is measured on: the table's own, where a game is played, and the history."""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


# -- in one process: from an input to the next drawn frame ---------------------------------
def until_drawn(began: float, done: Callable[[], bool]) -> float:
    """Run the app's frames (Kivy's ``EventLoop.idle``: clock, input, draw) until a frame is
    drawn once ``done()`` holds; seconds from ``began`` to the end of that frame's buffer swap.

    An ``on_flip`` listener runs before the swap (Kivy calls listeners, then the window's own
    ``on_flip``, which swaps): it only marks that the frame is drawn; the clock stops when
    ``EventLoop.idle`` returns, which it does right after the swap.
    """
    from kivy.base import EventLoop
    from kivy.core.window import Window

    flips: list[float] = []
    handler = lambda *_: flips.append(time.perf_counter())  # noqa: E731
    Window.bind(on_flip=handler)
    try:
        while True:
            flips.clear()
            EventLoop.idle()
            swapped = time.perf_counter()
            if flips and done():
                return swapped - began
            if time.perf_counter() - began > 2:
                raise RuntimeError("no frame showed the change within 2 s")
    finally:
        Window.unbind(on_flip=handler)


def settle(frames: int = 3) -> None:
    from kivy.base import EventLoop

    for _ in range(frames):
        EventLoop.idle()


def back_a_turn(table: Any) -> None:
    """Back to the start of the turn before the one rolled last: undo the roll and the turn's end
    before it, then until the last action is a turn's end again (a roll is legal then)."""
    while table.actions(-1)[0]["type"] != "end_turn":
        table.undo("bench")
    table.undo("bench")
    while table.actions(-1)[0]["type"] != "end_turn":
        table.undo("bench")


def frames_in_process(work: Path) -> list[tuple[str, str]]:
    os.environ.setdefault("KIVY_HOME", str(work / "kivy"))
    from ui import demo, launch

    launch.configure(SIZE)
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.input.providers.mouse import MouseMotionEventProvider

    from ui.app import CompanionApp

    db = work / "games.db"
    game_id = demo.played_game(db, "tozsde", seed=2, players=4, stop_at=400)
    app = CompanionApp(db, settings_path=work / "settings.json")
    app._run_prepare()
    app.pin_declined = True  # no PIN set, and the banker went on without one: Undo needs no pad
    mouse = MouseMotionEventProvider("mouse", "")  # as App.run starts it from the input config
    EventLoop.add_input_provider(mouse)
    mouse.start()
    app.session.resume(game_id)
    app.manager.current = "table"
    settle(10)
    table = app.session.table
    assert table is not None

    def tap(tap_id: str) -> float:
        """A mouse press and release on the widget, handed to Kivy where its window loop reads
        the system's input (after a frame); returns when they were read."""
        widget = next(w for w in app.root.walk(restrict=True) if getattr(w, "tap_id", "") == tap_id)
        x, y = widget.to_window(*widget.center)
        began = time.perf_counter()
        Window.dispatch("on_mouse_down", x, Window.height - y, "left", {})
        Window.dispatch("on_mouse_up", x, Window.height - y, "left", {})
        return began

    taps: list[float] = []
    for i in range(40):
        settle()
        length = table.length
        undo = i < 20
        began = tap("table:undo" if undo else "table:redo")
        taps.append(until_drawn(began, lambda: table.length == (length - 1 if undo else length + 1)))
    rolls: list[float] = []
    applied: list[float] = []  # from the roll sent to its outcome told (applied and journaled)
    told: list[float] = []
    table.subscribe(lambda outcome: told.append(time.perf_counter()))
    phases = random.Random(7)
    for i in range(40):
        back_a_turn(table)
        settle()
        face = i % 6 + 1
        length = table.length
        sent: list[float] = []

        def roll(delay: float) -> None:  # the die's reader: at any moment of a frame
            time.sleep(delay)
            sent.append(time.perf_counter())
            table.enqueue_roll(face, "die")

        sender = threading.Thread(target=roll, args=(phases.uniform(0, 1 / 60),))
        told.clear()
        sender.start()
        until_drawn(time.perf_counter(), lambda: table.length == length + 1)
        flip = time.perf_counter()  # until_drawn returned right after the flip
        sender.join()
        rolls.append(flip - sent[0])
        applied.append(told[-1] - sent[0])
    app.session.close()
    rows = []
    for name, values in (("tap → next frame (undo, redo; table screen)", taps[:]),
                         ("tap on Undo → next frame", taps[:20]),
                         ("tap on Redo → next frame", taps[20:]),
                         ("die roll (enqueue_roll) → applied, journaled and told", applied),
                         ("die roll (enqueue_roll) → next frame, table screen", rolls)):
        values.sort()
        rows.append((f"{name}, median", ms(statistics.median(values))))
        rows.append((f"{name}, p95", ms(values[int(len(values) * 0.95) - 1])))
    return rows


# -- new processes: cold start and memory ---------------------------------------------------
HELLO = """
import os, sys, time
sys.path.insert(0, {root!r})
from ui import launch
launch.configure({size!r})
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.label import Label
from benchmarks.app import report_first_frame

class Hello(App):
    def build(self):
        return Label(text="Hello")
    def on_start(self):
        report_first_frame(self)

Hello().run()
"""

APP = """
import os, sys
sys.path.insert(0, {root!r})
from pathlib import Path
from ui import launch
launch.configure({size!r})
launch.speed_up_start()  # as ui.launch.run
from ui.app import CompanionApp
from benchmarks.app import report_first_frame

class Measured(CompanionApp):
    def on_start(self):
        super().on_start()
        report_first_frame(self, lambda: self.session.table is not None and self.manager.current == {screen!r})

Measured(Path({db!r}), settings_path=Path({settings!r})).run()
"""


def report_first_frame(app: Any, resumed: Callable[[], bool] | None = None) -> None:
    """In the measured process: after the first frame is drawn, print the RSS; with ``resumed``,
    also the end of the first frame drawn once ``resumed()`` holds; then stop."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    # A listener of on_flip runs before the window swaps its buffers: these swap first (and say so,
    # returning True, so the window does not swap again), then take the time and the memory.
    def flipped(*_: Any) -> bool:
        Window.flip()
        rss = next(int(line.split()[1]) for line in Path("/proc/self/status").read_text().splitlines()
                   if line.startswith("VmRSS:"))
        print(f"FIRST_FRAME {rss} {time.process_time()}", flush=True)
        Window.unbind(on_flip=flipped)
        if resumed is not None and resumed():  # the first frame shows the resumed game already
            print(f"RESUMED {time.process_time()}", flush=True)
        if resumed is None or resumed():
            Clock.schedule_once(lambda *_: app.stop(), 0)
        else:
            Window.bind(on_flip=resumed_flip)
        return True

    def resumed_flip(*_: Any) -> bool:
        if resumed is None or not resumed():
            return False
        Window.flip()
        print(f"RESUMED {time.process_time()}", flush=True)
        Window.unbind(on_flip=resumed_flip)
        Clock.schedule_once(lambda *_: app.stop(), 0)
        return True

    Window.bind(on_flip=flipped)


@dataclass(frozen=True)
class Start:
    """One process's start: seconds to its first frame and to the resumed game's (0: none), wall clock and
    the process's CPU time (which a busy machine stretches far less), and the RSS at the first frame (kB)."""

    first: float
    rss: int
    resumed: float = 0.0
    first_cpu: float = 0.0
    resumed_cpu: float = 0.0


def start(code: str, work: Path) -> Start:
    """Start ``code`` in a new process and read what :func:`report_first_frame` prints."""
    # The compiled catalogues in a cache of the run's own: other copies of the code on this machine,
    # with other catalogues, would replace the shared cache's files and make a start compile them again.
    env = {**os.environ, "KIVY_HOME": str(work / "kivy"), "KIVY_NO_CONSOLELOG": "1",
           "COMPANION_CACHE": str(work / "cache")}
    script = work / f"start_{abs(hash(code))}.py"  # a file, not -c: Kivy looks for the app's source
    if not script.exists():
        script.write_text(code)
    began = time.perf_counter()
    process = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=env, text=True, cwd=ROOT)
    assert process.stdout is not None
    first: Start | None = None
    resumed = (0.0, 0.0)
    for line in process.stdout:
        if line.startswith("FIRST_FRAME"):
            _, rss, cpu = line.split()
            first = Start(time.perf_counter() - began, int(rss), first_cpu=float(cpu))
        elif line.startswith("RESUMED"):
            resumed = time.perf_counter() - began, float(line.split()[1])
    process.wait(30)
    if first is None:
        raise RuntimeError("the process ended before its first frame")
    return replace(first, resumed=resumed[0], resumed_cpu=resumed[1])


def starts(work: Path) -> list[tuple[str, str]]:
    from ui import demo

    db = work / "start.db"
    demo.played_game(db, "tozsde", seed=2, players=4, stop_at=200)
    hello = HELLO.format(root=str(ROOT), size=SIZE)
    apps = {}
    for screen in SCREENS:
        settings = work / f"start-settings-{screen}.json"
        apps[screen] = (APP.format(root=str(ROOT), size=SIZE, db=str(db), settings=str(settings), screen=screen),
                        settings)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "companion", "ui", "hardware", "benchmarks"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)

    def app_start(screen: str) -> Start:
        code, settings = apps[screen]
        settings.write_text(json.dumps({"screen": screen}))  # the app writes its settings back as it runs
        return start(code, work)

    start(hello, work), [app_start(screen) for screen in SCREENS]  # warm the file cache: all from the same disk state
    measured: dict[str, list[Start]] = {"hello": [], **{screen: [] for screen in SCREENS}}
    for _ in range(STARTS):  # taking turns, so a change of the machine's load touches each alike
        measured["hello"].append(start(hello, work))
        for screen in SCREENS:
            measured[screen].append(app_start(screen))
    hello_starts = measured["hello"]
    t_hello = statistics.median(s.first for s in hello_starts)
    cpu_hello = statistics.median(s.first_cpu for s in hello_starts)
    m_hello = statistics.median(s.rss for s in hello_starts)
    rows = [(f"cold start to the first frame, hello-world (median of {STARTS})", ms(t_hello)),
            ("its CPU time (the process's, to that frame)", ms(cpu_hello))]
    for screen in SCREENS:
        t_resumed = statistics.median(s.resumed for s in measured[screen])
        cpu_resumed = statistics.median(s.resumed_cpu for s in measured[screen])
        m_app = statistics.median(s.rss for s in measured[screen])
        rows += [
            (f"cold start to the saved game of 200 actions resumed on its screen ({screen}), app "
             f"(median of {STARTS})", ms(t_resumed)),
            (f"cold start to the resumed game ({screen}), app / hello-world (target ≤ 1.3)", f"{t_resumed / t_hello:.2f}"),
            (f"its CPU time ({screen}), app / hello-world", f"{cpu_resumed / cpu_hello:.2f}"),
            (f"RSS at that frame ({screen}), app / hello-world (target ≤ 1.3)", f"{m_app / m_hello:.2f}"),
        ]
    rows.append(("Python; load average (1 min) at the end", f"{sys.version.split()[0]}; {os.getloadavg()[0]:.1f}"))
    return rows


def main() -> int:
    work = Path(tempfile.mkdtemp())
    parts = sys.argv[1:] or ["starts", "frames"]
    rows = (starts(work) if "starts" in parts else []) + (frames_in_process(work) if "frames" in parts else [])
    print("| measure | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
