"""Leave the app on SIGTERM, SIGINT and SIGHUP: promptly, cleanly, and never through the window's close.

SDL's own handlers would turn SIGTERM and SIGINT into the window's quit
event, which the kiosk refuses like a tap on the close button (it asks for
the PIN): ``systemctl stop`` then waited for its timeout and killed the app.
So SDL installs none (``SDL_NO_SIGNAL_HANDLERS=1``, set in :mod:`ui`
before SDL starts), and :func:`install` puts Python handlers in their place
before the window exists. A handler only schedules the leaving on Kivy's
clock: it runs on the UI thread between two actions, so the app stops as it
does when the banker leaves with the PIN (``STOPPING=1``, the die and the
buttons stopped, the journal closed). A window close stays a request the
kiosk may refuse.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from types import FrameType

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
"""systemd's stop, Ctrl+C in a terminal, and the terminal closed."""


def install(leave: Callable[[str], None]) -> None:
    """Call ``leave(name of the signal)`` on Kivy's clock when a stop signal comes (main thread only)."""
    from kivy.clock import Clock

    def handler(number: int, _frame: FrameType | None) -> None:
        name = signal.Signals(number).name
        Clock.schedule_once(lambda _dt: leave(name), 0)

    for number in STOP_SIGNALS:
        signal.signal(number, handler)
