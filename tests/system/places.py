"""Where the appliance's screen draws a widget, found by its tap id: the guest's game laid out again on the host.

The steps tap the guest's touchscreen, and where a button is drawn changes with every change of the
layout; so no place is written down. :func:`find` copies the guest's journal (``companion backup``) and
settings out through the guest agent, and this module, in a process of its own on a virtual X display
of the guest's screen size, opens the same app on them (the same code: the checkout the image was made
of), which resumes the same game on the same screen, and says where each widget named is drawn::

    python -m tests.system.places DB SETTINGS WIDTHxHEIGHT OUT STEP [STEP …]

A step is a tap id (``table:menu``, ``act:end_turn``): its rectangle on the screen is said, then it is
tapped here too (but the last), so that the next step is looked for on what that tap opened. ``=ID``
is said but not tapped here (what the guest does and the host must not: the phones' switch); ``+ID`` is tapped here
only (closing what the guest's last tap closed for it). ``?NAME`` shows NAME's phone asking to join on the host's table
screen, as the guest's shows a phone's ask (the host's phones are off: no web process, no phone asks
there), so that its ``phones:allow`` is found. The answer is one JSON line: for each step said,
its ``rect`` (``[left, top, right, bottom]`` in screen pixels from the top left) and the host's screen
before and after its tap (``before``, ``after``: raw RGB files, rows from the top; no ``after`` where the
host does not tap it). A widget that is not on the screen, lies under a dialog or is scrolled out of its
list fails the run, naming it.

The guest's screen and the host's are drawn by the same code, fonts and software GL, so they agree
pixel for pixel where they show the same (the screens kept tell what the guest should show after a tap).

The copy of the settings has the phones off: the host never starts the phones' web process. Where the
guest has them on, the host's table is laid out as with phones on all the same (``app.phones_on``: the
room the QR code's corner stands in), without the code; the phones' dialog is laid out the same either way.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.system.machine import Appliance

Rect = tuple[int, int, int, int]
"""Left, top, right, bottom in screen pixels from the top left corner."""
JOURNAL = "/var/lib/companion/games.db"
SETTINGS = "/var/lib/companion/settings.json"
COPY = "/var/tmp/companion-places"
"""Where the guest's backup for the host is written (a folder of its own: the backups/ folder is the timer's)."""
DICE_SHOWN = "COMPANION_PLACES_DICE"
"""Set to 1 where the guest has the emulated Bluetooth dice in range: the host's app scans bumble's emulation
of the same dice (:func:`tests.system.ble_dice.dice`), so that its pairing list has their rows too."""
PHONES_SHOWN = "COMPANION_PLACES_PHONES"
"""Set to 1 for the host's app when the guest has phones on: its table is laid out as with phones on."""
PORTS_SHOWN = "COMPANION_PLACES_PORTS"
"""The guest's serial ports (a JSON list), for the host's die dialog: it lists the guest machine's ports, not the
host's (arm64's ``virt`` machine has more than amd64's, and its list scrolls)."""
GUEST_PORTS = ("cd /opt/companion && env PYTHONDONTWRITEBYTECODE=1 KIVY_HOME=/var/tmp/systest-places-kivy KIVY_NO_ARGS=1"
               " KIVY_NO_CONSOLELOG=1 .venv/bin/python -c"
               " 'import json; from ui.screens.hardware import detected_ports; print(json.dumps(detected_ports()))'")
"""The app's own list of the ports, asked in the guest."""
FILL_SECONDS = 15.0
"""How long the host waits for a step's widget that is not on the screen yet (a list filled after a scan)."""
LAYOUT_TIMEOUT = 300.0
"""Seconds for the host's app to start and lay out (the host's cores are shared with QEMU's emulation)."""


@dataclass(frozen=True)
class Place:
    """Where a step's widget is drawn, and the host's screen before and after its tap (raw RGB files)."""

    rect: Rect
    before: Path
    after: Path | None


def centre(rect: Rect) -> tuple[int, int]:
    """The middle of a rectangle: where a finger taps.

    >>> centre((10, 20, 30, 60))
    (20, 40)
    """
    left, top, right, bottom = rect
    return (left + right) // 2, (top + bottom) // 2


