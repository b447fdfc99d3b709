"""What only the banker may do: the PIN gate, and undo that asks for it when it goes back past the turn.

Every screen that offers undo (the table, the history) and every dialog the
banker alone opens (the correction, leaving the kiosk) goes through here,
so the gate is the same everywhere.
"""

from __future__ import annotations

from typing import Any, Callable

from kivy.app import App

from companion.messages import Said
from ui.widgets import Pad, pin_pad

SHORTEST_PIN = 4


def with_pin(title_key: str, then: Callable[[], object], *, always: bool = True, reason: Said | None = None) -> None:
    """Run ``then()`` after the banker's PIN; at once when no PIN is set or ``always`` is False.
    The pad's title is ``reason`` in the screen's language where one is given, else ``title_key``'s text."""
    a: Any = App.get_running_app()
    if not always or not a.settings.has_pin:
        then()
        return

    def check(pin: str) -> str | None:
        if not a.settings.check_pin(pin):
            return "ui.pin.wrong"
        then()
        return None

    pin_pad(reason.text(a.lang) if reason is not None else a.t(a.lang, title_key), check)


def new_pin(title_key: str, then: Callable[[], None] | None = None) -> Pad:
    """The pad that sets a new banker PIN (at least :data:`SHORTEST_PIN` digits), saved as a salted hash."""
    a: Any = App.get_running_app()

    def done(pin: str) -> str | None:
        if len(pin) < SHORTEST_PIN:
            return "ui.pin.too_short"
        a.settings.set_pin(pin)
        a.save_settings()
        a.say_key("ui.pin.saved")
        if then is not None:
            then()
        return None

    return pin_pad(a.t(a.lang, title_key), done)


def undo() -> None:
    """Undo the last action; the PIN first, titled with the engine's reason, when that goes back past
    the current player's turn or takes back a banker's correction (``Table.undo_pin``)."""
    a: Any = App.get_running_app()
    reason = a.session.undo_pin()
    with_pin("ui.pin.undo", a.session.undo, always=reason is not None, reason=reason)


def redo() -> None:
    App.get_running_app().session.redo()
