"""Is there a screen to draw on, and how large is it: asked before Kivy starts and once its window exists.

Without a screen SDL does not fail: with no ``$DISPLAY`` it falls back to
its ``offscreen`` driver and the app runs, invisible, for ever; where its
driver was named (the unit's ``SDL_VIDEODRIVER=kmsdrm``, ``KIVY_WINDOW=sdl2``)
Kivy is left with no window at all. :func:`missing` says what is missing
before Kivy is imported, :func:`unusable` what Kivy's window turned out to
be; each is one sentence for ``companion app`` to end with.

:func:`bounds` is the screen's position and size as SDL sees it (through
the SDL library Kivy loaded), so that a window can be fitted to it: an X
server without a window manager ignores a fullscreen request, and Kivy's
default 800×600 window does not fit the 7-inch 800×480 display.
"""

from __future__ import annotations

import ctypes
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ASKED_OFFSCREEN = ("offscreen", "dummy", "evdev")
"""SDL drivers that draw on no screen: used only where ``SDL_VIDEODRIVER`` asks for them (tests, benchmarks)."""
NO_SCREEN_HINT = "use `companion table` for the text console"


def missing(environ: Mapping[str, str] | None = None, *, dri: Path = Path("/dev/dri")) -> str | None:
    """Why no window can be opened here, before trying; None where one may be.

    >>> missing({"DISPLAY": ":0"}) is None, missing({"SDL_VIDEODRIVER": "dummy"}) is None
    (True, True)
    >>> missing({}, dri=Path("/nonexistent")).startswith("there is no display here")
    True
    >>> missing({"SDL_VIDEODRIVER": "kmsdrm"}, dri=Path("/nonexistent")).startswith("SDL_VIDEODRIVER=kmsdrm")
    True
    """
    env = os.environ if environ is None else environ
    driver = env.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver in ASKED_OFFSCREEN:
        return None
    if driver == "kmsdrm":
        if any(dri.glob("card*")):
            return None
        return f"SDL_VIDEODRIVER=kmsdrm, but there is no DRM display device ({dri}/card*); {NO_SCREEN_HINT}"
    if driver == "x11" and not env.get("DISPLAY"):
        return f"SDL_VIDEODRIVER=x11, but DISPLAY is not set; {NO_SCREEN_HINT}"
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return ("there is no display here (neither DISPLAY nor WAYLAND_DISPLAY is set; on the Raspberry Pi's own "
            f"display without a desktop set SDL_VIDEODRIVER=kmsdrm); {NO_SCREEN_HINT}")


def unusable(window: Any, environ: Mapping[str, str] | None = None) -> str | None:
    """Why Kivy's window (``kivy.core.window.Window``) shows nothing; None if it is on a screen."""
    if window is None:
        return f"no window could be opened on this display (the log above says why); {NO_SCREEN_HINT}"
    env = os.environ if environ is None else environ
    driver = video_driver()
    if driver in ASKED_OFFSCREEN and env.get("SDL_VIDEODRIVER", "").strip().lower() != driver:
        where = env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or "none"
        return f"no screen could be reached (display {where}), so the app would draw off-screen; {NO_SCREEN_HINT}"
    return None


class ProviderErrorsOnly(logging.Filter):
    """Kivy's "no window provider" line with each provider's error but not its traceback: a missing
    screen is an expected failure, said in one sentence after it (install on ``kivy.logger.Logger``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "Unable to find any valuable" in record.msg:
            record.msg = "\n".join(line for line in record.msg.splitlines() if line and not line[0].isspace())
        return True


class _Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("w", ctypes.c_int), ("h", ctypes.c_int)]


def _sdl() -> Any:
    """The SDL2 library this process loaded (Kivy's wheel bundles its own), or None before Kivy's window."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            paths = {line.split(maxsplit=5)[-1].strip() for line in maps if "/libSDL2-2" in line}
    except OSError:
        return None
    for path in sorted(paths):
        try:
            return ctypes.CDLL(path)  # the library already loaded: its state, not a second copy
        except OSError:
            continue
    return None


def video_driver() -> str | None:
    """SDL's video driver in use (``x11``, ``kmsdrm``, ``offscreen``…); None before SDL has started."""
    lib = _sdl()
    if lib is None:
        return None
    lib.SDL_GetCurrentVideoDriver.restype = ctypes.c_char_p
    name = lib.SDL_GetCurrentVideoDriver()
    return name.decode() if name else None


def bounds(display: int = 0) -> tuple[int, int, int, int] | None:
    """The display's left, top, width and height in pixels, as SDL sees it; None if it cannot say."""
    lib = _sdl()
    rect = _Rect()
    if lib is None or lib.SDL_GetDisplayBounds(display, ctypes.byref(rect)) != 0 or rect.w <= 0 or rect.h <= 0:
        return None
    return rect.x, rect.y, rect.w, rect.h


def fit(window: Any, *, full: bool) -> None:
    """Fit Kivy's window to the display: all of it when ``full``, else no larger than it.

    Full: fullscreen, and on X11 also borderless at the display's own place and size first, since an
    X server without a window manager ignores the fullscreen request (a window manager honours it).
    """
    if not full and (window.fullscreen or window.borderless):  # back from full screen to a window
        window.fullscreen = False
        window.borderless = False
    box = bounds()
    on_x11 = video_driver() == "x11"
    if box is not None and on_x11:
        left, top, width, height = box
        size = (width, height) if full else (min(window.system_size[0], width), min(window.system_size[1], height))
        if full or tuple(size) != tuple(window.system_size):
            window.borderless = window.borderless or full
            window.size = size if window.rotation in (0, 180) else size[::-1]  # size is turned, the window is not
            window.left, window.top = left, top
    if full:
        window.fullscreen = "auto"
