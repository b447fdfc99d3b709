"""The main thread's own work in the frames that take an action, printed as a table.

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python benchmarks/frame_cpu.py [--profile FILE]

The app's CPU time on its main thread (``time.thread_time``: the load of other processes moves
it far less than the wall clock) from an input until the end of the first frame drawn with
its result, 800×480, the table screen:

- tap: Undo twenty times back through a saved game of 400 actions, then Redo twenty times
  (as ``benchmarks/app.py frames`` taps them);
- roll: forty die rolls, each at a turn's start one further back, handed in as the die's
  reader does (``Table.enqueue_roll``, here on the main thread);
- six players: the first 300 actions of the bots' six-player game
  (``benchmarks/phone_screens.py``'s), each as the screen submits it, then one frame; and the
  frame after it (whatever the action's frame left for the next one).

Each frame's wall clock is printed beside it. ``--profile FILE`` writes cProfile's statistics
of all the measured frames (the three kinds apart: ``FILE.tap``, ``FILE.roll``, ``FILE.six``).
"""

from __future__ import annotations

import cProfile
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
SIZE = (800, 480)
SIX_ACTIONS = int(os.environ.get("SIX_ACTIONS", "300"))


class Frames:
    """The frames measured of one kind: CPU and wall clock (seconds), and an optional profile."""

    def __init__(self, profile: bool) -> None:
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.profile = cProfile.Profile(time.thread_time) if profile else None

    def measure(self, act: Callable[[], Any], done: Callable[[], bool]) -> None:
        """``act()`` then Kivy's frames until one is drawn with ``done()`` true."""
        from kivy.base import EventLoop
        from kivy.core.window import Window

        flips: list[int] = []
        handler = lambda *_: flips.append(1)  # noqa: E731
        Window.bind(on_flip=handler)
        try:
            wall, cpu = time.perf_counter(), time.thread_time()
            if self.profile is not None:
                self.profile.enable()
            act()
            while True:
                flips.clear()
                EventLoop.idle()
                if flips and done():
                    break
                if time.perf_counter() - wall > 2:
                    raise RuntimeError("no frame showed the change within 2 s")
            if self.profile is not None:
                self.profile.disable()
            self.cpu.append(time.thread_time() - cpu)
            self.wall.append(time.perf_counter() - wall)
        finally:
            Window.unbind(on_flip=handler)


def settle(frames: int = 3) -> None:
    from kivy.base import EventLoop

    for _ in range(frames):
        EventLoop.idle()


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


def taps_and_rolls(work: Path, profile: bool) -> tuple[Frames, Frames]:
    from app import back_a_turn
    from ui import demo
    from ui.app import CompanionApp

    db = work / "games.db"
    game_id = demo.played_game(db, "tozsde", seed=2, players=4, stop_at=400)
    app = CompanionApp(db, settings_path=work / "settings.json")
    app._run_prepare()
    app.pin_declined = True
    app.session.resume(game_id)
    app.manager.current = "table"
    settle(10)
    table = app.session.table
    assert table is not None
    screen = app.manager.get_screen("table")
    taps, rolls = Frames(profile), Frames(profile)

    def tap(tap_id: str) -> Callable[[], None]:
        widget = next(w for w in screen.walk(restrict=True) if getattr(w, "tap_id", "") == tap_id)
        return lambda: widget.dispatch("on_release")

    for i in range(40):
        settle()
        length = table.length
        undo = i < 20
        taps.measure(tap("table:undo" if undo else "table:redo"),
                     lambda: table.length == (length - 1 if undo else length + 1))
    for i in range(40):
        back_a_turn(table)
        settle()
        length = table.length
        rolls.measure(lambda: table.enqueue_roll(i % 6 + 1, "die"), lambda: table.length == length + 1)
    app.session.close()
    app.stop()
    return taps, rolls


def six_players(work: Path, profile: bool) -> tuple[Frames, Frames]:
    from kivy.base import EventLoop
    from phone_screens import SETUP, line
    from ui.app import CompanionApp

    app = CompanionApp(work / "six.db", settings_path=work / "six-settings.json")
    app._run_prepare()
    assert app.session.new_game(dict(SETUP), deal=False) is None
    app.manager.current = "table"
    settle(10)
    frames, after = Frames(profile), Frames(False)
    for action in line()[:SIX_ACTIONS]:
        frames.measure(lambda: app.session.act(action, "bench"), lambda: True)
        wall, cpu = time.perf_counter(), time.thread_time()
        EventLoop.idle()  # drawn or not
        after.cpu.append(time.thread_time() - cpu)
        after.wall.append(time.perf_counter() - wall)
    app.session.close()
    return frames, after


def main() -> int:
    profile = sys.argv[1:2] == ["--profile"]
    work = Path(tempfile.mkdtemp())
    os.environ.setdefault("KIVY_HOME", str(work / "kivy"))
    from ui import launch

    launch.configure(SIZE)
    taps, rolls = taps_and_rolls(work, profile)
    six, after = six_players(work, profile)
    print("| frame (main thread) | CPU median | CPU p95 | wall median | wall p95 |\n|---|---:|---:|---:|---:|")
    for name, frames in (("tap (Undo, Redo)", taps), ("die roll", rolls), ("six players, an action", six),
                         ("six players, the frame after an action", after)):
        print(f"| {name} | {statistics.median(frames.cpu) * 1000:.2f} ms | {p95(frames.cpu) * 1000:.2f} ms | "
              f"{statistics.median(frames.wall) * 1000:.2f} ms | {p95(frames.wall) * 1000:.2f} ms |")
    if profile:
        for suffix, frames in (("tap", taps), ("roll", rolls), ("six", six)):
            assert frames.profile is not None
            frames.profile.dump_stats(f"{sys.argv[2]}.{suffix}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
