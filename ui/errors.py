"""A fault in the screen's own code does not end the evening.

The game is safe whatever the screen does: every action is in the journal
before it is shown. But an uncaught exception in a Kivy callback would end
the app (the kiosk's service starts it again, and a fault that comes back on
the same game would stop it for good). So a fault is written to the log
with its traceback, the people at the table read one sentence, and the app
goes on with the next frame. Only a fault that comes back on every frame
for :data:`GIVE_UP_AFTER` frames in a row, with nothing drawn between, ends
the app (its service then starts it again).

>>> short(KeyError("price"))
"KeyError: 'price'"
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.base import ExceptionHandler, ExceptionManager
from kivy.core.window import Window

log = logging.getLogger("ui")

GIVE_UP_AFTER = 300
"""Faults in a row with no frame drawn between (5 s at 60 Hz) before the app ends and is started again."""


def short(error: BaseException) -> str:
    """The fault in one line for the screen: its kind and message, at most 120 characters."""
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return text if len(text) <= 120 else text[:119] + "…"


reported: list[str] = []
"""Every fault said on screen in this process, in one line each (the UI tests fail on any they did not expect)."""


def report(app: Any, error: BaseException) -> None:
    """Log ``error`` with its traceback and say in one sentence that the screen hit a fault."""
    log.error("the screen hit a fault", exc_info=error)
    reported.append(short(error))
    try:
        sentence = str(app.t(app.lang, "ui.error.screen", error=short(error)))
    except Exception:  # the catalogue itself failed: still one plain line
        sentence = short(error)
    app.said = app.notice = sentence
    screen = getattr(getattr(app, "manager", None), "current_screen", None)
    if screen is not None and hasattr(screen, "said_text"):
        screen.said_text = sentence


class KeepRunning(ExceptionHandler):
    """Kivy's main loop asks this handler about every exception that reaches it: go on (PASS)."""

    def __init__(self, app: Any) -> None:
        super().__init__()
        self.app = app
        self.in_a_row = 0

    def drawn(self, *_: Any) -> None:
        """A frame was drawn: the faults so far did not stop the screen."""
        self.in_a_row = 0

    def handle_exception(self, exception: BaseException) -> int:
        if not isinstance(exception, Exception):  # Ctrl+C, SystemExit: the app is being ended
            return int(ExceptionManager.RAISE)
        self.in_a_row += 1
        if self.in_a_row > GIVE_UP_AFTER:
            log.critical("the same fault on every frame for %d frames: the app ends", GIVE_UP_AFTER)
            return int(ExceptionManager.RAISE)
        if self.in_a_row == 1:  # once per run of faults: a fault on every frame is logged once
            report(self.app, exception)
        return int(ExceptionManager.PASS)


def install(app: Any) -> KeepRunning:
    """Put the handler in Kivy's main loop for ``app``; returns it (tests call it as the loop would)."""
    handler = KeepRunning(app)
    ExceptionManager.add_handler(handler)
    Window.bind(on_flip=handler.drawn)
    return handler
