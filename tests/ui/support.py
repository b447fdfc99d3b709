"""Tapping the real app by ``tap_id`` and counting the taps."""

from __future__ import annotations

from typing import Any

from tests.ui.conftest import frames


class Taps:
    """Counts the taps a test makes (the issue's limits on a typical turn)."""

    count = 0


def widgets() -> list[Any]:
    """Every widget in the window, dialogs on top first (they take touches first)."""
    from kivy.core.window import Window

    out: list[Any] = []
    for root in Window.children:  # the last opened dialog is first
        out.extend(root.walk(restrict=True))
    return out


def find(tap_id: str) -> Any:
    for widget in widgets():
        if getattr(widget, "tap_id", None) == tap_id:
            return widget
    raise AssertionError(f"no widget {tap_id!r} on screen; there are: {visible_ids()}")


def visible_ids() -> list[str]:
    return [w.tap_id for w in widgets() if getattr(w, "tap_id", "")]


def tap(tap_id: str, at: tuple[float, float] = (0.5, 0.5)) -> Any:
    """Touch the widget named ``tap_id`` as a finger would, at its centre or ``at`` (fractions of its
    width and height from its bottom left), and let the screen settle."""
    from kivy.tests.common import UnitTestTouch

    from kivy.uix.scrollview import ScrollView

    widget = find(tap_id)
    assert not getattr(widget, "disabled", False), f"{tap_id} is disabled"
    parent = widget.parent
    while parent is not None and parent is not parent.parent and not isinstance(parent, ScrollView):
        parent = parent.parent  # up to the window, which is its own parent
    if isinstance(parent, ScrollView):  # a finger scrolls the list first: that is no tap on an action
        frames()  # the list laid out first
        content, seen = parent.children[0].height, parent.height
        if content > seen:
            bottom = min(max(widget.center_y - seen / 2, 0), content - seen)
            parent.scroll_y = bottom / (content - seen)
            frames()
    x, y = widget.to_window(widget.x + widget.width * at[0], widget.y + widget.height * at[1])
    pressed: list[bool] = []
    widget.bind(on_release=lambda *_: pressed.append(True))
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    frames()
    where = (f"scroll view at {parent.to_window(*parent.pos)} size {parent.size} scroll_y {parent.scroll_y} "
             f"content {parent.children[0].size} widget {widget.pos} {widget.size}") if isinstance(parent, ScrollView) else ""
    assert pressed, f"{tap_id} at {x:.0f},{y:.0f} did not get the touch (covered or off screen) {where}"
    Taps.count += 1
    return widget


def new_game_dealt(app: Any, setup: dict[str, Any], seed: int = 0) -> Any:
    """Start a game on the table screen with a fixed deal of the deck instead of the app's random one,
    so a test that rolls lands on the same cards every run. Returns the table."""
    import random

    assert app.session.new_game(setup, deal=False) is None
    table = app.session.table
    for choice in table.legal_actions():
        if choice.type == "shuffle":
            app.session.act(choice.sample(random.Random(seed)))
    app.manager.current = "table"
    frames()
    return table


TABS = (0.5, 0.98)
"""Where on the market-or-board panel its tabs are (its top): a tap there switches, a tap on a
company shows who holds it."""
