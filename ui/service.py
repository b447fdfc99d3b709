"""The app under systemd (``Type=notify``): ``READY=1`` after the first frame, watchdog pings from Kivy's clock.

:class:`ServiceNotifier` uses :mod:`companion.notify`. ``READY=1`` goes
once the window has flipped its first frame onto the screen (Kivy's
``on_flip``, then the next tick), not when the process merely started. The watchdog is pinged
from an event of the UI thread's clock, checked every eighth of ``$WATCHDOG_USEC`` and sent
when a quarter of it has passed, from the first frame on: two pings are at most about three
eighths of it apart, within the half systemd asks for. If the UI thread freezes, the pings
stop and systemd restarts the service. Without
``$NOTIFY_SOCKET`` nothing is sent and nothing fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window

from companion import notify


class ServiceNotifier:
    """Tells systemd the app is ready and alive; ``environ`` (default ``os.environ``) is for tests."""

    def __init__(self, environ: Mapping[str, str] | None = None, status_text: str = "") -> None:
        self.environ = environ
        self.status_text = status_text
        self.watchdog = notify.Watchdog.from_environment(environ)
        self.ready_sent = False
        self.drawn = False
        """Whether the first frame was drawn: no ping before it (a start that hangs is systemd's start timeout)."""
        self._ping_event: Any = None

    def start(self) -> None:
        """On the UI thread, before the first frame: READY after it, pings from the clock."""
        Window.bind(on_flip=self._flipped)
        interval = self.watchdog.interval
        if interval is not None:
            self._ping_event = Clock.schedule_interval(self._ping, interval / 2)

    def _flipped(self, *_: Any) -> None:
        """The first frame is drawn and being flipped onto the screen: READY on the next clock tick, after the flip."""
        Window.unbind(on_flip=self._flipped)
        Clock.schedule_once(self._ready, 0)

    def _ready(self, *_: Any) -> None:
        self.drawn = True
        self.ready_sent = notify.ready(self.status_text or None, environ=self.environ)
        self._ping()

    def _ping(self, *_: Any) -> None:
        if self.drawn:
            self.watchdog.ping()

    def stop(self) -> None:
        """Say STOPPING=1 and stop pinging (the app leaves on purpose)."""
        Window.unbind(on_flip=self._flipped)
        if self._ping_event is not None:
            self._ping_event.cancel()
            self._ping_event = None
        notify.stopping(environ=self.environ)