def copy_out(box: Appliance, folder: Path) -> tuple[Path, Path, bool]:
    """The guest's journal (a consistent copy, made by the app's own ``backup`` while it runs) and its
    settings, written into ``folder``; the settings with the phones off, and whether the guest has them on."""
    agent = box.machine.agent
    agent.check(f"rm -rf {COPY} && install -d -o companion -g companion -m 0700 {COPY}"
                f" && runuser -u companion -- /opt/companion/.venv/bin/companion --db {JOURNAL} backup --dir {COPY}"
                " --keep 1 >/dev/null")
    journal = folder / "games.db"
    journal.write_bytes(base64.b64decode(agent.check(f"cat {COPY}/* | base64 -w0")))
    agent.check(f"rm -rf {COPY}")
    settings: dict[str, Any] = json.loads(agent.check(f"cat {SETTINGS}"))
    phones = bool(settings.get("phones"))
    settings["phones"] = False
    path = folder / "settings.json"
    path.write_text(json.dumps(settings))
    return journal, path, phones


def find(box: Appliance, *steps: str, dice: bool = False) -> list[Place]:
    """Where the guest's screen draws each step's widget (see the module's docstring for the steps),
    laid out on the host from the guest's journal and settings as they are now; the host's screens
    are kept in the run's folder (``places/<n>/``). ``dice``: the emulated Bluetooth dice are in range
    (:data:`DICE_SHOWN`)."""
    if box.machine.screen == (0, 0):
        box.machine.screendump("places")
    width, height = box.machine.screen
    runs = box.machine.folder / "places"
    runs.mkdir(exist_ok=True)
    out = runs / str(len(list(runs.iterdir())) + 1)
    out.mkdir()
    with tempfile.TemporaryDirectory(prefix="companion-places-") as name:
        folder = Path(name)
        journal, settings, phones = copy_out(box, folder)
        root = Path(__file__).resolve().parents[2]
        env = {**os.environ, "KIVY_HOME": str(folder / "kivy"), "SDL_VIDEODRIVER": "x11", PHONES_SHOWN: "1" if phones else "",
               DICE_SHOWN: "1" if dice else ""}
        if "settings:die" in steps:
            env[PORTS_SHOWN] = box.machine.agent.check(GUEST_PORTS, timeout=120).strip().splitlines()[-1]
        run = subprocess.run(
            ["xvfb-run", "-a", "-s", f"-screen 0 {width}x{height}x24 -nolisten tcp", sys.executable, "-m",
             "tests.system.places", str(journal), str(settings), f"{width}x{height}", str(out), *steps],
            cwd=root, env=env, capture_output=True, text=True, timeout=LAYOUT_TIMEOUT)
    lines = run.stdout.strip().splitlines()
    if run.returncode != 0 or not lines:
        raise AssertionError(f"the layout on the host failed ({run.returncode}) for {steps}:\n"
                             f"{run.stdout[-3000:]}{run.stderr[-3000:]}")
    found = [Place((int(a), int(b), int(c), int(d)), out / step["before"], out / step["after"] if step["after"] else None)
             for step in json.loads(lines[-1]) for a, b, c, d in [step["rect"]]]
    print(f"systest: places of {' '.join(steps)}: {[place.rect for place in found]}")
    return found


# -- the host's side: the app in this process ------------------------------------------------------------
def where(tap_id: str) -> Rect:
    """The rectangle the widget named ``tap_id`` is drawn in, if a finger can reach it there."""
    from kivy.core.window import Window
    from kivy.uix.scrollview import ScrollView

    from tests.ui.support import find as widget_of, visible_ids

    widget = widget_of(tap_id)
    top_root = Window.children[0]
    if widget not in top_root.walk(restrict=True):
        raise AssertionError(f"{tap_id} lies under a dialog; on top are: {visible_ids()}")
    left, bottom = widget.to_window(widget.x, widget.y)
    right, top = widget.to_window(widget.right, widget.top)
    cx, cy = (left + right) / 2, (bottom + top) / 2
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            x0, y0 = parent.to_window(parent.x, parent.y)
            if not (x0 <= cx <= x0 + parent.width and y0 <= cy <= y0 + parent.height):
                raise AssertionError(f"{tap_id} is scrolled out of its list (its middle at {cx:.0f},{cy:.0f})")
        parent = parent.parent
    if not (0 <= cx <= Window.width and 0 <= cy <= Window.height):
        raise AssertionError(f"{tap_id} is off the screen (its middle at {cx:.0f},{cy:.0f})")
    height = Window.height
    return round(left), round(height - top), round(right), round(height - bottom)


