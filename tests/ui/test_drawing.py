"""What a frame costs the renderer: no stencil anywhere on the app's screens (the screen manager
needs none, scrolled lists clip with a scissor box, ui/scroller.py), and a scrolled list still
shows none of its rows outside its box."""

from __future__ import annotations

import random
from typing import Any

from companion import bots
from tests.ui.conftest import frames
from tests.ui.support import new_game_dealt

SETUP = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra"], "draw_by": "app"}


def played(app: Any, actions: int = 60) -> Any:
    """A game the bot played ``actions`` actions into, on the table screen."""
    table = new_game_dealt(app, SETUP)
    rng = random.Random(3)
    while table.length < actions:
        app.session.act(bots.choose(table.game, rng))
    frames()
    return table


def instructions(canvas: Any) -> list[Any]:
    """Every graphics instruction drawn with ``canvas``, its children's too."""
    found = []
    for child in getattr(canvas, "children", []):
        found.append(child)
        found.extend(instructions(child))
    return found


def scrollers(app: Any, name: str) -> list[Any]:
    from kivy.uix.scrollview import ScrollView

    return [w for w in app.manager.get_screen(name).walk(restrict=True) if isinstance(w, ScrollView)]


def test_no_stencil_is_drawn_on_the_table_and_history_screens(app: Any) -> None:
    """The stencil of the screen manager (the window's area filled twice a frame) and of each list are
    gone; each list on the screen pushes a scissor box instead."""
    from kivy.core.window import Window
    from kivy.graphics.scissor_instructions import ScissorPush

    played(app)
    for name in ("table", "history"):
        app.manager.current = name
        frames()
        drawn = instructions(Window.canvas)
        stencils = [type(i).__name__ for i in drawn if type(i).__name__.startswith("Stencil")]
        assert stencils == [], f"{name}: {stencils}"
        lists = scrollers(app, name)
        assert lists, name
        for listing in lists:
            assert any(isinstance(i, ScissorPush) for i in listing.canvas.before.children), name


def pixels() -> bytes:
    """The window's pixels as drawn now (RGBA, bottom row first)."""
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

    Window.canvas.ask_update()
    Window.dispatch("on_draw")
    width, height = Window.size
    return bytes(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE))


def test_a_scrolled_list_shows_no_row_outside_its_box(app: Any) -> None:
    """The history list scrolled to two places: inside its box the rows moved; outside it (the
    summary above, the screen's foot below) not one pixel changed, so no row was drawn there."""
    from kivy.core.window import Window

    played(app, 80)
    app.manager.current = "history"
    frames()
    listing = scrollers(app, "history")[0]
    assert listing.viewport_size[1] > 2 * listing.height, "the list is too short to scroll"
    shots = []
    for scroll_y in (0.3, 0.7):
        listing.scroll_y = scroll_y
        frames()
        shots.append(pixels())
    width, height = Window.size
    bottom, box_height = round(listing.to_window(*listing.pos)[1]), round(listing.height)
    row = width * 4

    def rows(shot: bytes, first: int, last: int) -> bytes:
        return shot[first * row:last * row]

    assert rows(shots[0], bottom, bottom + box_height) != rows(shots[1], bottom, bottom + box_height)
    assert rows(shots[0], 0, bottom) == rows(shots[1], 0, bottom), "a row drawn below the list"
    assert rows(shots[0], bottom + box_height, height) == rows(shots[1], bottom + box_height, height), \
        "a row drawn above the list"


def test_the_scissor_box_follows_a_list_through_a_relative_layout(app: Any) -> None:
    """A list inside a relative layout (a screen, a dialog's content) is clipped where it is drawn in the
    window, not where it stands in its layout: its box is moved by the layout's place."""
    from kivy.core.window import Window
    from kivy.uix.relativelayout import RelativeLayout

    from ui.scroller import Scroller

    layout = RelativeLayout(size_hint=(None, None), pos=(100.4, 50), size=(400, 300))
    listing = Scroller(size_hint=(None, None), pos=(10, 20.6), size=(200, 100))
    layout.add_widget(listing)
    Window.add_widget(layout)
    try:
        frames()
        assert (listing._box.x, listing._box.y, listing._box.width, listing._box.height) == (110, 71, 200, 100)
        listing.pos = (30, 40)  # a moved list: a new box at the next frame
        frames()
        assert (listing._box.x, listing._box.y, listing._box.width, listing._box.height) == (130, 90, 200, 100)
    finally:
        Window.remove_widget(layout)


def test_the_scissor_box_of_a_list_in_a_turned_window_is_turned_too() -> None:
    """Kivy turns a rotated window's drawing (its model-view matrix), not its framebuffer, where a
    scissor box is: a 480×800 window shown turned by 90° on an 800×480 display (Kivy's own matrix
    for it, Window.update_viewport) clips a list at its place on the display."""
    import math

    from kivy.graphics.transformation import Matrix

    from ui.scroller import scissor_box

    turned = Matrix().translate(400, 240, 0).multiply(Matrix().rotate(math.radians(90), 0, 0, 1))
    turned = turned.multiply(Matrix().translate(-240, -400, 0))
    assert scissor_box(turned, 10, 20, 100, 50) == (730, 10, 50, 100)
    assert scissor_box(Matrix(), 10.4, 20.6, 100, 50) == (10, 21, 100, 50)
