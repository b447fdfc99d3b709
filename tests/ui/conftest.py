"""The real app in a real window: one Xvfb display and one app for the whole UI test session.

Kivy has one window per process, so the app is built once; each test gets
it back on the start screen with a fresh journal and settings file. Taps
are touches sent through the window at the widget's centre (a widget
hidden under a dialog does not get them), then frames are drawn until the
screen has settled. With ``CI`` set, a missing display fails the tests
instead of skipping them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

SIZE = (800, 480)


def _no_display(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"UI tests cannot run: {reason}")
    pytest.skip(reason)


@contextmanager
def xvfb(screen: str = "1920x1080x24", first: int = 90) -> Iterator[str]:
    """A virtual X display of its own (no window manager), named ``:N``; gone at the end."""
    if shutil.which("Xvfb") is None:
        _no_display("Xvfb is not installed (./run test installs it)")
    for number in range(first, first + 50):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            break
    name = f":{number}"
    server = subprocess.Popen(
        ["Xvfb", name, "-screen", "0", screen, "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            _no_display(f"Xvfb did not start on {name}")
        time.sleep(0.05)
    try:
        yield name
    finally:
        server.terminate()
        server.wait(5)


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """A virtual X display (Xvfb), unless the tests run on one already (``$DISPLAY``)."""
    if os.environ.get("DISPLAY") and not os.environ.get("COMPANION_TEST_XVFB"):
        yield os.environ["DISPLAY"]
        return
    with xvfb() as name:
        os.environ["DISPLAY"] = name
        yield name


@pytest.fixture(scope="session")
def kivy_app(display: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    base = tmp_path_factory.mktemp("app")
    os.environ["KIVY_HOME"] = str(base / "kivy")
    from ui import launch

    launch.configure(SIZE)
    from ui.app import CompanionApp

    app = CompanionApp(base / "games.db", settings_path=base / "settings.json")
    app._run_prepare()
    yield app
    app.devices.stop()
    app.session.close()
    app.stop()


@pytest.fixture
def app(kivy_app: Any, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Any]:
    """The app on the start screen, in English, with an empty journal and no settings file.

    The app says a fault in its own code as a sentence and goes on (ui/errors.py); a test fails
    on any such fault unless it is marked ``faults_expected``.
    """
    from ui import errors
    from kivy.core.window import Window

    from ui.settings import Settings
    from ui.session import Session

    for child in list(Window.children):
        if hasattr(child, "dismiss") and child is not kivy_app.root:
            child.dismiss(animation=False)
    kivy_app.devices.stop()  # no die and no buttons unless a test sets them up
    kivy_app.pin_factory = None
    kivy_app.session.close()
    kivy_app.session = Session(tmp_path / "games.db")
    kivy_app.session.listen(kivy_app._game_changed)
    kivy_app.settings_path = tmp_path / "settings.json"
    kivy_app.settings = Settings()
    kivy_app.pin_declined = False  # no "go on without a PIN" said yet
    kivy_app.lang = "en"
    kivy_app.said = ""
    Window.size = SIZE
    kivy_app.manager.get_screen("table").ids.panel.board_shown = False  # the market, as a new table shows it
    from ui.screens.newgame import Draft

    kivy_app.manager.get_screen("new").draft = Draft()  # no players left from another test's new game
    kivy_app.manager.current = "start"
    kivy_app.redraw()
    frames()
    faults = len(errors.reported)
    yield kivy_app
    kivy_app.devices.stop()
    unexpected = errors.reported[faults:]
    if unexpected and request.node.get_closest_marker("faults_expected") is None:
        pytest.fail(f"the screen hit a fault: {unexpected}")


def frames(count: int = 3) -> None:
    """Let Kivy run its clock and draw ``count`` frames, then more until the work handed to worker
    threads (``ui.background``: a PIN's check) has answered on the main thread, as a person waits for it."""
    from kivy.base import EventLoop

    from ui import background

    for _ in range(count):
        EventLoop.idle()
    deadline = time.monotonic() + 30
    while background.pending() and time.monotonic() < deadline:
        time.sleep(0.005)
        EventLoop.idle()
