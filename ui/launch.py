"""Start the app: window size and kiosk settings go to Kivy before its window exists.

``companion app`` calls :func:`run`; it is imported only then, so the engine
never loads Kivy.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path


def parse_size(text: str) -> tuple[int, int]:
    """``"800x480"`` as ``(800, 480)``; a ValueError names what is wrong.

    >>> parse_size("800x480"), parse_size("1920X1080")
    ((800, 480), (1920, 1080))
    """
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise ValueError(f"the size must be WIDTHxHEIGHT in pixels, e.g. 800x480, not {text[:20]!r}")
    w, h = int(width), int(height)
    if not (200 <= w <= 10000 and 200 <= h <= 10000):
        raise ValueError(f"the size must be from 200 to 10000 pixels each way, not {text[:20]}")
    return w, h


def configure(size: tuple[int, int] | None = None, *, kiosk: bool = False) -> None:
    """Set Kivy's window options; must run before anything imports ``kivy.core.window``.

    Python's garbage collector is off from here until the app's first frame (``CompanionApp.started``
    turns it on again): Kivy's, the engine's and the screens' imports make objects that live as long as
    the app, and the collector went through them some seventy times on the way (about 5 ms of the start
    on the 2-core test machine; the full pass Kivy itself asks for when it makes the window stays).
    """
    import ui  # noqa: F401  (Kivy's environment variables)

    gc.disable()
    from kivy.config import Config

    Config.set("kivy", "exit_on_escape", "0")
    Config.set("kivy", "keyboard_mode", "system")  # a plugged-in keyboard types into a pad; never Kivy's own
    Config.set("kivy", "log_level", "warning")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")  # no red dots from right clicks
    # No multisampling, as on the Pi (systemd/kivy-config.ini): the screen is rectangles and text,
    # and smoothing every edge nearly doubles what a frame costs where GL is drawn in software.
    Config.set("graphics", "multisamples", "0")
    if size is not None:
        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))
    if kiosk:
        Config.set("graphics", "show_cursor", "0")
        if os.environ.get("SDL_VIDEODRIVER", "").lower() == "kmsdrm":
            Config.set("graphics", "fullscreen", "auto")  # a KMS/DRM window is the whole display anyway
        else:
            # Borderless in the corner, then the display's size (ui.display.fit): a window made
            # fullscreen at once stays 800×600 and centred on an X server without a window manager.
            Config.set("graphics", "fullscreen", "0")
            Config.set("graphics", "borderless", "1")
            Config.set("graphics", "position", "custom")
            Config.set("graphics", "left", "0")
            Config.set("graphics", "top", "0")


def speed_up_start() -> None:
    """What only the app's own process does to start sooner, after :func:`configure` and before Kivy's
    language and the app are imported: Kivy's own rules read from the kv cache (:func:`ui.kvcache.cache_kivy_style`,
    an import hook around Kivy's parser) and the dataclasses' methods from theirs
    (:func:`companion.classcache.install`). Each replaces something of another module for the rest of the
    process, so neither is done by importing the engine or the app's modules; why each is worth it, per
    Python version: docs/benchmarks.md.
    """
    from companion import classcache
    from ui import kvcache

    kvcache.cache_kivy_style()  # before kivy.app imports Kivy's language, which parses its style.kv
    classcache.install()  # before the app's modules make their dataclasses


class NoDisplay(Exception):
    """No window can be shown here: the message is one sentence saying why."""


def run(db: str | os.PathLike[str] | None = None, *, kiosk: bool = False, size: tuple[int, int] | None = None,
        lang: str | None = None) -> int:
    """Run the app until it is left, in ``lang`` (None: the saved language); returns the exit status.
    Raises :class:`NoDisplay` where there is no screen."""
    from ui import display

    problem = display.missing()
    if problem is not None:
        raise NoDisplay(problem)
    configure(size, kiosk=kiosk)
    speed_up_start()
    from kivy.app import App
    from kivy.logger import Logger

    from ui import signals

    def leave(name: str) -> None:
        Logger.warning("App: %s: leaving", name)
        app = App.get_running_app()
        if app is not None:
            app.stop()

    signals.install(leave)  # before SDL starts: a stop signal is never a window-close request
    Logger.addFilter(display.ProviderErrorsOnly())
    from kivy.core.window import Window

    problem = display.unusable(Window)
    if problem is not None:
        raise NoDisplay(problem)
    from ui.app import CompanionApp

    CompanionApp(None if db is None else Path(db), kiosk=kiosk, lang=lang).run()
    return 0
