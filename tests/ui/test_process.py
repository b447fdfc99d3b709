"""``companion app`` as a process, as systemd runs it (issue 12): a stop signal ends it at once with
STOPPING=1, even in the kiosk; its window fits the screen of an X server without a window manager;
where no window can be shown it says so in one sentence and ends."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ui.conftest import xvfb
from ui.settings import Settings

COMMAND = Path(sys.executable).with_name("companion")
SCREEN = (800, 480)


@pytest.fixture(scope="module")
def small_screen() -> Iterator[str]:
    """The 7-inch display's 800×480 as a bare X server: no window manager to make a window fullscreen."""
    with xvfb(f"{SCREEN[0]}x{SCREEN[1]}x24", first=140) as name:
        yield name


def app_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The app's environment: its own settings (a PIN set, so the kiosk asks for none) and Kivy folder."""
    settings = Settings()
    settings.set_pin("2468")
    settings.save(tmp_path / "settings.json")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "WATCHDOG_PID")}
    return {**env, "COMPANION_SETTINGS": str(tmp_path / "settings.json"), "KIVY_HOME": str(tmp_path / "kivy"), **extra}


def messages(sock: socket.socket, seconds: float) -> list[str]:
    """What arrived at the notify socket within ``seconds``."""
    got, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            got.append(sock.recv(4096).decode())
        except (TimeoutError, BlockingIOError):
            break
    return got


def window_geometry(display: str) -> tuple[int, int, int, int]:
    """The app's top-level window as the X server has it: width, height, left, top (absolute)."""
    tree = subprocess.run(["xwininfo", "-root", "-tree"], env={**os.environ, "DISPLAY": display},
                          capture_output=True, text=True, timeout=30).stdout
    match = re.search(r'"Table companion":.*?(\d+)x(\d+)[+-]-?\d+[+-]-?\d+\s+\+?(-?\d+)\+?(-?\d+)', tree)
    assert match, tree
    width, height, left, top = (int(g) for g in match.groups())
    return width, height, left, top


@pytest.mark.parametrize(("args", "stop"), [
    (["--kiosk"], signal.SIGTERM),
    ([], signal.SIGTERM),
    (["--kiosk"], signal.SIGINT),
    ([], signal.SIGHUP),
], ids=["kiosk-TERM", "window-TERM", "kiosk-INT", "window-HUP"])
def test_the_window_fits_the_screen_and_a_stop_signal_ends_the_app_at_once(
        small_screen: str, tmp_path: Path, args: list[str], stop: signal.Signals) -> None:
    address = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    env = app_env(tmp_path, DISPLAY=small_screen, NOTIFY_SOCKET=address, WATCHDOG_USEC="4000000")
    app = subprocess.Popen([str(COMMAND), "--db", str(tmp_path / "games.db"), "app", *args], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        got: list[str] = []
        deadline = time.monotonic() + 90
        while "READY=1" not in got and app.poll() is None and time.monotonic() < deadline:
            got += messages(sock, 0.5)
        assert "READY=1" in got, (got, app.poll())
        width, height, left, top = window_geometry(small_screen)
        if "--kiosk" in args:  # the whole screen, and only it
            assert (width, height, left, top) == (*SCREEN, 0, 0)
        else:  # Kivy's default 800×600 does not fit: the window must
            assert width <= SCREEN[0] and height <= SCREEN[1] and left >= 0 and top >= 0
            assert left + width <= SCREEN[0] and top + height <= SCREEN[1]
        sent = time.monotonic()
        app.send_signal(stop)
        app.wait(10)
        took = time.monotonic() - sent
        got += messages(sock, 0.5)
    finally:
        if app.poll() is None:
            app.kill()
        _, err = app.communicate(timeout=20)
        sock.close()
    assert took < 3, f"{stop.name} took {took:.1f} s"
    assert app.returncode == 0 and "STOPPING=1" in got, (app.returncode, got)
    assert b"Traceback" not in err, err.decode(errors="replace")[-2000:]


def free_display() -> str:
    return next(f":{n}" for n in range(700, 800) if not Path(f"/tmp/.X11-unix/X{n}").exists())


NO_SCREEN = {
    "no DISPLAY and no DRM device": {},
    "kmsdrm without a DRM device": {"SDL_VIDEODRIVER": "kmsdrm"},
    "an X display nobody serves": {"DISPLAY": "free"},
    "the unit's sdl2 window on an X display nobody serves": {"DISPLAY": "free", "SDL_VIDEODRIVER": "x11", "KIVY_WINDOW": "sdl2"},
}


@pytest.mark.parametrize("case", NO_SCREEN, ids=list(NO_SCREEN))
def test_no_screen_is_one_sentence_and_an_exit(tmp_path: Path, case: str) -> None:
    if any(Path("/dev/dri").glob("card*")) and "DISPLAY" not in NO_SCREEN[case]:
        pytest.skip("this machine has a DRM display device")
    extra = {k: free_display() if v == "free" else v for k, v in NO_SCREEN[case].items()}
    started = time.monotonic()
    try:
        done = subprocess.run([str(COMMAND), "--db", str(tmp_path / "games.db"), "app", "--kiosk"],
                              env=app_env(tmp_path, **extra), capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("the app ran on without a screen")
    assert time.monotonic() - started < 20
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 2 and done.stdout == "", done.stderr[-2000:]
    assert re.fullmatch(r"companion: [^\n]*(display|screen)[^\n]*; use `companion table` for the text console", last), last
    assert "AttributeError" not in done.stderr and 'File "' not in done.stderr, done.stderr[-2000:]  # no traceback
    assert not (tmp_path / "games.db").exists()