def where_once_drawn(tap_id: str) -> Rect:
    """:func:`where`, waiting up to :data:`FILL_SECONDS` for a widget still to come (a list filled by a scan)."""
    from tests.ui.conftest import frames

    deadline = time.monotonic() + FILL_SECONDS
    while True:
        try:
            return where(tap_id)
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            frames(5)


def frame(path: Path) -> None:
    """The window's picture as raw RGB, rows from the top (what QEMU's screendump gives as PPM)."""
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    width, height = Window.size
    data = glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE)
    path.write_bytes(b"".join(data[row * width * 3:(row + 1) * width * 3] for row in reversed(range(height))))


def phones_shown(app: Any, made: float) -> None:
    """The table laid out as with phones on (the corner's room kept), after the phones' own start (off here)."""
    from tests.ui.conftest import frames
    from ui.phones import START_AFTER

    while time.monotonic() < made + START_AFTER + 0.5:
        frames(1)
    app.phones_on = True
    frames(5)


def lay_out(journal: Path, settings: Path, size: tuple[int, int], out: Path, steps: list[str]) -> list[dict[str, Any]]:
    """The app on ``journal`` and ``settings`` in a kiosk's window of ``size``: each step's place, tapped in
    turn, and the screens before and after each tap written into ``out`` (``0.rgb``, ``1.rgb`` …)."""
    from ui import launch

    launch.configure(size, kiosk=True)
    from kivy.core.window import Window

    from ui.app import CompanionApp

    app = CompanionApp(journal, kiosk=True, settings_path=settings)
    if os.environ.get(DICE_SHOWN):
        from hardware.emulated import EmulatedRadio
        from tests.system.ble_dice import dice

        app.ble_transport = EmulatedRadio(*dice().values())
    if os.environ.get(PORTS_SHOWN):
        from ui.screens import hardware

        guest_ports: list[str] = json.loads(os.environ[PORTS_SHOWN])
        hardware.detected_ports = lambda by_id=hardware.BY_ID: list(guest_ports)
    made = time.monotonic()
    app._run_prepare()
    from tests.ui.conftest import frames
    from tests.ui.support import tap
    from phones.hub import new_code

    frames(10)
    if os.environ.get(PHONES_SHOWN):
        phones_shown(app, made)
    if tuple(Window.size) != size:
        raise AssertionError(f"the window is {tuple(Window.size)}, not the guest's {size}")
    shots = 0
    frame(out / "0.rgb")
    places: list[dict[str, Any]] = []
    for number, step in enumerate(steps, 1):
        if step.startswith("?"):  # a phone asks to join, shown as ui.phones shows the web process' ask
            phones_shown(app, made)
            # seat, name and the join code (the web process's three digits: the prompt's text as wide as the guest's)
            app.phones.asks["systest"] = (0, step[1:], new_code())
            app.phones._show_ask(app.manager.get_screen("table"))
            frames(5)
            continue
        kind, tap_id = (step[0], step[1:]) if step[0] in "=+" else ("", step)
        if kind != "+":
            rect = where_once_drawn(tap_id)
            frame(out / f"{shots}.rgb")  # the screen as it is now: a list filled since the last tap shows its rows
            places.append({"rect": rect, "before": f"{shots}.rgb", "after": None})
        if kind != "=" and number < len(steps):
            tap(tap_id)
            frames(5)
            shots += 1
            frame(out / f"{shots}.rgb")
            if kind != "+":
                places[-1]["after"] = f"{shots}.rgb"
    app.phones.stop()
    app.devices.stop()
    app.session.close()
    return places


def main(argv: list[str]) -> None:
    journal, settings, size, out, *steps = argv
    from ui.launch import parse_size

    places = lay_out(Path(journal), Path(settings), parse_size(size), Path(out), steps)
    sys.stdout.write(json.dumps(places) + "\n")
    sys.stdout.flush()
    os._exit(0)  # Kivy's window and threads: no orderly ending needed for an answer given


if __name__ == "__main__":
    main(sys.argv[1:])
