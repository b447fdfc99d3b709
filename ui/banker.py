"""What only the banker may do: the PIN gate, setting the PIN (typed twice), and undo that asks for it
when it goes back past the turn or takes back a correction.

Every screen that offers undo (the table, the history) and every dialog the
banker alone opens (the correction, leaving the kiosk) goes through here,
so the gate is the same everywhere.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from kivy.app import App

from companion.messages import Said
from ui import background
from ui.widgets import CHECKING, Caption, ListView, Pad, RowButton, pin_pad

SHORTEST_PIN = 4


def with_pin(title_key: str, then: Callable[[], object], *, always: bool = True, reason: Said | None = None,
             offer: bool = False) -> None:
    """Run ``then()`` after the banker's PIN; at once when ``always`` is False or no PIN is set.
    The pad's title is ``reason`` in the screen's language where one is given, else ``title_key``'s text.

    With ``offer`` (a deep undo, a take-back, a correction) and no PIN set, the banker is first
    offered to set one, or to go on without (asked once an evening). While the settings file could
    not be read, a PIN may have been lost: nothing goes on until the banker sets one or goes on without.
    """
    a: Any = App.get_running_app()
    if not always:
        then()
    elif a.settings.pin_unknown:
        offer_pin("ui.pin.unknown", then)
    elif not a.settings.has_pin:
        if offer and not getattr(a, "pin_declined", False):
            offer_pin("ui.pin.offer", then)
        else:
            then()
    else:
        def check(pin: str) -> str | None:
            """The salted scrypt (:data:`ui.settings.SCRYPT`) on a worker thread: the screen goes on drawing."""
            settings = a.settings
            background.run(lambda: settings.check_pin(pin), checked, name="pin-check")
            return CHECKING

        def checked(right: bool) -> None:
            if closed:
                return  # cancelled while it was checked: nothing is done
            if not right:
                pad.answer("ui.pin.wrong")
                return
            then()
            pad.answer(None)

        closed: list[bool] = []
        pad = pin_pad(reason.text(a.lang) if reason is not None else a.t(a.lang, title_key), check)
        pad.fbind("on_dismiss", lambda *_: closed.append(True))


def offer_pin(hint_key: str, then: Callable[[], object]) -> ListView:
    """The dialog that offers to set a banker PIN before ``then()``, or to go on without one; Close does neither."""
    a: Any = App.get_running_app()
    view = ListView(title=a.t(a.lang, "ui.pin.offer_title"))
    view.add_row(Caption(text=a.t(a.lang, hint_key)))

    def set_one(*_: Any) -> None:
        view.dismiss()
        new_pin("ui.pin.new", then)

    def without(*_: Any) -> None:
        view.dismiss()
        a.pin_declined = True
        a.settings.pin_unknown = False  # the banker has decided
        then()

    for tap_id, key, run in (("pin:set", "ui.pin.offer_set", set_one), ("pin:skip", "ui.pin.offer_skip", without)):
        button = RowButton(tap_id=tap_id, text=a.t(a.lang, key))
        button.bind(on_release=run)
        view.add_row(button)
    view.open()
    return view


def new_pin(title_key: str, then: Callable[[], object] | None = None) -> Pad:
    """The pad that sets a new banker PIN (at least :data:`SHORTEST_PIN` digits), saved as a salted hash.

    It is typed twice: a second entry that differs says so, and the PIN is typed anew from the first.
    A first pad that cannot be cancelled (the kiosk's first start) makes the next ones so too.
    """
    a: Any = App.get_running_app()

    def first(pin: str) -> str | None:
        if len(pin) < SHORTEST_PIN:
            return "ui.pin.too_short"
        like(pin_pad(a.t(a.lang, "ui.pin.again"), partial(second, pin)))
        return None

    def second(pin: str, again: str) -> str | None:
        if again != pin:
            pad = like(pin_pad(a.t(a.lang, title_key), first))
            pad.problem = a.t(a.lang, "ui.pin.mismatch")
            return None
        a.settings.set_pin(pin)
        a.save_settings()
        a.say_key("ui.pin.saved")
        if then is not None:
            then()
        return None

    pad = pin_pad(a.t(a.lang, title_key), first)

    def like(other: Pad) -> Pad:
        other.ids.cancel.disabled = pad.ids.cancel.disabled
        return other

    return pad


def undo() -> None:
    """Undo the last action; the PIN first, titled with the engine's reason, when that goes back past
    the current player's turn or takes back a banker's correction (``Table.undo_pin``)."""
    a: Any = App.get_running_app()
    reason = a.session.undo_pin()
    with_pin("ui.pin.undo", a.session.undo, always=reason is not None, reason=reason, offer=True)


def redo() -> None:
    App.get_running_app().session.redo()
